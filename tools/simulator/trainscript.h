#pragma once
// Line numbers of the simulated training script (train.py): Python tracebacks in the logs,
// the watchdog's "Stack trace of the failed collective" and Flight Recorder frames must
// all point at the same lines, or a diagnosis that cross-checks them would be misled.

namespace rankscope::simulator {

constexpr int kLineModule = 345;
constexpr int kLineMain = 331;
constexpr int kLineTrainCall = 288;
constexpr int kLineTokenCount = 141;
constexpr int kLineTrainStep = 214;
constexpr int kLineSyncGrads = 176; // _sync_grads: the bucketed gradient all-reduces

} // namespace rankscope::simulator
