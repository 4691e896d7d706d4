#include "app/gui/chartspanel.h"

#include "views/chartsupport.h"
#include "views/durationchart.h"
#include "views/progresschart.h"
#include "views/selectionstate.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QSplitter>
#include <QVBoxLayout>

namespace rankscope::app {

ChartsPanel::ChartsPanel(views::SelectionState* selection, QWidget* parent)
    : QWidget(parent)
    , m_selection(selection)
    , m_processGroup(new QComboBox(this))
    , m_mode(new QComboBox(this))
    , m_splitter(new QSplitter(Qt::Vertical, this))
    , m_progress(new views::ProgressChart(selection, m_splitter))
    , m_duration(new views::DurationChart(selection, m_splitter))
{
    m_processGroup->setToolTip(tr("Process group shown by the charts"));
    m_mode->setObjectName(QStringLiteral("waitChartMode"));
    m_mode->addItem(
        tr("Time each rank waited"), static_cast<int>(views::DurationChart::Mode::WaitDuration));
    m_mode->addItem(
        tr("When each rank timed out"), static_cast<int>(views::DurationChart::Mode::TimeoutTime));
    // Sized for a few characters, not their longest item, so the dock fits a 1024 px window.
    for (QComboBox* box : { m_processGroup, m_mode }) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(6);
    }
    m_splitter->setChildrenCollapsible(false);
    // The duration chart's mode on a row of its own: beside the process group it held the
    // dock too wide for a 1024 px window.
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(new QLabel(tr("Process group:"), this));
    bar->addWidget(m_processGroup, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_mode);
    layout->addWidget(m_splitter, 1);

    connect(m_processGroup, &QComboBox::activated, this, [this](int index) {
        m_selection->setProcessGroup(m_processGroup->itemData(index).toString());
    });
    connect(m_mode, &QComboBox::activated, this, [this](int index) {
        const auto mode = static_cast<views::DurationChart::Mode>(m_mode->itemData(index).toInt());
        m_duration->setMode(mode);
        Q_EMIT durationModeChosen(mode);
    });
    connect(m_selection, &views::SelectionState::documentChanged, this,
        &ChartsPanel::fillProcessGroups);
    connect(
        m_selection, &views::SelectionState::processGroupChanged, this, [this](const QString& pg) {
            const int index = m_processGroup->findData(pg);
            if (index >= 0)
                m_processGroup->setCurrentIndex(index);
        });
    fillProcessGroups();
}

void ChartsPanel::setDurationMode(views::DurationChart::Mode mode)
{
    const int index = m_mode->findData(static_cast<int>(mode));
    if (index < 0)
        return;
    m_mode->setCurrentIndex(index);
    m_duration->setMode(mode);
}

void ChartsPanel::fillProcessGroups()
{
    m_processGroup->clear();
    const views::DocumentPtr& doc = m_selection->document();
    if (!doc || !doc->bundle || !doc->timeline)
        return;
    const model::StrId shown = views::charts::chartProcessGroup(*doc, m_selection->processGroup());
    for (const model::SeqAxis& axis : doc->timeline->seqAxes()) {
        const std::string_view key = doc->bundle->text(axis.pg);
        m_processGroup->addItem(views::charts::processGroupLabel(*doc->bundle, axis.pg),
            QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size())));
        if (axis.pg == shown)
            m_processGroup->setCurrentIndex(m_processGroup->count() - 1);
    }
}

void ChartsPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // Side by side in a wide dock, stacked in a tall one.
    m_splitter->setOrientation(
        event->size().width() > event->size().height() * 3 / 2 ? Qt::Horizontal : Qt::Vertical);
}

} // namespace rankscope::app
