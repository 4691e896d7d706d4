// Anonymisation for sharing: stable pseudonyms across the whole report, nothing original
// left in any format, and a verdict that still reads the same.

#include "reportfixture.h"

#include "app/core/anonymizer.h"

#include <nlohmann/json.hpp>

#include <filesystem>

#include <unistd.h>

using namespace rankscope;
using app::Anonymizer;

namespace fs = std::filesystem;

namespace {

model::Bundle bundleWithHosts(std::initializer_list<std::string_view> hosts)
{
    model::Bundle b;
    for (auto h : hosts)
        b.world.hosts.push_back(b.strings.intern(h));
    return b;
}

// The seeded bundle copied under a home directory, so input paths carry a user name.
std::string bundleUnderHome()
{
    const fs::path root
        = fs::temp_directory_path() / ("rankscope-anon-test-" + std::to_string(::getpid()));
    const fs::path dir = root / "home" / "alice" / "jobs" / "8149133" / "secrets";
    fs::remove_all(root);
    fs::create_directories(dir);
    for (const auto& entry : fs::directory_iterator(testing::secretsBundlePath()))
        fs::copy_file(entry.path(), dir / entry.path().filename());
    return dir.string();
}

nlohmann::json verdictOf(const std::string& json)
{
    auto v = nlohmann::json::parse(json)["verdict"];
    v.erase("summary"); // prose names hosts; the facts below must not change
    return v;
}

} // namespace

TEST_CASE("no original host, address, user or job id survives in any format, and the verdict is "
          "unchanged",
    "[anonymize]")
{
    const std::string dir = bundleUnderHome();
    const auto loaded = testing::loadAndDiagnose({ dir });
    const auto plain = testing::renderAll(loaded, { dir }, false);
    const auto anon = testing::renderAll(loaded, { dir }, true);

    const std::vector<std::string> originals
        = { "ip-10-0-20-78", "ip-10-0-20-79", "10.0.20.78", "10.0.20.79", "alice", "8149133" };
    for (const auto& value : originals) {
        INFO(value);
        // Each value is really in the plain report, so finding it absent below means something.
        CHECK(plain.html.find(value) != std::string::npos);
        for (const std::string* out : anon.all())
            CHECK(out->find(value) == std::string::npos);
    }
    for (const char* pseudonym : { "host-01", "host-02", "ip-01", "ip-02", "user-01", "job-01" }) {
        INFO(pseudonym);
        CHECK(anon.html.find(pseudonym) != std::string::npos);
        CHECK(anon.markdown.find(pseudonym) != std::string::npos);
    }
    // The JSON has no reproduction command, so no user; the rest is named the same way.
    for (const char* pseudonym : { "host-01", "host-02", "ip-01", "ip-02", "job-01" })
        CHECK(anon.json.find(pseudonym) != std::string::npos);

    CHECK(verdictOf(anon.json) == verdictOf(plain.json));
    const auto j = nlohmann::json::parse(anon.json);
    CHECK(j["verdict"]["stuck_pair"] == nlohmann::json::array({ 7, 8 }));
    // The stuck pair is still two different hosts, named the same way everywhere.
    CHECK(j["ranks"][7]["host"] == "host-01");
    CHECK(j["ranks"][8]["host"] == "host-02");
    CHECK(j["world"]["hosts"] == nlohmann::json::array({ "host-01", "host-02" }));
    CHECK(j["verdict"]["summary"].get<std::string>().find(
              "rank 7 (host-01, GPU 7) and rank 8 (host-02, GPU 0)")
        != std::string::npos);
    CHECK(anon.html.find("peer ip-02, the bootstrap address of host-02") != std::string::npos);
    CHECK(anon.markdown.find("| **8** | host-02 | GPU 0 | stuck in collective | initiating |")
        != std::string::npos);
    CHECK(anon.html.find("/home/user-01/jobs/job-01/secrets") != std::string::npos);
    fs::remove_all(
        fs::temp_directory_path() / ("rankscope-anon-test-" + std::to_string(::getpid())));
}

TEST_CASE("hosts are numbered in natural order and a short name shares its FQDN's pseudonym",
    "[anonymize]")
{
    const model::Bundle b
        = bundleWithHosts({ "node10", "node2.cluster.example.org", "node2", "node9" });
    Anonymizer a(b);
    CHECK(a.pseudonymOf("node2") == "host-01");
    CHECK(a.pseudonymOf("node2.cluster.example.org") == "host-01");
    CHECK(a.pseudonymOf("node9") == "host-02");
    CHECK(a.pseudonymOf("node10") == "host-03");
    CHECK(a.apply("node2:1234:1290 [0] NCCL INFO ...; ssh node2.cluster.example.org")
        == "host-01:1234:1290 [0] NCCL INFO ...; ssh host-01");
}

