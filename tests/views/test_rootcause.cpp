// Root-cause panel: verdict first, the initiating rank highlighted and clickable, collateral
// ranks compact, findings with clickable evidence, Copy buttons and the checklist; what
// to collect next time for inconclusive verdicts.
#include "viewtestsupport.h"
#include "clippedwidgets.h"
#include "documentfixture.h"

#include "model/ranklist.h"
#include "views/rootcausepanel.h"
#include "views/selectionstate.h"
#include "views/theme.h"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDir>
#include <QFrame>
#include <QGuiApplication>
#include <QLabel>
#include <QScrollBar>
#include <QSet>
#include <QTest>
#include <QToolButton>

using namespace rankscope;
using namespace rankscope::testing;
using views::RootCausePanel;

namespace {

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::AlternateBase, QColor(0x2d, 0x2d, 0x2d));
    p.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ButtonText, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
    p.setColor(QPalette::Link, QColor(0x8a, 0xb4, 0xf8));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x6f, 0xb5));
    p.setColor(QPalette::PlaceholderText, QColor(0x9e, 0x9e, 0x9e));
    return p;
}

QWidget* chipOfRank(const RootCausePanel& panel, int rank)
{
    const auto chips = panel.findChildren<QWidget*>(QStringLiteral("initiatingRank"));
    for (QWidget* chip : chips) {
        if (chip->property("rank").toInt() == rank)
            return chip;
    }
    return nullptr;
}

QStringList clippedWidgets(const RootCausePanel& panel)
{
    return testing::clippedWidgets(panel);
}

// Every label text in the panel, for checks on the words a user reads.
QString visibleText(const RootCausePanel& panel)
{
    QStringList texts;
    const auto labels = panel.widget()->findChildren<QLabel*>();
    for (const QLabel* label : labels)
        texts << label->text().remove(QChar(0x200B));
    const auto widgets = panel.widget()->findChildren<QWidget*>();
    for (const QWidget* w : widgets)
        texts << w->accessibleName();
    return texts.join(QLatin1Char('\n'));
}

// A verdict as long as the real ones get: a pair of ranks on hosts with long names, a summary
// quoting a long path, findings with long titles.
views::DocumentPtr longVerdict()
{
    auto bundle = std::make_shared<model::Bundle>();
    bundle->ranks.resize(16);
    for (int r = 0; r < 16; ++r) {
        auto& info = bundle->ranks[static_cast<std::size_t>(r)];
        info.rank = r;
        info.host = bundle->strings.intern(
            r < 8 ? "gpu-node-a100-rack17-slot03.cluster.example.org"
                  : "gpu-node-a100-rack22-slot11.cluster.example.org");
        info.cudaDev = r % 8;
    }
    auto diagnosis = std::make_shared<model::Diagnosis>();
    diagnosis->status = model::DiagnosisStatus::HangDiagnosed;
    diagnosis->rootCause = model::RootCauseClass::NetworkPair;
    diagnosis->stuckPair = std::pair<std::int32_t, std::int32_t>(7, 8);
    for (std::int32_t r = 0; r < 16; ++r) {
        if (r != 7 && r != 8)
            diagnosis->collateralRanks.push_back(r);
        model::RankVerdict v;
        v.rank = r;
        v.state = r == 7 || r == 8 ? model::RankState::Straggling
                                   : model::RankState::CollateralTimeout;
        diagnosis->ranks.push_back(v);
    }
    diagnosis->confidence = 0.82;
    diagnosis->summary = "The InfiniBand link between rank 7 "
                         "(gpu-node-a100-rack17-slot03.cluster.example.org, GPU 7) and rank 8 "
                         "(gpu-node-a100-rack22-slot11.cluster.example.org, GPU 0) failed with "
                         "IBV_WC_RETRY_EXC_ERR at /opt/nccl/src/transport/net_ib.cc:1696 while "
                         "every other rank waited in allreduce #4711."
        + model::summaryClassTail(diagnosis->rootCause, diagnosis->confidence);
    model::Finding f;
    f.rule = "network.ib_completion_error_pair";
    f.title = "NCCL reported IBV_WC_RETRY_EXC_ERR_between_gpu-node-a100-rack17-slot03 and its peer";
    f.ranks = { 7, 8 };
    f.confidence = 0.82;
    f.explanation = "transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer "
                    "10.12.44.201<58321> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND";
    f.fix = { "Check the cable and the switch port: ibstat mlx5_0; perfquery -x" };
    f.verify = { { "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,GRAPH torchrun --nproc_per_node=8 "
                   "all_reduce_perf_mpi_with_a_very_long_binary_name_and_no_spaces",
        "on one node of each rack, while the job is stopped: the_note_under_the_command_wraps_as_well" } };
    f.confirm = { "ibstat shows the port of gpu-node-a100-rack17-slot03.cluster.example.org "
                  "as Active" };
    diagnosis->findings.push_back(f);
    auto doc = std::make_shared<views::BundleDocument>();
    doc->bundle = bundle;
    doc->diagnosis = diagnosis;
    return doc;
}

