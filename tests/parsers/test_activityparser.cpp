#include "scanhelpers.h"

#include <catch2/catch.hpp>

using namespace rankscope;
using testing::firstOf;

TEST_CASE("a rank announcing a checkpoint save yields a checkpoint activity", "[parsers][activity]")
{
    auto p = testing::scan("[rank 0] Saving checkpoint to /checkpoints/run/step_000939 (model + optimizer shard 0) ...\n");
    const auto* e = firstOf(p, model::EventKind::TrainingProgress);
    REQUIRE(e);
    CHECK(e->code == static_cast<int>(model::StackActivity::CheckpointIo));
}

TEST_CASE("data fetching and lock waits are recognised, plain lines are not", "[parsers][activity]")
{
    auto p = testing::scan("[default1]:[rank 53] fetching next shard train-01340-of-01024.arrow from /mnt/datasets ...\n"
                           "[rank 3] waiting for lock /mnt/shared/.shard_index.lock held by another process, retrying in 30s\n"
                           "hello world\n");
    auto events = testing::eventsOf(p, model::EventKind::TrainingProgress);
    REQUIRE(events.size() == 2);
    CHECK(events[0]->code == static_cast<int>(model::StackActivity::DataLoading));
    CHECK(events[1]->code == static_cast<int>(model::StackActivity::Sleeping));
}

TEST_CASE("Megatron iteration lines give the step", "[parsers][activity]")
{
    auto p = testing::scan(" iteration      940/   10000 | consumed samples:       240640 | elapsed time per iteration (ms): 1234.5 |\n");
    const auto* e = firstOf(p, model::EventKind::TrainingProgress);
    REQUIRE(e);
    CHECK(e->seq == 940);
    CHECK(e->code == static_cast<int>(model::StackActivity::Unknown));
}
