#pragma once
// Loads the built-in knowledge base once and runs the engine: the one place both the CLI
// and the desktop app go through to diagnose a bundle.

#include "model/bundle.h"
#include "model/diagnosis/diagnosis.h"
#include "model/diagnosis/knowledge.h"
#include "model/error.h"

namespace rankscope::app {

// The compiled-in knowledge base; an error only if the build embedded a broken file.
model::Result<model::Knowledge> builtInKnowledge();

// `threads` as for loading (0: one per hardware thread); the result does not depend on it.
model::Result<model::Diagnosis> diagnoseBundle(const model::Bundle& bundle, unsigned threads = 0);

} // namespace rankscope::app