views::DocumentPtr straggler()
{
    static views::DocumentPtr doc
        = testing::loadDocument({ RANKSCOPE_TEST_DATA "/views/straggler-8ranks" });
    return doc;
}

} // namespace

TEST_CASE(
    "root cause panel puts the verdict first and highlights the initiating rank", "[rootcause]")
{
    auto doc = straggler();
    REQUIRE(doc->diagnosis);
    REQUIRE(doc->diagnosis->initiatingRanks == std::vector<std::int32_t> { 6 });

    views::SelectionState selection;
    RootCausePanel panel(&selection);
    panel.resize(520, 900);
    panel.show();
    selection.setDocument(doc);
    QCoreApplication::processEvents();

    auto* summary = panel.findChild<QLabel*>(QStringLiteral("verdictSummary"));
    REQUIRE(summary);
    // The sentence, without the "Class: …, confidence …" tail the badges already show.
    CHECK(summary->text().remove(QChar(0x200B))
        == QString::fromStdString(std::string(model::summarySentence(*doc->diagnosis))));
    CHECK_FALSE(summary->text().contains(QStringLiteral("Class:")));
    CHECK(summary->font().pointSizeF() > panel.font().pointSizeF());
    CHECK(panel.findChild<QWidget*>(QStringLiteral("statusBadge")));
    CHECK(panel.findChild<QWidget*>(QStringLiteral("confidenceBadge")));

    // The verdict sits above the chips, the chips above the findings.
    QWidget* chip = chipOfRank(panel, 6);
    REQUIRE(chip);
    auto* firstCard = panel.findChild<QFrame*>(QStringLiteral("findingCard"));
    REQUIRE(firstCard);
    const QPoint summaryPos = summary->mapTo(panel.widget(), QPoint(0, 0));
    const QPoint chipPos = chip->mapTo(panel.widget(), QPoint(0, 0));
    const QPoint cardPos = firstCard->mapTo(panel.widget(), QPoint(0, 0));
    CHECK(summaryPos.y() < chipPos.y());
    CHECK(chipPos.y() < cardPos.y());

    // Highlight: the chip is filled with the initiating tint, with the accent bar on its left.
    const QImage image = panel.grab().toImage();
    image.save(shotPath(QStringLiteral("rootcause-light.png")));
    CHECK(distinctColours(image) > 12);
    const QPalette pal = panel.palette();
    const QColor tint = views::theme::tint(views::theme::colors(pal).initiating, pal);
    const QPoint inPanel = chip->mapTo(&panel, QPoint(0, 0));
    CHECK(image.pixelColor(inPanel + QPoint(chip->width() - 2, 1)).name() == tint.name());
    CHECK(image.pixelColor(inPanel + QPoint(1, chip->height() / 2)).name()
        == views::theme::colors(pal).initiating.name());

    // Nothing is wider than the panel: long lines wrap instead of being cut.
    CHECK(panel.widget()->width() <= panel.viewport()->width());


    QTest::mouseClick(chip, Qt::LeftButton);
    CHECK(selection.selectedRank() == 6);
}

