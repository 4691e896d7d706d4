// NCCL RAS reports ([formats 4]; verbatim blocks from NVIDIA/nccl docs ras.rst and the
// format strings of src/ras/client_support.cc), read through the real LogScanner.
#include "parsers/rasparser.h"

#include "scanhelpers.h"

#include <catch2/catch.hpp>

#include <string>

using namespace rankscope;
using model::EventKind;
using model::Severity;
using rankscope::testing::eventsOf;
using rankscope::testing::firstOf;
using rankscope::testing::scan;
using rankscope::testing::str;

namespace {

// [formats 4]: the text report after one process was stopped (2.24, "The missing rank:" wording).
const char* const kIncompleteReport = R"(NCCL version 2.24.3+cuda12.2 compiled with CUDA 12.2
CUDA runtime version 12020, driver version 12040

Job summary
===========

  Nodes  Processes         GPUs  Processes     GPUs
(total)   per node  per process    (total)  (total)
      4          8            1         32       32

Communicators... (2.05s)
=============

Group     Comms     Nodes     Ranks     Ranks     Ranks    Status  Errors
    #  in group  per comm  per node  per comm  in group
    0         1         4       7-8        32        32   RUNNING  INCOMPLETE

Errors
======

INCOMPLETE
  Missing communicator data from 1 job process
  Process 3487984 on node 172.16.64.213 managing GPU 5

#0-0 (cf264af53edbe986) INCOMPLETE
  Missing communicator data from 1 rank
  The missing rank: 21

Warnings
========

TIMEOUT
  Encountered 2 communication timeouts while gathering communicator data

)";

const char* const kDeadReport = R"(Errors
======

DEAD
  1 job process is considered dead (unreachable via the RAS network)
  Process 3487984 on node 172.16.64.213 managing GPU 5

#0-0 (cf264af53edbe986) INCOMPLETE
  Missing communicator data from 1 rank
  The missing rank: 21
)";

const char* const kCountMismatch = R"(Warnings
========

#0-0 (27a079b828ff1a75) MISMATCH
  Communicator ranks have different collective operation counts
  26 ranks have launched up to operation 6650
  6 ranks have launched up to operation 6649
  Rank 0 -- GPU 0 managed by process 483072 on node 172.16.64.210
  Rank 2 -- GPU 2 managed by process 483074 on node 172.16.64.210
  Rank 3 -- GPU 3 managed by process 483075 on node 172.16.64.210
  Rank 4 -- GPU 4 managed by process 483076 on node 172.16.64.210
  Rank 5 -- GPU 5 managed by process 483077 on node 172.16.64.210
  Rank 7 -- GPU 7 managed by process 483079 on node 172.16.64.210
)";

// 2.26+: per collective type, single-rank groups print their own count.
const char* const kTypedMismatch = R"(Warnings
========

#1-0 (9e17999afaa87dbb) MISMATCH
  Communicator ranks have different AllReduce operation counts
  6 ranks have launched up to operation 120
  Rank 5 has launched up to operation 119 -- GPU 5 (NVML 7) managed by process 483077 on node 172.16.64.210
  Rank 7 has not launched any operations -- GPU 7 managed by process 483079 on node 172.16.64.210

)";

// The status mismatch of ras.rst (communicator being torn down): no count events.
const char* const kStatusMismatch = R"(Warnings
========

#0-0 (9e17999afaa87dbb) MISMATCH
  Communicator ranks have different status
  26 ranks have status UNKNOWN
  4 ranks have status RUNNING
  Rank 0 -- GPU 0 managed by process 507285 on node 172.16.64.210
  Rank 8 -- GPU 0 managed by process 1598388 on node 172.16.64.212
  Rank 16 -- GPU 0 managed by process 3500071 on node 172.16.64.213
  Rank 24 -- GPU 0 managed by process 2405067 on node 172.16.64.222
  2 ranks have status FINALIZE
  Rank 4 -- GPU 4 managed by process 507289 on node 172.16.64.210
  Rank 20 -- GPU 4 managed by process 3500075 on node 172.16.64.213
)";

const char* const kErrorBlock = R"(Errors
======

#0-0 (cf264af53edbe986) ERROR
  Asynchronous errors on 3 ranks
  2 ranks reported Remote process error
  Rank 1 -- GPU 1 managed by process 4101 on node 10.0.0.1
  Rank 2 -- GPU 2 managed by process 4102 on node 10.0.0.1
  Rank 3 reported Unhandled CUDA error -- GPU 3 managed by process 4103 on node 10.0.0.1

)";

