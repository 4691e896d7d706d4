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

TEST_CASE("DeepSpeed ZeRO-3's per-step notices are progress, with the step when they name it",
    "[parsers][activity]")
{
    auto p = testing::scan("Invalidate trace cache @ step 975: expected module 1003, but got module 1003\n"
                           "[WARNING] [stage3.py:2069:step] 2 pytorch allocator cache flushes since last step. "
                           "this happens when there is high memory pressure and is detrimental to performance.\n"
                           "we will invalidate the trace cache later\n");
    std::vector<const model::Event*> steps;
    for (const auto& e : p.events)
        if (e.kind == model::EventKind::TrainingProgress)
            steps.push_back(&e);
    REQUIRE(steps.size() == 2);
    CHECK(steps[0]->seq == 975);
    CHECK(steps[1]->seq == -1);
    CHECK(steps[1]->code == static_cast<int>(model::StackActivity::Unknown));
}

TEST_CASE("tqdm bars give the step, its elapsed time and a rank the description names", "[parsers][activity]")
{
    auto p = testing::scan(
        "Running tokenizer on dataset:  47%|####7     | 3169000/6811963 [30:11<38:27, 1578.58 examples/s]Traceback (most recent call last):\n"
        "Running predictions on sample ttbar on rank=2:  50%|#####     | 2/4 [1:01:50<01:31, 45.88s/it]\n");
    std::vector<const model::Event*> bars;
    for (const auto& e : p.events)
        if (e.kind == model::EventKind::TrainingProgress)
            bars.push_back(&e);
    REQUIRE(bars.size() == 2);
    CHECK(bars[0]->code == static_cast<std::int32_t>(model::StackActivity::DataLoading));
    CHECK(bars[0]->durationMs == (30 * 60 + 11) * 1000);
    CHECK(bars[0]->peerRank == -1);
    CHECK(bars[1]->code == static_cast<std::int32_t>(model::StackActivity::Other));
    CHECK(bars[1]->durationMs == (3600 + 60 + 50) * 1000);
    CHECK(bars[1]->peerRank == 2);
}

TEST_CASE("a bar whose elapsed field is not a time gives no bar", "[parsers][activity]")
{
    // Twenty digits would overflow the milliseconds; no tqdm prints that.
    auto p = testing::scan("Map: 99%|#########9| 1/2 [99999999999999999999:99<00:00, 1 it/s]\n");
    CHECK(firstOf(p, model::EventKind::TrainingProgress) == nullptr);
}

TEST_CASE("the redraws of one bar by one writer are one event with the bar's last state", "[parsers][activity]")
{
    // tqdm redraws with \r; a new epoch starts the bar again from 00:00; a writer's iteration
    // line between two runs of its bar keeps its place in the order; another writer's bar in
    // between (srun labels) is its own run.
    auto p = testing::scan("0: Epoch 1:  10%|#         | 10/100 [00:05<00:45, 2.00it/s]\r"
                           "0: Epoch 1:  20%|##        | 20/100 [00:10<00:40, 2.00it/s]\n"
                           "1: Epoch 1:  10%|#         | 10/100 [00:06<00:54, 1.67it/s]\n"
                           "0: Epoch 1:  30%|###       | 30/100 [00:15<00:35, 2.00it/s]\n"
                           "0:  iteration      940/   10000 | consumed samples: 240640 |\n"
                           "0: Epoch 1:  40%|####      | 40/100 [00:20<00:30, 2.00it/s]\n"
                           "0: Epoch 1:   0%|          | 0/100 [00:00<?, ?it/s]\n"
                           "0: Epoch 1:   5%|          | 5/100 [00:02<00:38, 2.50it/s]\n");
    const auto events = testing::eventsOf(p, model::EventKind::TrainingProgress);
    REQUIRE(events.size() == 5);
    CHECK(testing::str(p, events[0]->text) == "Epoch 1:  30%|###       | 30/100 [00:15<00:35, 2.00it/s]");
    CHECK(events[0]->durationMs == 15000);
    CHECK(events[0]->evidence.line == 3);
    CHECK(testing::str(p, events[1]->text) == "Epoch 1:  10%|#         | 10/100 [00:06<00:54, 1.67it/s]");
    CHECK(events[2]->seq == 940);
    CHECK(events[3]->durationMs == 20000);
    CHECK(events[4]->durationMs == 2000);
    CHECK(events[4]->evidence.line == 7);
}