TEST_CASE("root cause panel summarises collateral ranks as ranges and expands to every rank",
    "[rootcause]")
{
    auto doc = straggler();
    views::SelectionState selection;
    RootCausePanel panel(&selection);
    panel.resize(480, 800);
    panel.show();
    selection.setDocument(doc);

    auto* collateral = panel.findChild<QLabel*>(QStringLiteral("collateralSummary"));
    REQUIRE(collateral);
    const QString ranges
        = QString::fromStdString(model::formatRanks(doc->diagnosis->collateralRanks));
    // Zero-width spaces let long range lists wrap; they are display-only.
    CHECK(collateral->text().remove(QChar(0x200B)).contains(ranges));
    CHECK(collateral->text().contains(
        QStringLiteral("%1 ranks").arg(doc->diagnosis->collateralRanks.size())));

    auto* list = panel.findChild<QLabel*>(QStringLiteral("collateralList"));
    auto* toggle = panel.findChild<QToolButton*>(QStringLiteral("collateralToggle"));
    REQUIRE(list);
    REQUIRE(toggle);
    CHECK_FALSE(list->isVisible());
    toggle->click();
    CHECK(list->isVisible());
    CHECK(list->text().contains(QStringLiteral("href=\"rank:0\"")));
    Q_EMIT list->linkActivated(QStringLiteral("rank:3"));
    CHECK(selection.selectedRank() == 3);
}

TEST_CASE("a scattered collateral list stays a short summary line", "[rootcause]")
{
    // Every other rank of a 200-rank job: 100 runs. The summary names the first ones and how
    // many more there are; the full list behind "Show every rank" still has each of them.
    const views::DocumentPtr base = straggler();
    auto doc = std::make_shared<views::BundleDocument>(*base);
    auto diagnosis = std::make_shared<model::Diagnosis>(*base->diagnosis);
    diagnosis->collateralRanks.clear();
    for (std::int32_t r = 0; r < 200; r += 2)
        diagnosis->collateralRanks.push_back(r);
    doc->diagnosis = diagnosis;
    views::SelectionState selection;
    RootCausePanel panel(&selection);
    panel.resize(480, 800);
    panel.show();
    selection.setDocument(doc);

    auto* collateral = panel.findChild<QLabel*>(QStringLiteral("collateralSummary"));
    REQUIRE(collateral);
    const QString text = collateral->text().remove(QChar(0x200B));
    CHECK(text.contains(QStringLiteral("100 ranks")));
    CHECK(text.contains(QStringLiteral("0,2,4,6,")));
    CHECK(text.contains(QStringLiteral("and 76 more runs")));
    CHECK_FALSE(text.contains(QStringLiteral(",198")));
    auto* toggle = panel.findChild<QToolButton*>(QStringLiteral("collateralToggle"));
    auto* list = panel.findChild<QLabel*>(QStringLiteral("collateralList"));
    REQUIRE(toggle);
    REQUIRE(list);
    toggle->click();
    CHECK(list->text().contains(QStringLiteral("href=\"rank:198\"")));
}

TEST_CASE("clicking an evidence line selects it and the event written on it", "[rootcause]")
{
    auto doc = straggler();
    views::SelectionState selection;
    RootCausePanel panel(&selection);
    panel.resize(520, 900);
    panel.show();
    selection.setDocument(doc);

    const auto rows = panel.findChildren<QFrame*>(QStringLiteral("evidenceRow"));
    REQUIRE_FALSE(rows.isEmpty());
    const model::EvidenceRef first = doc->diagnosis->findings.front().evidence.front().ref;
    QTest::mouseClick(rows.front(), Qt::LeftButton, {}, QPoint(rows.front()->width() / 2, 4));
    CHECK(selection.selectedEvidence() == first);
    REQUIRE(selection.selectedEvent() >= 0);
    const model::Event& e
        = doc->bundle->events[static_cast<std::size_t>(selection.selectedEvent())];
    CHECK(e.evidence.source == first.source);
    CHECK(e.evidence.line == first.line);
}

