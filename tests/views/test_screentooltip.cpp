// Tooltips kept on the screen: placed inside the available geometry of the screen under the
// cursor (flipped left or above near an edge) and wrapped when wider than the screen.
#include "app/gui/rankspanel.h"
#include "documentfixture.h"
#include "views/pairheatmapview.h"
#include "views/ranktimelineview.h"
#include "views/screentooltip.h"
#include "views/selectionstate.h"
#include "viewtestsupport.h"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QGuiApplication>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QScreen>
#include <QTableView>
#include <QToolTip>

#include <cmath>

using namespace rankscope;
using namespace rankscope::testing;

TEST_CASE("a popup is placed beside the cursor and inside the available area", "[tooltip]")
{
    const QRect screen(0, 30, 1024, 700); // a panel above, as on a small laptop screen
    // Room below and right: just off the cursor.
    CHECK(views::placePopup({ 200, 100 }, { 100, 100 }, screen, 16) == QRect(102, 116, 200, 100));
    // At the right edge: flipped to the cursor's left.
    const QRect right = views::placePopup({ 200, 100 }, { 1000, 100 }, screen, 16);
    CHECK(right.right() < 1000);
    CHECK(screen.contains(right));
    // At the bottom: above the cursor.
    const QRect bottom = views::placePopup({ 200, 100 }, { 100, 720 }, screen, 16);
    CHECK(bottom.bottom() < 720);
    CHECK(screen.contains(bottom));
    // Near the top, with the panel: never over it.
    CHECK(views::placePopup({ 200, 690 }, { 100, 40 }, screen, 16).top() >= 30);
    // Larger than the screen: cut to it, at its corner.
    CHECK(views::placePopup({ 2000, 900 }, { 500, 300 }, screen, 16) == screen);
    // A second screen to the right: kept on it.
    const QRect second(1024, 0, 800, 600);
    CHECK(second.contains(views::placePopup({ 300, 200 }, { 1030, 590 }, second, 16)));
}

namespace {

QLabel* shownToolTip()
{
    for (QWidget* w : QApplication::topLevelWidgets())
        if (w->isVisible() && w->objectName() == QLatin1String("qtooltip_label"))
            return qobject_cast<QLabel*>(w);
    return nullptr;
}

// Hides the tooltip and waits until Qt has deleted its label: a label still fading out is
// reused by the next showText() with the font it was made with.
void closeToolTip()
{
    QToolTip::hideText();
    const auto anyTipLabel = [] {
        for (QWidget* w : QApplication::topLevelWidgets())
            if (w->objectName() == QLatin1String("qtooltip_label"))
                return true;
        return false;
    };
    waitFor(
        [&] {
            QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
            return !anyTipLabel();
        },
        3000);
}

} // namespace

TEST_CASE("the heatmap's tooltip stays on a small screen, even in large text at its corner",
    "[tooltip][heatmap]")
{
    QScreen* screen = QGuiApplication::primaryScreen();
    REQUIRE(screen);
    const QRect available = screen->availableGeometry();
    views::SelectionState selection;
    views::PairHeatmapView view(&selection);
    selection.setDocument(loadDocument({ std::string(RANKSCOPE_TEST_DATA) + "/views/straggler8" }));
    view.resize(500, 400);
    // The window in the screen's bottom-right corner.
    view.move(available.right() - 500, available.bottom() - 400);
    view.show();
    QApplication::processEvents();
    const QFont before = QToolTip::font();
    closeToolTip();
    for (const qreal scale : { 1.0, 4.0 }) {
        QFont font = before;
        font.setPointSizeF(before.pointSizeF() * scale);
        QToolTip::setFont(font); // 4×: a tooltip wider than an 800 px screen
        const QRectF cell = view.cellRect(7, 6); // bottom-right of the matrix
        REQUIRE(cell.isValid());
        const QPoint local = cell.center().toPoint();
        REQUIRE_FALSE(view.toolTipAt(local).isEmpty());
        QHelpEvent help(QEvent::ToolTip, local, view.mapToGlobal(local));
        QApplication::sendEvent(&view, &help);
        QLabel* tip = shownToolTip();
        REQUIRE(tip);
        const QRect shown = tip->frameGeometry(); // with the window frame, if it has one
        INFO("scale " << scale << ": tooltip at " << shown.x() << "," << shown.y() << " "
                      << shown.width() << " x " << shown.height() << " on " << available.width()
                      << " x " << available.height());
        CHECK(available.contains(shown));
        // Wrapped, not cut: the label is tall enough for its text at its width.
        if (tip->wordWrap())
            CHECK(tip->height() >= std::min(available.height(), tip->heightForWidth(tip->width())));
        closeToolTip(); // the next scale gets a new label in its font
    }
    QToolTip::setFont(before);
}

