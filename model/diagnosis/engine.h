#pragma once
// The diagnosis engine: runs every rule over the bundle's facts, arbitrates between their
// proposals by causal precedence and confidence, and states the verdict with per-rank
// states and the findings that justify it. Deterministic: same bundle, same diagnosis.

#include "model/bundle.h"
#include "model/diagnosis/diagnosis.h"
#include "model/diagnosis/knowledge.h"

namespace rankscope::model {

// `threads` bound the work spread over threads (Flight Recorder matching; 0: one per hardware
// thread). The diagnosis is the same for any count.
Diagnosis diagnose(const Bundle& bundle, const Knowledge& knowledge, unsigned threads = 0);

} // namespace rankscope::model