// ras.rst "JSON Output" sample (2.29.1).
const char* const kJsonSample = R"({
  "nccl_version": "2.29.1",
  "cuda_runtime_version": 13000,
  "cuda_driver_version": 13000,
  "timestamp": "2025-12-19 13:06:53",
  "communicators_count": 1,
  "communicators": [
    {
      "hash": "0xae94423cfbb2ef4a",
      "secondary_hash": "0xb7e7187447156001:0xb8242ed28a71381e",
      "size": 2,
      "ranks_count": 1,
      "missing_ranks_count": 1,
      "ranks": [
        {
          "rank": 0,
          "host": "172.16.64.245",
          "pid": 1524344,
          "cuda_dev": 0,
          "nvml_dev": 0,
          "status": {
            "init_state": 0,
            "async_error": 0,
            "finalize_called": false,
            "destroy_flag": false,
            "abort_flag": false
          },
          "collective_counts": {
            "Broadcast": 0,
            "Reduce": 0,
            "AllGather": 0,
            "ReduceScatter": 0,
            "AllReduce": 0
          }
        }
      ],
      "missing_ranks": [
        {
          "rank": 1,
          "host": "172.16.64.245",
          "pid": 1524345,
          "cuda_dev": 1,
          "nvml_dev": 1,
          "status": {
            "unresponsive": true,
            "considered_dead": false
          }
        }
      ]
    }
  ],
  "ras": {
    "collection_time_sec": 0.000,
    "timeouts_count": 0
  }
}
)";

model::ParsedSource ras(std::string_view text)
{
    return scan(text, "ras/ncclras_status.txt");
}

model::ParsedSource rasJson(std::string_view json)
{
    model::Source src;
    src.id = 4;
    src.path = "ras/ncclras.json";
    model::ParsedSource out(std::move(src));
    parsers::parseRasJson(json, out);
    return out;
}

} // namespace

TEST_CASE("ncclras report header yields a report event with the NCCL version", "[parsers][ras]")
{
    const auto p = ras(kIncompleteReport);
    const auto reports = eventsOf(p, EventKind::RasReport);
    REQUIRE(reports.size() == 1);
    CHECK(str(p, reports[0]->detail) == "2.24.3+cuda12.2");
    CHECK(str(p, reports[0]->text) == "NCCL version 2.24.3+cuda12.2 compiled with CUDA 12.2");
    CHECK(reports[0]->severity == Severity::Info);
    CHECK(reports[0]->evidence.line == 1);
}

TEST_CASE(
    "INCOMPLETE report: the silent job process and the missing communicator rank", "[parsers][ras]")
{
    const auto p = ras(kIncompleteReport);
    const auto missing = eventsOf(p, EventKind::RasMissingRank);
    REQUIRE(missing.size() == 2);
    CHECK(missing[0]->peerRank == -1);
    CHECK(missing[0]->pid == 3487984);
    CHECK(str(p, missing[0]->peer) == "172.16.64.213");
    CHECK(missing[0]->severity == Severity::Warning);
    CHECK(missing[0]->evidence.line == 23);
    CHECK(missing[1]->peerRank == 21);
    CHECK(str(p, missing[1]->detail) == "cf264af53edbe986");
    CHECK(eventsOf(p, EventKind::RasDeadProcess).empty());
    CHECK(eventsOf(p, EventKind::RasCountMismatch).empty());
}

TEST_CASE("DEAD block yields the dead process with its node and GPU", "[parsers][ras]")
{
    const auto p = ras(kDeadReport);
    const auto dead = eventsOf(p, EventKind::RasDeadProcess);
    REQUIRE(dead.size() == 1);
    CHECK(dead[0]->pid == 3487984);
    CHECK(str(p, dead[0]->peer) == "172.16.64.213");
    CHECK(str(p, dead[0]->detail) == "5");
    CHECK(dead[0]->severity == Severity::Error);
    CHECK(str(p, dead[0]->text) == "Process 3487984 on node 172.16.64.213 managing GPU 5");
    const auto missing = eventsOf(p, EventKind::RasMissingRank);
    REQUIRE(missing.size() == 1);
    CHECK(missing[0]->peerRank == 21);
}

