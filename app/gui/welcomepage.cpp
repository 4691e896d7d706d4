#include "app/gui/welcomepage.h"

#include "app/gui/pastearea.h"
#include "app/gui/recentbundles.h"
#include "views/screentooltip.h"

#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QStyle>
#include <QVBoxLayout>

namespace rankscope::app {

WelcomePage::WelcomePage(QWidget* parent)
    : QWidget(parent)
    , m_sampleButton(new QPushButton(tr("Open the sample bundle"), this))
    , m_sampleNote(new QLabel(this))
    , m_recentTitle(new QLabel(tr("Recent bundles"), this))
    , m_recent(new QListWidget(this))
    , m_paste(new PasteArea(this))
{
    setObjectName(QStringLiteral("welcomePage"));
    const int em = fontMetrics().height();

    auto* title = new QLabel(tr("Rankscope"), this);
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 2.2);
    titleFont.setBold(true);
    title->setFont(titleFont);
    auto* tagline = new QLabel(
        tr("Why did my multi-GPU training run hang? Open the job's log folder, an archive of it, "
           "or a few rank logs: Rankscope names the rank that stopped the others and shows the "
           "lines that prove it."),
        this);
    tagline->setWordWrap(true);

    QFont big = m_sampleButton->font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    big.setBold(true);
    m_sampleButton->setFont(big);
    m_sampleButton->setDefault(true);
    m_sampleButton->setMinimumHeight(em * 2);
    m_sampleButton->setObjectName(QStringLiteral("openSampleButton"));
    m_sampleNote->setWordWrap(true);

    auto* folder
        = new QPushButton(style()->standardIcon(QStyle::SP_DirOpenIcon), tr("Open folder…"), this);
    auto* files
        = new QPushButton(style()->standardIcon(QStyle::SP_FileIcon), tr("Open files…"), this);
    auto* archive
        = new QPushButton(style()->standardIcon(QStyle::SP_DriveHDIcon), tr("Open archive…"), this);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(folder);
    buttons->addWidget(files);
    buttons->addWidget(archive);
    buttons->addStretch(1);
    auto* dropHint = new QLabel(
        tr("…or drop a folder, log files or a .tar.gz / .zip anywhere on this window."), this);
    dropHint->setWordWrap(true);
    QPalette hintPal = dropHint->palette();
    hintPal.setColor(QPalette::WindowText, hintPal.color(QPalette::PlaceholderText));
    dropHint->setPalette(hintPal);

    QFont sectionFont = m_recentTitle->font();
    sectionFont.setBold(true);
    m_recentTitle->setFont(sectionFont);
    m_recent->setObjectName(QStringLiteral("recentList"));
    views::keepToolTipsOnScreen(m_recent); // a bundle's paths, one per line, can be long
    m_recent->setMinimumHeight(em * 6);

    // A readable column in the middle of the window, whatever its width.
    auto* column = new QWidget(this);
    column->setMaximumWidth(em * 40);
    auto* layout = new QVBoxLayout(column);
    layout->setSpacing(em * 2 / 3);
    layout->addWidget(title);
    layout->addWidget(tagline);
    layout->addSpacing(em);
    layout->addWidget(m_sampleButton);
    layout->addWidget(m_sampleNote);
    layout->addSpacing(em / 2);
    layout->addLayout(buttons);
    layout->addWidget(dropHint);
    layout->addWidget(m_paste, 1);
    layout->addSpacing(em);
    layout->addWidget(m_recentTitle);
    layout->addWidget(m_recent, 1);

    // Scrolls rather than holding the window to its height: the page shares the window's
    // central area with the timeline, whose minimum is the window's.
    auto* content = new QWidget;
    auto* outer = new QHBoxLayout(content);
    outer->addStretch(1);
    outer->addWidget(column, 4);
    outer->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* page = new QVBoxLayout(this);
    page->setContentsMargins(0, 0, 0, 0);
    page->addWidget(scroll);

    connect(m_sampleButton, &QPushButton::clicked, this, &WelcomePage::openSampleRequested);
    connect(folder, &QPushButton::clicked, this, &WelcomePage::openFolderRequested);
    connect(files, &QPushButton::clicked, this, &WelcomePage::openFilesRequested);
    connect(archive, &QPushButton::clicked, this, &WelcomePage::openArchiveRequested);
    connect(m_paste, &PasteArea::diagnoseRequested, this, &WelcomePage::pasteRequested);
    connect(m_recent, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        Q_EMIT openRecentRequested(item->data(Qt::UserRole).toStringList());
    });
    connect(m_recent, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        Q_EMIT openRecentRequested(item->data(Qt::UserRole).toStringList());
    });
}

void WelcomePage::setRecent(const QList<QStringList>& recent)
{
    m_recent->clear();
    for (const QStringList& paths : recent) {
        auto* item = new QListWidgetItem(
            tr("%1    %2")
                .arg(RecentBundles::displayName(paths), QDir::toNativeSeparators(paths.front())),
            m_recent);
        item->setData(Qt::UserRole, paths);
        item->setToolTip(paths.join(QLatin1Char('\n')));
    }
    m_recentTitle->setVisible(!recent.isEmpty());
    m_recent->setVisible(!recent.isEmpty());
}

void WelcomePage::setSamplePath(const QString& path, bool exists)
{
    m_sampleButton->setToolTip(QDir::toNativeSeparators(path));
    if (exists) {
        m_sampleNote->setText(tr("The logs of a training job that hung in an all-reduce: see what "
                                 "Rankscope shows in a few seconds."));
    } else {
        m_sampleNote->setText(tr("The sample bundle is not installed here (expected at %1).")
                                  .arg(QDir::toNativeSeparators(path)));
    }
}

} // namespace rankscope::app