TEST_CASE(
    "verification commands copy to the clipboard and the checklist is checkable", "[rootcause]")
{
    auto doc = straggler();
    views::SelectionState selection;
    RootCausePanel panel(&selection);
    panel.resize(520, 900);
    panel.show();
    selection.setDocument(doc);
    const model::Finding& f = doc->diagnosis->findings.front();
    REQUIRE_FALSE(f.verify.empty());

    // One Copy button per step with a command, and it copies the command alone: a
    // note pasted into a shell is a syntax error.
    std::vector<const model::VerifyStep*> commands;
    for (const auto& step : f.verify)
        if (!step.command.empty())
            commands.push_back(&step);
    REQUIRE_FALSE(commands.empty());
    const auto copies = panel.findChildren<QToolButton*>(QStringLiteral("copyButton"));
    REQUIRE(copies.size() >= static_cast<qsizetype>(commands.size()));
    copies.front()->click();
    CHECK(QGuiApplication::clipboard()->text() == QString::fromStdString(commands.front()->command));
    for (QToolButton* copy : copies) {
        copy->click();
        const QString copied = QGuiApplication::clipboard()->text();
        for (const auto& step : f.verify)
            if (!step.note.empty())
                CHECK_FALSE(copied.contains(QString::fromStdString(step.note)));
    }
    CHECK(copies.front()->text().remove(QLatin1Char('&')).startsWith(QStringLiteral("Copied")));

    // Alt+C, the Copy buttons' mnemonic, reaches them from the keyboard (a shortcut focus
    // on the first, tools/gui-walkthrough.sh presses it on a real display), and the panel
    // scrolls to the focused one: a short panel, so it is out of view until then.
    for (QToolButton* copy : copies)
        CHECK(QKeySequence::mnemonic(copy->text()) == QKeySequence(Qt::ALT | Qt::Key_C));
    panel.resize(520, 200);
    panel.verticalScrollBar()->setValue(0);
    QApplication::processEvents();
    QToolButton* target = copies.front();
    const auto visibleIn = [&panel](QWidget* w) {
        return panel.viewport()->rect().contains(
            QRect(w->mapTo(panel.viewport(), QPoint(0, 0)), w->size()));
    };
    REQUIRE_FALSE(visibleIn(target));
    target->setFocus(Qt::ShortcutFocusReason);
    QApplication::processEvents();
    CHECK(visibleIn(target));

    const auto checks = panel.findChildren<QCheckBox*>(QStringLiteral("confirmCheck"));
    CHECK(checks.size() >= static_cast<qsizetype>(f.confirm.size()));
    if (!checks.isEmpty()) {
        checks.front()->click();
        CHECK(checks.front()->isChecked());
    }
}

TEST_CASE("an inconclusive verdict says what to collect next time", "[rootcause]")
{
    auto doc = testing::loadDocument({ RANKSCOPE_TEST_DATA "/views/inconclusive-excerpt" });
    REQUIRE(doc->diagnosis);
    REQUIRE(doc->diagnosis->status == model::DiagnosisStatus::Inconclusive);
    REQUIRE_FALSE(doc->diagnosis->missingEvidence.empty());
    views::SelectionState selection;
    RootCausePanel panel(&selection);
    panel.resize(520, 1000);
    panel.show();
    selection.setDocument(doc);
    auto* missing = panel.findChild<QFrame*>(QStringLiteral("missingEvidence"));
    REQUIRE(missing);
    const auto labels = missing->findChildren<QLabel*>();
    bool mentioned = false;
    const QString first
        = QString::fromStdString(doc->diagnosis->missingEvidence.front()).toHtmlEscaped();
    for (const QLabel* label : labels)
        mentioned = mentioned || label->text().remove(QChar(0x200B)).contains(first.left(40));
    CHECK(mentioned);
    CHECK(panel.findChildren<QWidget*>(QStringLiteral("initiatingRank")).isEmpty());
    panel.grab().save(shotPath(QStringLiteral("rootcause-inconclusive.png")));
}

