#pragma once
// Folds repeated findings of one rule into one. A rule that fires once per rank (torchrun
// naming each collateral rank of 512 as its node's "Root Cause") would otherwise list
// hundreds of near-identical findings; a reader wants one finding with the ranks as a range.

#include "model/diagnosis/diagnosis.h"
#include "model/diagnosis/knowledge.h"

#include <cstddef>
#include <vector>

namespace rankscope::model {

// At least this many findings of one rule are folded into one.
inline constexpr std::size_t kFindingsFoldedFrom = 3;
// A folded finding keeps this many evidence lines, one per original finding first.
inline constexpr std::size_t kFoldedEvidenceLines = 6;

// Folds, in place, every rule's findings when there are at least kFindingsFoldedFrom of
// them. The verdict's own finding (index 0 when `firstIsVerdict`) is never folded. The fold
// stands where the rule's first finding stood; ranks are the union, confidence the highest,
// the title the rule's "group_title" from the knowledge base ({count}, {ranks}) or the first
// title with a count, and the explanation the first one's, naming the other ranks.
void foldRepeatedFindings(std::vector<Finding>& findings, const Knowledge& knowledge, bool firstIsVerdict);

} // namespace rankscope::model
