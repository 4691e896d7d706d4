// The words a user reads come from one table per id, and the ids the JSON carries stay put.
#include "model/diagnosis/diagnosis.h"
#include "model/importissues.h"

#include <catch2/catch.hpp>

using namespace rankscope::model;

TEST_CASE("plain words never show a machine id and the ids stay as the JSON has them",
    "[model][plainwords]")
{
    for (RootCauseClass c : { RootCauseClass::StragglerStall, RootCauseClass::NetworkPair,
             RootCauseClass::InitBootstrap, RootCauseClass::Unknown }) {
        CHECK(rootCauseClassWords(c).find('_') == std::string_view::npos);
        CHECK(rootCauseClassFromName(rootCauseClassName(c)) == c);
    }
    CHECK(rootCauseClassName(RootCauseClass::StragglerStall) == "straggler_stall");
    CHECK(rankStateName(RankState::CollateralTimeout) == "collateral_timeout");
    CHECK(rankStateWords(RankState::CollateralTimeout) == "timed out waiting");
    CHECK(statusName(DiagnosisStatus::NoHangFound) == "no_hang_found");
    CHECK(statusWords(DiagnosisStatus::NoHangFound) == "No hang found");
    // The ends of a failed link are link ends, whatever their py-spy dump showed.
    CHECK(initiatorWords(RootCauseClass::NetworkPair, RankState::Straggling).find("straggl")
        == std::string_view::npos);
    CHECK(initiatorWords(RootCauseClass::StragglerStall, RankState::Straggling) == "straggling");
    // A legend for both ends says "initiating" of neither.
    CHECK(initiatorsWords(RootCauseClass::NetworkPair).find("initiat") == std::string_view::npos);
    CHECK(
        initiatorsWords(RootCauseClass::NetworkPair).find("failed link") != std::string_view::npos);
    CHECK(initiatorsWords(RootCauseClass::StragglerStall) == "initiating rank");
    for (const std::string_view words : { initiatorRoleWords(RootCauseClass::NetworkPair),
             initiatorHostsWords(RootCauseClass::NetworkPair) }) {
        CHECK(words.find("initiat") == std::string_view::npos);
        CHECK(words.find("failed link") != std::string_view::npos);
    }
    CHECK(initiatorRoleWords(RootCauseClass::StragglerStall) == "initiating rank");
    CHECK(initiatorHostsWords(RootCauseClass::StragglerStall) == "initiating host");
    CHECK(importIssueWords("unattributed_events") == "Warning lines with no rank");
    CHECK(importIssueWords("some_new_kind") == "Some new kind");

    Diagnosis d;
    d.status = DiagnosisStatus::HangDiagnosed;
    d.rootCause = RootCauseClass::StragglerStall;
    d.confidence = 0.87;
    d.summary = "Rank 6 never reached allreduce #12." + summaryClassTail(d.rootCause, d.confidence);
    CHECK(d.summary
        == "Rank 6 never reached allreduce #12. Class: straggler_stall, confidence 0.87.");
    CHECK(summarySentence(d) == "Rank 6 never reached allreduce #12.");
    d.summary = "No tail here.";
    CHECK(summarySentence(d) == "No tail here.");
}