TEST_CASE("a stuck pair shows both ranks as initiating chips", "[rootcause]")
{
    auto bundle = std::make_shared<model::Bundle>();
    bundle->ranks.resize(8);
    for (int r = 0; r < 8; ++r) {
        bundle->ranks[static_cast<std::size_t>(r)].rank = r;
        bundle->ranks[static_cast<std::size_t>(r)].host
            = bundle->strings.intern(r < 4 ? "node-01" : "node-02");
        bundle->ranks[static_cast<std::size_t>(r)].cudaDev = r % 4;
    }
    auto diagnosis = std::make_shared<model::Diagnosis>();
    diagnosis->status = model::DiagnosisStatus::HangDiagnosed;
    diagnosis->rootCause = model::RootCauseClass::NetworkPair;
    diagnosis->stuckPair = std::pair<std::int32_t, std::int32_t>(3, 4);
    diagnosis->collateralRanks = { 0, 1, 2, 5, 6, 7 };
    diagnosis->confidence = 0.8;
    diagnosis->summary
        = "The link between rank 3 (node-01, GPU 3) and rank 4 (node-02, GPU 0) failed.";
    auto doc = std::make_shared<views::BundleDocument>();
    doc->bundle = bundle;
    doc->diagnosis = diagnosis;

    views::SelectionState selection;
    RootCausePanel panel(&selection);
    panel.resize(480, 600);
    panel.show();
    selection.setDocument(doc);
    CHECK(chipOfRank(panel, 3));
    CHECK(chipOfRank(panel, 4));
    panel.grab().save(shotPath(QStringLiteral("rootcause-pair.png")));
}

TEST_CASE("root cause panel stays readable in a dark palette and a narrow dock", "[rootcause]")
{
    auto doc = straggler();
    views::SelectionState selection;
    RootCausePanel panel(&selection);
    panel.setPalette(darkPalette());
    panel.resize(340, 900);
    panel.show();
    selection.setDocument(doc);
    QCoreApplication::processEvents();
    const QImage image = panel.grab().toImage();
    image.save(shotPath(QStringLiteral("rootcause-dark.png")));
    CHECK(views::theme::isDark(panel.palette()));
    // The background follows the dark palette.
    CHECK(QColor(image.pixel(2, image.height() - 3)).lightness() < 80);
    CHECK(panel.widget()->width() <= panel.viewport()->width());
    QWidget* chip = chipOfRank(panel, 6);
    REQUIRE(chip);
    const QPalette pal = panel.palette();
    const QPoint inPanel = chip->mapTo(&panel, QPoint(0, 0));
    CHECK(image.pixelColor(inPanel + QPoint(chip->width() - 2, 1)).name()
        == views::theme::tint(views::theme::colors(pal).initiating, pal).name());
}

TEST_CASE("root cause panel wraps every text within its visible width, however narrow",
    "[rootcause][wrap]")
{
    const views::DocumentPtr longOne = longVerdict();
    for (const views::DocumentPtr& doc : { longOne, straggler() }) {
        for (const int width : { 220, 300, 420, 640 }) {
            views::SelectionState selection;
            RootCausePanel panel(&selection);
            panel.resize(width, 900);
            panel.show();
            selection.setDocument(doc);
            // Expand every folded card and the collateral list: hidden text must fit too.
            const auto toggles = panel.findChildren<QToolButton*>(QStringLiteral("collateralToggle"));
            for (QToolButton* toggle : toggles)
                toggle->click();
            QCoreApplication::processEvents();
            INFO("panel width " << width);
            const QStringList clipped = clippedWidgets(panel);
            INFO(clipped.join(QLatin1Char('\n')).toStdString());
            CHECK(clipped.isEmpty());
            if (width == 300 && doc == longOne)
                panel.grab().save(shotPath(QStringLiteral("rootcause-narrow.png")));
        }
    }
}

TEST_CASE("root cause panel wraps at 200 % scaling", "[rootcause][wrap]")
{
    // 200 % scaling halves the panel's width in font heights: a doubled font in the same
    // logical width is the same layout problem, inside one test process.
    const views::DocumentPtr doc = longVerdict();
    views::SelectionState selection;
    RootCausePanel panel(&selection);
    QFont big = panel.font();
    big.setPointSizeF(big.pointSizeF() * 2);
    panel.setFont(big);
    panel.resize(408, 1400); // 30 % of 1360 px
    panel.show();
    selection.setDocument(doc);
    QCoreApplication::processEvents();
    const QStringList clipped = clippedWidgets(panel);
    INFO(clipped.join(QLatin1Char('\n')).toStdString());
    CHECK(clipped.isEmpty());
    panel.grab().save(shotPath(QStringLiteral("rootcause-200percent.png")));
}

