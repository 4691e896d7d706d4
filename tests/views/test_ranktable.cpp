// Ranks table: the model (tested with QAbstractItemModelTester), the filter proxy, the
// import-issues model, the selection synchronised with SelectionState, and a screenshot
// whose initiating row carries the theme's tint.
#include "viewtestsupport.h"
#include "documentfixture.h"

#include "app/gui/rankspanel.h"
#include "views/importissuesmodel.h"
#include "views/rankfilterproxy.h"
#include "views/ranktablemodel.h"
#include "views/selectionstate.h"
#include "views/theme.h"

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>
#include <QDir>
#include <QGuiApplication>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSet>
#include <QTableView>

using namespace rankscope;
using namespace rankscope::testing;
using views::RankTableModel;

namespace {

views::DocumentPtr straggler()
{
    static views::DocumentPtr doc
        = testing::loadDocument({ RANKSCOPE_TEST_DATA "/views/straggler-8ranks" });
    return doc;
}

} // namespace

TEST_CASE(
    "rank table model lists every rank with its state and tints the initiating row", "[ranktable]")
{
    auto doc = straggler();
    RankTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setDocument(doc);
    REQUIRE(model.rowCount() == 8);
    CHECK(model.columnCount() == RankTableModel::NumColumns);

    const QModelIndex initiating = model.index(model.rowOfRank(6), RankTableModel::StateColumn);
    CHECK(initiating.data(RankTableModel::InitiatingRole).toBool());
    CHECK(initiating.data().toString().contains(QStringLiteral("cause")));
    const QPalette pal = QGuiApplication::palette();
    CHECK(initiating.data(Qt::BackgroundRole).value<QColor>()
        == views::theme::tint(views::theme::colors(pal).initiating, pal));
    const QModelIndex other = model.index(model.rowOfRank(0), RankTableModel::StateColumn);
    CHECK_FALSE(other.data(Qt::BackgroundRole).isValid());
    CHECK(other.data().toString() == QStringLiteral("timed out waiting"));

    // Sequence numbers sort as numbers; the stuck rank reports 18/18, the others enqueued 19.
    CHECK(model.index(model.rowOfRank(6), RankTableModel::LastEnqueuedColumn)
              .data(RankTableModel::SortRole)
              .toLongLong()
        == 18);
    CHECK(model.index(model.rowOfRank(6), RankTableModel::LastCompletedColumn).data().toString()
        == QStringLiteral("18"));

    model.setDocument(nullptr);
    CHECK(model.rowCount() == 0);
}

TEST_CASE("rank filter proxy filters by rank list, text, state and rank set", "[ranktable]")
{
    auto doc = straggler();
    RankTableModel model;
    model.setDocument(doc);
    views::RankFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    CHECK(proxy.rowCount() == 8);
    proxy.setTextFilter(QStringLiteral("0-2, 7"));
    CHECK(proxy.rowCount() == 4);
    proxy.setTextFilter(QStringLiteral("TIMED OUT"));
    CHECK(proxy.rowCount() == 7);
    proxy.setTextFilter({});
    proxy.setInitiatingOnly(true);
    REQUIRE(proxy.rowCount() == 1);
    CHECK(proxy.index(0, 0).data(RankTableModel::RankRole).toInt() == 6);
    proxy.setInitiatingOnly(false);
    proxy.setStateFilter(model::RankState::CollateralTimeout);
    CHECK(proxy.rowCount() == 7);
    proxy.setStateFilter(std::nullopt);
    proxy.setRankSet({ 1, 6 });
    CHECK(proxy.rowCount() == 2);
    proxy.setRankSet({});
    proxy.sort(RankTableModel::LastEnqueuedColumn, Qt::AscendingOrder);
    CHECK(proxy.index(0, 0).data(RankTableModel::RankRole).toInt() == 6);

    CHECK(views::RankFilterProxy::parseRankList(QStringLiteral("0-3,7"))
        == QSet<int>({ 0, 1, 2, 3, 7 }));
    CHECK_FALSE(views::RankFilterProxy::parseRankList(QStringLiteral("node-01")).has_value());
    CHECK_FALSE(views::RankFilterProxy::parseRankList(QStringLiteral("5-2")).has_value());
    CHECK_FALSE(views::RankFilterProxy::parseRankList(QStringLiteral("0-99999999")).has_value());
}