TEST_CASE(
    "count MISMATCH: the listed minority ranks are behind the majority count", "[parsers][ras]")
{
    const auto p = ras(kCountMismatch);
    const auto mismatches = eventsOf(p, EventKind::RasCountMismatch);
    REQUIRE(mismatches.size() == 6);
    const int ranks[] = { 0, 2, 3, 4, 5, 7 };
    for (std::size_t i = 0; i < 6; ++i) {
        INFO("rank " << ranks[i]);
        CHECK(mismatches[i]->peerRank == ranks[i]);
        CHECK(mismatches[i]->seq == 6649);
        CHECK(mismatches[i]->code == 6650);
        CHECK(str(p, mismatches[i]->detail) == "27a079b828ff1a75");
        CHECK(str(p, mismatches[i]->peer) == "172.16.64.210");
        CHECK(mismatches[i]->pid == 483072 + ranks[i]);
        CHECK(mismatches[i]->op == model::OpType::Unknown);
    }
}

TEST_CASE("2.26+ per-type MISMATCH with single-rank groups and a rank that launched nothing",
    "[parsers][ras]")
{
    const auto p = ras(kTypedMismatch);
    const auto mismatches = eventsOf(p, EventKind::RasCountMismatch);
    REQUIRE(mismatches.size() == 2);
    CHECK(mismatches[0]->peerRank == 5);
    CHECK(mismatches[0]->seq == 119);
    CHECK(mismatches[0]->code == 120);
    CHECK(mismatches[0]->op == model::OpType::AllReduce);
    CHECK(mismatches[0]->pid == 483077);
    CHECK(mismatches[1]->peerRank == 7);
    CHECK(mismatches[1]->seq == 0);
    CHECK(str(p, mismatches[1]->detail) == "9e17999afaa87dbb");
}

TEST_CASE("status MISMATCH is recognised without count events", "[parsers][ras]")
{
    const auto p = ras(kStatusMismatch);
    CHECK(eventsOf(p, EventKind::RasCountMismatch).empty());
    CHECK(eventsOf(p, EventKind::RasMissingRank).empty());
    CHECK(p.source.recognisedLines >= 12);
}

TEST_CASE("ERROR block names each rank's error and whether it was asynchronous", "[parsers][ras]")
{
    const auto p = ras(kErrorBlock);
    const auto errors = eventsOf(p, EventKind::RasReport);
    REQUIRE(errors.size() == 3);
    CHECK(errors[0]->peerRank == 1);
    CHECK(str(p, errors[0]->detail) == "Remote process error");
    CHECK(errors[0]->severity == Severity::Error);
    CHECK(errors[0]->code == 2);
    CHECK(errors[2]->peerRank == 3);
    CHECK(str(p, errors[2]->detail) == "Unhandled CUDA error");
    CHECK(errors[2]->pid == 4103);
    CHECK(str(p, errors[2]->peer) == "10.0.0.1");
}

TEST_CASE(
    "newer INCOMPLETE blocks list missing ranks with their process; 'missing ranks' lists several",
    "[parsers][ras]")
{
    const auto p = ras("Errors\n======\n\n#0-1 (00000000deadbeef) INCOMPLETE\n"
                       "  Missing communicator data from 2 ranks\n"
                       "  Rank 9 -- GPU 1 managed by process 777 on node 10.0.0.9\n"
                       "  The missing ranks: 3,5,11\n");
    const auto missing = eventsOf(p, EventKind::RasMissingRank);
    REQUIRE(missing.size() == 4);
    CHECK(missing[0]->peerRank == 9);
    CHECK(missing[0]->pid == 777);
    CHECK(str(p, missing[0]->peer) == "10.0.0.9");
    CHECK(missing[1]->peerRank == 3);
    CHECK(missing[2]->peerRank == 5);
    CHECK(missing[3]->peerRank == 11);
    CHECK(str(p, missing[3]->detail) == "00000000deadbeef");
}

TEST_CASE("2.24 RAS-network summary lists the missing processes", "[parsers][ras]")
{
    const auto p
        = ras("Gathering data about the RAS network (timeout 5s)... obtained a result in 0.00s\n"
              " Warning: missing data from 2 processes (received from 30, expected 32)\n"
              "  The missing processes:\n"
              "  Process 1001 on node 10.0.0.2 managing GPUs 0,1\n"
              "  Process 1002 on node 10.0.0.3 managing GPU 4 (NVML 6)\n"
              "Communicators... (0.00s)\n");
    const auto missing = eventsOf(p, EventKind::RasMissingRank);
    REQUIRE(missing.size() == 2);
    CHECK(missing[0]->pid == 1001);
    CHECK(str(p, missing[0]->peer) == "10.0.0.2");
    CHECK(missing[1]->pid == 1002);
    CHECK(str(p, missing[1]->peer) == "10.0.0.3");
}