TEST_CASE("root cause panel shows plain words, not the machine ids", "[rootcause][words]")
{
    views::SelectionState selection;
    RootCausePanel panel(&selection);
    panel.resize(520, 900);
    panel.show();
    selection.setDocument(longVerdict());
    QCoreApplication::processEvents();
    const QString text = visibleText(panel);
    for (const char* id : { "network_pair", "straggler_stall", "Class:", "rule ", "ib_completion",
             "rank(s)", "straggling" }) {
        INFO(id << " in " << text.toStdString());
        CHECK_FALSE(text.contains(QLatin1String(id)));
    }
    // The ends of the failed link are named for the link.
    QWidget* chip = chipOfRank(panel, 7);
    REQUIRE(chip);
    INFO(chip->accessibleName().toStdString());
    CHECK(chip->accessibleName().contains(QStringLiteral("failed link")));
    // The rule id is still there for whoever looks for it.
    bool ruleInTooltip = false;
    const auto widgets = panel.widget()->findChildren<QWidget*>();
    for (const QWidget* w : widgets)
        ruleInTooltip = ruleInTooltip || w->toolTip().contains(QStringLiteral("network.ib_completion"));
    CHECK(ruleInTooltip);
}

TEST_CASE("a run with no hang says what was checked, how far it got and when it last moved",
    "[rootcause][healthy]")
{
    auto doc = testing::loadDocument({ RANKSCOPE_TEST_DATA "/scenarios/healthy-per-rank" });
    REQUIRE(doc->diagnosis);
    REQUIRE(doc->diagnosis->status == model::DiagnosisStatus::NoHangFound);
    REQUIRE(doc->reach);
    views::SelectionState selection;
    RootCausePanel panel(&selection);
    panel.resize(480, 900);
    panel.show();
    selection.setDocument(doc);
    QCoreApplication::processEvents();

    auto* checked = panel.findChild<QLabel*>(QStringLiteral("reachChecked"));
    auto* progress = panel.findChild<QLabel*>(QStringLiteral("reachProgress"));
    auto* last = panel.findChild<QLabel*>(QStringLiteral("reachLastProgress"));
    REQUIRE(checked);
    REQUIRE(progress);
    REQUIRE(last);
    CHECK(checked->text().contains(QStringLiteral("8 ranks")));
    CHECK(checked->text().contains(QStringLiteral("collective timeouts (watchdog): none")));
    CHECK_FALSE(progress->text().isEmpty());
    CHECK_FALSE(last->text().isEmpty());
    if (doc->reach->trainingStep.ranks > 0)
        CHECK(progress->text().contains(QStringLiteral("Training step")));
    if (doc->reach->lastProgress.valid())
        CHECK(last->text().contains(
            QString::fromStdString(model::formatTime(doc->reach->lastProgress))));
    CHECK(clippedWidgets(panel).isEmpty());
    const QImage image = panel.grab().toImage();
    image.save(shotPath(QStringLiteral("rootcause-healthy.png")));
    CHECK(distinctColours(image) > 8);
}

TEST_CASE("a rank chip with room to spare keeps its subtitle on one line", "[rootcause][wrap]")
{
    auto doc = testing::loadDocument({ RANKSCOPE_SAMPLES_DIR "/hung-allreduce" });
    REQUIRE(doc->diagnosis);
    REQUIRE_FALSE(doc->diagnosis->initiatingRanks.empty());
    views::SelectionState selection;
    RootCausePanel panel(&selection);
    panel.resize(520, 900);
    panel.show();
    selection.setDocument(doc);
    QCoreApplication::processEvents();
    QWidget* chip = chipOfRank(panel, doc->diagnosis->initiatingRanks.front());
    REQUIRE(chip);
    INFO(chip->accessibleName().toStdString() << ": " << chip->width() << " x " << chip->height());
    CHECK(chip->height() == chip->heightForWidth(10000));
}