TEST_CASE("names are replaced only as whole tokens", "[anonymize]")
{
    const model::Bundle b = bundleWithHosts({ "node-1", "node-10", "gpu7" });
    Anonymizer a(b);
    // Natural order: gpu7, node-1, node-10.
    CHECK(a.apply("node-10 node-1 node-1.log logs/node-1/rank3.log xnode-1 node-1x")
        == "host-03 host-02 host-02.log logs/host-02/rank3.log xnode-1 node-1x");
    CHECK(a.apply("gpu7:55:154 [7] NCCL INFO; agpu7; gpu7-ib0")
        == "host-01:55:154 [7] NCCL INFO; agpu7; host-01-ib0");
}

TEST_CASE("IP addresses are found in free text; loopback, versions and C++ names are not addresses",
    "[anonymize]")
{
    Anonymizer a(model::Bundle {});
    const std::string text
        = "Bootstrap : Using eth0:10.0.20.78<0>; peer 10.0.20.79<39270>; fe80::1%eth0 "
          "[2001:db8::5]:29500 fe80:0000:0000:0000:0202:b3ff:fe1e:8329 127.0.0.1 0.0.0.0 "
          "NCCL 2.26.2 v1.2.3.4 1.2.3.4.5 c10d::ProcessGroupNCCL 20:27:21 busId 0000:7e:00.0";
    a.learn(text);
    CHECK(a.apply(text)
        == "Bootstrap : Using eth0:ip-01<0>; peer ip-02<39270>; ip-03%eth0 [ip-04]:29500 ip-05 "
           "127.0.0.1 0.0.0.0 "
           "NCCL 2.26.2 v1.2.3.4 1.2.3.4.5 c10d::ProcessGroupNCCL 20:27:21 busId 0000:7e:00.0");
}

TEST_CASE(
    "users in home paths and job ids in Slurm and torchrun output get pseudonyms", "[anonymize]")
{
    Anonymizer a(model::Bundle {});
    const std::string lines[] = {
        "File \"/home/alice/proj/train.py\", line 88, in <module>",
        "/Users/bob/logs and C:\\Users\\carol\\runs",
        "slurmstepd: error: *** STEP 6059952.0 ON node-01 CANCELLED AT 2024-01-01T00:00:00 ***",
        "logs/slurm-1234567_3.out",
        "SLURM_JOB_ID=7654321 PBS_JOBID=998877.pbs01",
        "  run_id           : seedrun7q",
        "torchrun --rdzv_id=myexp42 --rdzv-id 5555",
        "/tmp/torchelastic_x/none_ab12cd/attempt_0/3/stderr.log",
        "run_id: none; job 12 finished; rank 3",
    };
    for (const auto& l : lines)
        a.learn(l);
    CHECK(a.apply(lines[0]) == "File \"/home/user-01/proj/train.py\", line 88, in <module>");
    CHECK(a.apply(lines[1]) == "/Users/user-02/logs and C:\\Users\\user-03\\runs");
    CHECK(a.apply(lines[2])
        == "slurmstepd: error: *** STEP job-01.0 ON node-01 CANCELLED AT 2024-01-01T00:00:00 ***");
    CHECK(a.apply(lines[3]) == "logs/slurm-job-02_3.out");
    CHECK(a.apply(lines[4]) == "SLURM_JOB_ID=job-03 PBS_JOBID=job-04");
    CHECK(a.apply(lines[5]) == "  run_id           : job-05");
    CHECK(a.apply(lines[6]) == "torchrun --rdzv_id=job-06 --rdzv-id job-07");
    CHECK(a.apply(lines[7]) == "/tmp/torchelastic_x/job-08/attempt_0/3/stderr.log");
    CHECK(a.apply(lines[8]) == lines[8]); // "none" and short numbers identify nothing
    CHECK(a.apply("alice@login-node ran 6059952") == "user-01@login-node ran job-01");
}

TEST_CASE(
    "an anonymised JSON report is still valid JSON with every string rewritten", "[anonymize]")
{
    const auto loaded = testing::loadAndDiagnose({ testing::secretsBundlePath() });
    const auto anon = testing::renderAll(loaded, { testing::secretsBundlePath() }, true);
    const auto j = nlohmann::json::parse(anon.json);
    bool sawSlurm = false;
    for (const auto& input : j["inputs"])
        sawSlurm |= input["path"] == "secrets/slurm-job-01.out";
    CHECK(sawSlurm);
    for (const auto& f : j["findings"])
        for (const auto& e : f["evidence"])
            CHECK(e["text"].get<std::string>().find("10.0.20.") == std::string::npos);
}
