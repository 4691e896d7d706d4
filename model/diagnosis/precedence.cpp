#include "model/diagnosis/precedence.h"

namespace rankscope::model {

namespace {

// The table's invariants, checked once where the table is compiled: a row out of place or a
// repeated id fails the build here rather than changing a verdict.

constexpr bool highestBandFirst()
{
    for (std::size_t i = 1; i < kPrecedenceTable.size(); ++i)
        if (kPrecedenceTable[i - 1].band < kPrecedenceTable[i].band)
            return false;
    return true;
}

constexpr bool idsUnique()
{
    for (std::size_t i = 0; i < kPrecedenceTable.size(); ++i)
        for (std::size_t j = i + 1; j < kPrecedenceTable.size(); ++j)
            if (kPrecedenceTable[i].id == kPrecedenceTable[j].id)
                return false;
    return true;
}

constexpr bool everyRowWritten()
{
    for (const PrecedenceEntry& e : kPrecedenceTable)
        if (e.id.empty() || e.rationale.empty())
            return false;
    return true;
}

static_assert(highestBandFirst(), "kPrecedenceTable: keep the rows in band order, highest first");
static_assert(idsUnique(), "kPrecedenceTable: an id appears twice");
static_assert(everyRowWritten(), "kPrecedenceTable: every row needs an id and a rationale");

} // namespace

// Never runs: Precedence's constructor is consteval, and reaching this call there makes the
// rule naming an unknown id fail to compile.
void unknownPrecedenceId() { }

} // namespace rankscope::model