TEST_CASE("the doc's indented sample reads the same as the real output", "[parsers][ras]")
{
    std::string indented;
    std::string_view rest = kDeadReport;
    while (!rest.empty()) {
        const std::size_t nl = rest.find('\n');
        indented += "  " + std::string(rest.substr(0, nl)) + "\n";
        rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    }
    const auto p = ras(indented);
    CHECK(eventsOf(p, EventKind::RasDeadProcess).size() == 1);
    CHECK(eventsOf(p, EventKind::RasMissingRank).size() == 1);
}

TEST_CASE("2.29 monitor mode PEER_DEAD lines, with their timestamp", "[parsers][ras]")
{
    const auto p = ras(
        "RAS Monitor Mode - watching for peer changes (Ctrl+C to exit)...\n"
        "================================================================\n"
        "[2025-12-19 13:07:07] PEER_DEAD: Process 1524345 on node 172.16.64.245 managing GPU 1\n");
    const auto* report = firstOf(p, EventKind::RasReport);
    REQUIRE(report);
    CHECK(str(p, report->detail) == "monitor");
    const auto dead = eventsOf(p, EventKind::RasDeadProcess);
    REQUIRE(dead.size() == 1);
    CHECK(dead[0]->pid == 1524345);
    CHECK(str(p, dead[0]->peer) == "172.16.64.245");
    CHECK(str(p, dead[0]->detail) == "1");
    CHECK(dead[0]->time.valid());
    CHECK(dead[0]->time.domain == model::TimeDomain::LocalWall);
    CHECK(
        str(p, dead[0]->text) == "PEER_DEAD: Process 1524345 on node 172.16.64.245 managing GPU 1");
}

TEST_CASE("RAS debug line declaring a peer dead, also glued behind other text", "[parsers][ras]")
{
    const auto p
        = ras("garbage]RAS declaring peer 10.1.2.3<45678> as DEAD; rasDeadPeersHash 0x1f2e\n");
    const auto dead = eventsOf(p, EventKind::RasDeadProcess);
    REQUIRE(dead.size() == 1);
    CHECK(str(p, dead[0]->peer) == "10.1.2.3");
    CHECK(str(p, dead[0]->detail) == "10.1.2.3<45678>");
    CHECK(dead[0]->pid == -1);
}

TEST_CASE("RAS declaring a peer dead inside an NCCL INFO line still reaches the RAS parser",
    "[parsers][ras]")
{
    const auto p = scan("node-03:48211:48377 [2] NCCL INFO RAS declaring peer 10.1.2.7<40211> as DEAD; "
                        "rasDeadPeersHash 0x5a1d\n",
        "logs/rank2.log");
    const auto dead = eventsOf(p, EventKind::RasDeadProcess);
    REQUIRE(dead.size() == 1);
    CHECK(str(p, dead[0]->peer) == "10.1.2.7");
}

TEST_CASE("the report ends at the first foreign line; rank lines outside a report mean nothing",
    "[parsers][ras]")
{
    std::string text = kCountMismatch;
    text += "Epoch 3:  41%|####      | 410/1000 [03:12<04:36,  2.13it/s, loss=1.25]\n";
    text += "  Rank 9 -- GPU 1 managed by process 1 on node 10.0.0.1\n";
    text += "  Process 5 on node 10.0.0.5 managing GPU 0\n";
    const auto p = ras(text);
    CHECK(eventsOf(p, EventKind::RasCountMismatch).size() == 6);
    CHECK(eventsOf(p, EventKind::RasMissingRank).empty());
    CHECK(eventsOf(p, EventKind::RasDeadProcess).empty());
}

