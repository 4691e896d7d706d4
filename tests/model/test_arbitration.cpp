#include "model/diagnosis/arbitration.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace rankscope::model;

namespace {

struct Candidate {
    Precedence precedence;
    RootCauseClass cls;
    std::vector<std::int32_t> ranks;
    double confidence;
};

struct Case {
    std::string name;
    std::vector<Candidate> candidates;
    std::vector<std::int32_t> odd;
    int winner; // index into candidates, -1 for none
};

std::vector<Proposal> proposalsOf(const std::vector<Candidate>& candidates)
{
    std::vector<Proposal> out;
    for (const Candidate& c : candidates) {
        Proposal& p = out.emplace_back(c.precedence);
        p.rootCause = c.cls;
        p.initiating = c.ranks;
        p.confidence = c.confidence;
    }
    return out;
}

} // namespace

TEST_CASE("arbitration picks by band, confidence and odd ranks", "[model][arbitration]")
{
    using C = RootCauseClass;
    // Bands the cases rely on, stated so a change to the table shows here first.
    REQUIRE(Precedence("hardware.xid").band() == 90);
    REQUIRE(Precedence("crash.first_failure").band() == 85);
    REQUIRE(Precedence("configuration.port_in_use").band() == 84);
    REQUIRE(Precedence("configuration.nvls_setup").band() == 84);
    REQUIRE(Precedence("straggler.busy_while_others_waited").band() == 72);
    REQUIRE(Precedence("straggler.never_entered").band() == 60);

    const std::vector<Case> cases {
        { "no proposal, no verdict", {}, {}, -1 },
        { "higher band wins over higher confidence",
            { { "crash.first_failure", C::RankCrashed, { 1 }, 0.95 }, { "hardware.xid", C::HardwareFault, { 1 }, 0.6 } },
            {}, 1 },
        { "equal band: higher confidence wins",
            { { "configuration.port_in_use", C::Configuration, {}, 0.7 },
                { "configuration.nvls_setup", C::Configuration, {}, 0.8 } },
            {}, 1 },
        { "equal band and confidence: the first proposed wins",
            { { "configuration.port_in_use", C::Configuration, {}, 0.7 },
                { "configuration.nvls_setup", C::Configuration, {}, 0.7 } },
            {}, 0 },
        { "a cause off the odd ranks is demoted below one on them",
            { { "crash.first_failure", C::RankCrashed, { 2 }, 0.85 },
                { "straggler.never_entered", C::StragglerStall, { 5 }, 0.6 } },
            { 5 }, 1 },
        { "a cause that touches an odd rank is not demoted",
            { { "crash.first_failure", C::RankCrashed, { 2, 5 }, 0.85 },
                { "straggler.never_entered", C::StragglerStall, { 5 }, 0.6 } },
            { 5 }, 0 },
        { "without odd ranks nothing is demoted",
            { { "crash.first_failure", C::RankCrashed, { 2 }, 0.85 },
                { "straggler.never_entered", C::StragglerStall, { 5 }, 0.6 } },
            {}, 0 },
        { "a straggler claim off the odd ranks is exempt from demotion",
            { { "straggler.busy_while_others_waited", C::StragglerStall, { 3 }, 0.7 },
                { "straggler.never_entered", C::StragglerStall, { 5 }, 0.9 } },
            { 5 }, 0 },
        { "a proposal naming no rank is not demoted",
            { { "configuration.port_in_use", C::Configuration, {}, 0.75 },
                { "straggler.never_entered", C::StragglerStall, { 5 }, 0.9 } },
            { 5 }, 0 },
        { "demotion is 30: a demoted 90 still beats 58 and loses to 62",
            { { "hardware.xid", C::HardwareFault, { 1 }, 0.9 }, { "ras.count_behind", C::StragglerStall, { 5 }, 0.9 },
                { "straggler.desync_report", C::StragglerStall, { 5 }, 0.5 } },
            { 5 }, 2 },
    };
    for (const Case& c : cases) {
        SECTION(c.name)
        {
            const std::vector<Proposal> proposals = proposalsOf(c.candidates);
            const Proposal* chosen = arbitrate(proposals, c.odd);
            if (c.winner < 0)
                CHECK(chosen == nullptr);
            else
                CHECK(chosen == &proposals[static_cast<std::size_t>(c.winner)]);
        }
    }
}

TEST_CASE("the effective band is the table band less the demotion", "[model][arbitration]")
{
    Proposal p("hardware.xid");
    p.rootCause = RootCauseClass::HardwareFault;
    p.initiating = { 1 };
    const std::vector<std::int32_t> odd { 4 };
    CHECK(effectiveBand(p, {}) == 90);
    CHECK(effectiveBand(p, odd) == 90 - kOffOddRanksDemotion);
    p.rootCause = RootCauseClass::StragglerStall;
    CHECK(effectiveBand(p, odd) == 90);
}
