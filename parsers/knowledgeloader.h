#pragma once
// Reads the knowledge base (resources/knowledge/knowledge.json) into the model's plain
// structs, so the Qt-free engine never touches JSON.

#include "model/diagnosis/knowledge.h"
#include "model/error.h"

#include <string_view>

namespace rankscope::parsers {

model::Result<model::Knowledge> loadKnowledge(std::string_view json);

} // namespace rankscope::parsers