TEST_CASE("import issues model lists kinds with counts and a load error first", "[ranktable]")
{
    views::ImportIssuesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setIssues({ { "torn_line", 12, { "rank3.log:7: [E0108 21:0" } },
                        { "own_output_skipped", 1, { "a" } } },
        QStringLiteral("cannot read /nope: No such file"));
    REQUIRE(model.rowCount() == 3);
    CHECK(model.index(0, 0).data(views::ImportIssuesModel::IsErrorRole).toBool());
    CHECK(model.index(1, views::ImportIssuesModel::CountColumn).data().toULongLong() == 12);
    CHECK(model.index(1, views::ImportIssuesModel::SamplesColumn)
              .data(Qt::ToolTipRole)
              .toString()
              .contains(QStringLiteral("rank3.log")));
    // Kinds read as words; the id stays available (reports and the CLI print it).
    CHECK(model.index(2, views::ImportIssuesModel::KindColumn).data().toString()
        == QStringLiteral("Rankscope's own output, skipped"));
    CHECK(model.index(2, 0).data(views::ImportIssuesModel::KindRole).toString()
        == QStringLiteral("own_output_skipped"));
    CHECK(model.totalCount() == 14);
}

TEST_CASE(
    "ranks panel follows the selected rank and selects ranks for the other views", "[ranktable]")
{
    auto doc = straggler();
    views::SelectionState selection;
    app::RanksPanel panel(&selection);
    panel.resize(1000, 400);
    panel.show();
    selection.setDocument(doc);

    selection.selectRank(3);
    QModelIndex current = panel.table()->selectionModel()->currentIndex();
    REQUIRE(current.isValid());
    CHECK(current.data(RankTableModel::RankRole).toInt() == 3);

    const QModelIndex row5
        = panel.proxy()->mapFromSource(panel.model()->index(panel.model()->rowOfRank(5), 0));
    panel.table()->selectionModel()->setCurrentIndex(
        row5, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    CHECK(selection.selectedRank() == 5);

    // The heatmap's rank filter narrows the table.
    selection.setRankFilter({ 5, 6 });
    CHECK(panel.proxy()->rowCount() == 2);
    selection.setRankFilter({});
    CHECK(panel.proxy()->rowCount() == 8);
    panel.filterEdit()->setText(QStringLiteral("6"));
    CHECK(panel.proxy()->rowCount() == 1);
    panel.filterEdit()->clear();
}

TEST_CASE("ranks table screenshot shows the initiating row in the theme colour", "[ranktable]")
{
    auto doc = straggler();
    views::SelectionState selection;
    app::RanksPanel panel(&selection);
    panel.resize(1100, 360);
    panel.show();
    selection.setDocument(doc);
    QCoreApplication::processEvents();

    QTableView* table = panel.table();
    const QModelIndex index = panel.proxy()->mapFromSource(
        panel.model()->index(panel.model()->rowOfRank(6), RankTableModel::HostColumn));
    const QRect cell = table->visualRect(index);
    REQUIRE_FALSE(cell.isEmpty());
    const QImage image = table->viewport()->grab().toImage();
    panel.grab().save(shotPath(QStringLiteral("ranktable.png")));
    const QPalette pal = table->palette();
    const QColor tint = views::theme::tint(views::theme::colors(pal).initiating, pal);
    // The Host cell of rank 6 has no text on its left edge: sample just inside it.
    CHECK(image.pixelColor(cell.left() + 2, cell.center().y()).name() == tint.name());
    const QModelIndex plain = panel.proxy()->mapFromSource(
        panel.model()->index(panel.model()->rowOfRank(0), RankTableModel::HostColumn));
    CHECK(
        image.pixelColor(table->visualRect(plain).left() + 2, table->visualRect(plain).center().y())
            .name()
        != tint.name());
}