TEST_CASE("torn, truncated, absurd and binary RAS lines produce no wrong events", "[parsers][ras]")
{
    const std::string text
        = std::string("Errors\n======\n\nDEAD\n  Process \n  Process 12\n"
                      "  Process 99999999999999999999 on node 1.2.3.4 managing GPU 0\n"
                      "#0-0 (xyz) MISMATCH\n#0-0 () ERROR\n#-0 (ab) INCOMPLETE\n"
                      "#0-0 (27a079b828ff1a75) MISMATCH\n"
                      "  Communicator ranks have different collective operation counts\n"
                      "  99999999999999999999999 ranks have launched up to operation 5\n"
                      "  Rank 99999999999999 -- GPU 0 managed by process 1 on node x\n"
                      "  Rank 3 has launched up to operation 99999999999999999999999 -- GPU\n")
        + std::string("\x00\xff\xfe PEER_DEAD: \x01\x02\n", 17) + "PEER_DEAD: Process x on node\n"
        + "RAS declaring peer  as DEAD\n";
    const auto p = ras(text);
    CHECK(eventsOf(p, EventKind::RasDeadProcess).empty());
    CHECK(eventsOf(p, EventKind::RasMissingRank).empty());
    CHECK(eventsOf(p, EventKind::RasCountMismatch).empty());
}

TEST_CASE("RAS JSON: report event, unresponsive missing rank with its process", "[parsers][ras]")
{
    CHECK(parsers::looksLikeRasJson(kJsonSample));
    CHECK_FALSE(parsers::looksLikeRasJson(R"({"version": "2.5", "entries": []})"));
    const auto p = rasJson(kJsonSample);
    CHECK(p.issues.empty());
    const auto* report = firstOf(p, EventKind::RasReport);
    REQUIRE(report);
    CHECK(str(p, report->detail) == "2.29.1");
    CHECK(str(p, report->text) == "NCCL RAS report (NCCL 2.29.1): 1 communicators");
    CHECK(report->time.domain == model::TimeDomain::LocalWall);
    const auto missing = eventsOf(p, EventKind::RasMissingRank);
    REQUIRE(missing.size() == 1);
    CHECK(missing[0]->peerRank == 1);
    CHECK(missing[0]->pid == 1524345);
    CHECK(str(p, missing[0]->peer) == "172.16.64.245");
    CHECK(str(p, missing[0]->detail) == "0xae94423cfbb2ef4a");
    CHECK(eventsOf(p, EventKind::RasDeadProcess).empty());
    CHECK(eventsOf(p, EventKind::RasCountMismatch).empty());
}

TEST_CASE(
    "RAS JSON: a considered-dead rank and ranks behind the most advanced count", "[parsers][ras]")
{
    std::string json = kJsonSample;
    json.replace(json.find("\"considered_dead\": false"), 24, "\"considered_dead\": true");
    // A second rank that launched fewer AllReduce operations than rank 0.
    const std::string rank0Counts = "\"AllReduce\": 0";
    json.replace(json.find(rank0Counts), rank0Counts.size(), "\"AllReduce\": 6650");
    const std::size_t ranksEnd = json.find("      ],\n      \"missing_ranks\"");
    json.insert(ranksEnd, R"(,
        { "rank": 2, "host": "172.16.64.246", "pid": 77, "cuda_dev": 2, "nvml_dev": 2,
          "collective_counts": { "Broadcast": 0, "AllReduce": 6649 } }
)");
    const auto p = rasJson(json);
    CHECK(p.issues.empty());
    const auto dead = eventsOf(p, EventKind::RasDeadProcess);
    REQUIRE(dead.size() == 1);
    CHECK(dead[0]->peerRank == 1);
    CHECK(dead[0]->pid == 1524345);
    CHECK(str(p, dead[0]->detail) == "1");
    const auto behind = eventsOf(p, EventKind::RasCountMismatch);
    REQUIRE(behind.size() == 1);
    CHECK(behind[0]->peerRank == 2);
    CHECK(behind[0]->seq == 6649);
    CHECK(behind[0]->code == 6650);
    CHECK(behind[0]->op == model::OpType::AllReduce);
    CHECK(behind[0]->pid == 77);
    CHECK(str(p, behind[0]->detail) == "0xae94423cfbb2ef4a");
}

TEST_CASE("broken RAS JSON is an import issue", "[parsers][ras]")
{
    CHECK(rasJson("{\"nccl_version\": ").issues.count("bad_ras_report") == 1);
    CHECK(rasJson("[" + std::string(1000, '[')).issues.count("bad_ras_report") == 1);
    const auto odd = rasJson(
        R"({"nccl_version": 5, "communicators": [1, {"ranks": "x", "missing_ranks": [7]}]})");
    CHECK(odd.issues.empty());
    CHECK(eventsOf(odd, EventKind::RasReport).size() == 1);
}
