#include "views/selectionstate.h"

#include <catch2/catch.hpp>

#include <QSignalSpy>

using rankscope::views::SelectionState;

TEST_CASE("selection state emits only on change and resets with a new document", "[views][selection]")
{
    SelectionState s;
    QSignalSpy rank(&s, &SelectionState::rankSelected);
    s.selectRank(3);
    s.selectRank(3);
    CHECK(rank.count() == 1);
    CHECK(s.selectedRank() == 3);
    s.setVisibleTimeRange(20, 10);
    CHECK(s.visibleStartNs() == 10);
    CHECK(s.visibleEndNs() == 20);
    QSignalSpy doc(&s, &SelectionState::documentChanged);
    s.setDocument(nullptr);
    CHECK(doc.count() == 1);
    CHECK(s.selectedRank() == -1);
    s.selectEvent(5); // no document: selection is cleared, not a crash
    CHECK(s.selectedEvent() == -1);
}