TEST_CASE("the timeline's tooltip stays on a small screen and names a failed link's ends as such",
    "[tooltip][timeline]")
{
    QScreen* screen = QGuiApplication::primaryScreen();
    REQUIRE(screen);
    const QRect available = screen->availableGeometry();
    views::SelectionState selection;
    views::RankTimelineView view(&selection);
    selection.setDocument(
        loadDocument({ std::string(RANKSCOPE_TEST_DATA) + "/scenarios/ib-pair-status12" }));
    REQUIRE(selection.document()->diagnosis->rootCause == model::RootCauseClass::NetworkPair);
    const std::int32_t end = selection.document()->diagnosis->initiatingRanks.front();
    view.resize(600, 500);
    view.move(available.right() - 600, available.bottom() - 500);
    view.show();
    QApplication::processEvents();
    REQUIRE_FALSE(view.rowRect(end).isEmpty());
    // The gutter of an end of the link: who the rank is and its part in the verdict.
    const QPoint local(20, view.rowRect(end).center().y());
    const QString text = view.toolTipAt(local);
    CHECK(text.contains(QStringLiteral("one end of the failed link")));
    CHECK_FALSE(text.contains(QStringLiteral("initiating")));
    // An event's tooltip ends with its source path, one long word that Qt's own tooltip
    // cannot wrap.
    const auto& markers = selection.document()->timeline->markers(end);
    REQUIRE_FALSE(markers.empty());
    const QPoint marker(static_cast<int>(std::lround(view.timeToX(markers.back().timeNs))),
        view.rowRect(end).center().y());
    REQUIRE(view.toolTipAt(marker).contains(QStringLiteral(".out:")));
    const QFont before = QToolTip::font();
    closeToolTip();
    for (const qreal scale : { 1.0, 4.0 }) {
        QFont font = before;
        font.setPointSizeF(before.pointSizeF() * scale);
        QToolTip::setFont(font); // 4×: the path is wider than the screen
        const QPoint global = view.viewport()->mapToGlobal(marker);
        QHelpEvent help(QEvent::ToolTip, marker, global);
        QApplication::sendEvent(view.viewport(), &help);
        QLabel* tip = shownToolTip();
        REQUIRE(tip);
        const QRect shown = tip->frameGeometry(); // with the window frame, if it has one
        INFO("scale " << scale << ": tooltip at " << shown.x() << "," << shown.y() << " "
                      << shown.width() << " x " << shown.height() << " on " << available.width()
                      << " x " << available.height());
        CHECK(available.contains(shown));
        // Wrapped, not cut: the label is tall enough for its text at its width.
        CHECK(tip->height() >= std::min(shown.height(), tip->heightForWidth(tip->width())));
        closeToolTip();
    }
    QToolTip::setFont(before);
}

TEST_CASE(
    "the ranks table's cell and header tooltips stay on a small screen", "[tooltip][ranktable]")
{
    QScreen* screen = QGuiApplication::primaryScreen();
    REQUIRE(screen);
    const QRect available = screen->availableGeometry();
    views::SelectionState selection;
    app::RanksPanel panel(&selection);
    selection.setDocument(loadDocument({ std::string(RANKSCOPE_TEST_DATA) + "/views/straggler8" }));
    panel.resize(420, 300);
    panel.move(available.right() - 420, available.bottom() - 300);
    panel.show();
    QApplication::processEvents();
    QTableView* table = panel.table();
    REQUIRE(table->model()->rowCount() > 0);
    // A cell (its rank's description, one plain line) and a header section.
    const QModelIndex cell = table->model()->index(0, 0);
    QHeaderView* header = table->horizontalHeader();
    int tippedSection = -1;
    for (int s = 0; s < header->count() && tippedSection < 0; ++s)
        if (!table->model()->headerData(s, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty()
            && !header->isSectionHidden(s) && header->sectionViewportPosition(s) >= 0
            && header->sectionViewportPosition(s) < header->viewport()->width())
            tippedSection = s;
    REQUIRE(tippedSection >= 0);
    struct Target {
        QWidget* viewport;
        QPoint pos;
        QString text;
    };
    const Target targets[] = {
        { table->viewport(), table->visualRect(cell).center(),
            cell.data(Qt::ToolTipRole).toString() },
        { header->viewport(),
            QPoint(header->sectionViewportPosition(tippedSection) + 4, header->height() / 2),
            table->model()->headerData(tippedSection, Qt::Horizontal, Qt::ToolTipRole).toString() },
    };
    const QFont before = QToolTip::font();
    closeToolTip();
    for (const Target& target : targets) {
        REQUIRE_FALSE(target.text.isEmpty());
        // Scaled until the one-line tip is half again as wide as the screen.
        const qreal width = QFontMetricsF(before).horizontalAdvance(target.text);
        for (const qreal scale : { 1.0, 1.5 * available.width() / width }) {
            QFont font = before;
            font.setPointSizeF(before.pointSizeF() * scale);
            QToolTip::setFont(font);
            QHelpEvent help(QEvent::ToolTip, target.pos, target.viewport->mapToGlobal(target.pos));
            QApplication::sendEvent(target.viewport, &help);
            QLabel* tip = shownToolTip();
            REQUIRE(tip);
            CHECK(tip->text() == target.text);
            const QRect shown = tip->frameGeometry();
            INFO(target.text.toStdString()
                << " at scale " << scale << ": " << shown.x() << "," << shown.y() << " "
                << shown.width() << " x " << shown.height());
            CHECK(available.contains(shown));
            closeToolTip();
        }
    }
    QToolTip::setFont(before);
}
