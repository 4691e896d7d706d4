#include "app/gui/exportdialog.h"

#include "app/gui/recentbundles.h"
#include "app/gui/reporttextdocument.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSettings>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace rankscope::app {

namespace {

const QString kLastDirKey = QStringLiteral("export/lastDirectory");

int indexOf(ExportFormat format)
{
    return static_cast<int>(format);
}

// JSON is the rankscope.diagnosis/1 object whole: there is nothing to summarise.
bool appendixApplies(ExportFormat format)
{
    return format != ExportFormat::Json;
}

} // namespace

ExportDialog::ExportDialog(views::DocumentPtr document, const QString& outputPath, QWidget* parent)
    : QDialog(parent)
    , m_document(std::move(document))
    , m_path(new QLineEdit(this))
    , m_format(new QComboBox(this))
    , m_anonymize(new QCheckBox(tr("Anonymize hostnames, IPs, users and job ids"), this))
    , m_appendix(new QCheckBox(tr("Append full tables (every rank, every input's SHA-256)"), this))
    , m_progress(new QProgressBar(this))
    , m_progressTimer(new QTimer(this))
    , m_preview(new QTextBrowser(this))
    , m_status(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Cancel, this))
    , m_exportButton(m_buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole))
{
    setObjectName(QStringLiteral("exportDialog"));
    setWindowTitle(tr("Export report"));
    m_path->setObjectName(QStringLiteral("exportPath"));
    m_format->setObjectName(QStringLiteral("exportFormat"));
    m_anonymize->setObjectName(QStringLiteral("exportAnonymize"));
    m_appendix->setObjectName(QStringLiteral("exportAppendix"));
    m_progress->setObjectName(QStringLiteral("exportProgress"));
    m_preview->setObjectName(QStringLiteral("exportPreview"));
    m_status->setObjectName(QStringLiteral("exportStatus"));

    for (ExportFormat f : kExportFormats)
        m_format->addItem(exportFormatTitle(f));
    m_anonymize->setToolTip(tr("Replace them by stable pseudonyms (host-01, ip-01, user-01, "
                               "job-01) everywhere in the report and its figures. Secrets are "
                               "always masked."));
    m_appendix->setToolTip(tr("The report is compact: long tables of ranks and inputs are "
                              "summarised. Tick to append them in full at the end."));
    m_progress->setRange(0, 100);
    m_progress->setFormat(tr("Writing… %p%"));
    m_progress->hide();
    m_progressTimer->setInterval(100); // throttled: the worker only bumps a counter
    m_preview->setOpenLinks(false);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* browse = new QPushButton(tr("Browse…"), this);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    auto* form = new QFormLayout;
    auto* pathLabel = new QLabel(tr("Report &file:"), this);
    pathLabel->setBuddy(m_path); // a row of several widgets gets no buddy by itself
    form->addRow(pathLabel, pathRow);
    form->addRow(tr("F&ormat:"), m_format);
    form->addRow(QString(), m_anonymize);
    form->addRow(QString(), m_appendix);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("Preview:"), this));
    layout->addWidget(m_preview, 1);
    layout->addWidget(m_status);
    layout->addWidget(m_progress);
    layout->addWidget(m_buttons);

    connect(browse, &QPushButton::clicked, this, &ExportDialog::chooseFile);
    connect(m_path, &QLineEdit::textEdited, this, &ExportDialog::onPathEdited);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ExportDialog::onFormatChosen);
    connect(m_anonymize, &QCheckBox::toggled, this, &ExportDialog::requestPreview);
    connect(m_appendix, &QCheckBox::toggled, this, &ExportDialog::showPreview);
    connect(m_progressTimer, &QTimer::timeout, this, &ExportDialog::pollWriteProgress);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ExportDialog::startExport);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    const int em = fontMetrics().height();
    resize(em * 50, em * 42);
    setOutputPath(outputPath.isEmpty() ? defaultOutputPath(m_document) : outputPath);
    requestPreview();
}

ExportDialog::~ExportDialog() = default;

QString ExportDialog::defaultOutputPath(const views::DocumentPtr& document)
{
    QString name = QStringLiteral("rankscope");
    if (document) {
        QStringList paths;
        for (const std::string& p : document->inputPaths)
            paths << QString::fromStdString(p);
        name = RecentBundles::displayName(paths);
        name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
        name.remove(
            QRegularExpression(QStringLiteral("\\.(tar\\.gz|tgz|tar|zip|tar\\.zst|gz|zst)$")));
    }
    const QString dir = QSettings().value(kLastDirKey, QDir::homePath()).toString();
    return QDir(dir).filePath(name + QStringLiteral("-report.html"));
}

QString ExportDialog::outputPath() const
{
    return m_path->text().trimmed();
}

ExportFormat ExportDialog::format() const
{
    return kExportFormats[std::clamp(m_format->currentIndex(), 0, 3)];
}

bool ExportDialog::anonymize() const
{
    return m_anonymize->isChecked();
}

bool ExportDialog::appendix() const
{
    return m_appendix->isChecked();
}

int ExportDialog::writeProgress() const
{
    return m_shownProgress;
}

void ExportDialog::setAppendix(bool appendix)
{
    m_appendix->setChecked(appendix);
}

void ExportDialog::pollWriteProgress()
{
    const int percent = m_writeProgress->load();
    if (percent == m_shownProgress)
        return;
    m_shownProgress = percent;
    m_progress->setValue(percent);
    Q_EMIT writeProgressChanged(percent);
}

bool ExportDialog::isPreviewReady() const
{
    return m_prepared[anonymize() ? 1 : 0].has_value();
}

void ExportDialog::setOutputPath(const QString& path)
{
    m_path->setText(path);
    onPathEdited(path);
}

void ExportDialog::setFormat(ExportFormat format)
{
    m_format->setCurrentIndex(indexOf(format)); // onFormatChosen follows
}

void ExportDialog::setAnonymize(bool anonymize)
{
    m_anonymize->setChecked(anonymize);
}

void ExportDialog::chooseFile()
{
    QStringList filters;
    for (ExportFormat f : kExportFormats)
        filters << tr("%1 (*.%2)").arg(exportFormatTitle(f), exportFormatSuffix(f));
    QString selected = filters[indexOf(format())];
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export report"), outputPath(), filters.join(QStringLiteral(";;")), &selected);
    if (path.isEmpty())
        return;
    setOutputPath(path);
    // A name without a known extension takes the chosen filter's.
    if (!exportFormatFromPath(path)) {
        const int chosen = static_cast<int>(filters.indexOf(selected));
        if (chosen >= 0)
            setFormat(kExportFormats[chosen]);
    }
}

void ExportDialog::onPathEdited(const QString& path)
{
    // The extension chooses the format; the combo box is only moved, never the other way
    // round here, so typing never rewrites what the user types.
    if (const auto f = exportFormatFromPath(path); f && *f != format()) {
        const QSignalBlocker block(m_format);
        m_format->setCurrentIndex(indexOf(*f));
        showPreview();
    }
    updateButtons();
}

void ExportDialog::onFormatChosen(int)
{
    // The chosen format renames the file's extension (or adds one).
    QString path = outputPath();
    if (!path.isEmpty()) {
        const QFileInfo info(path);
        const QString suffix = exportFormatSuffix(format());
        const QString base
            = exportFormatFromPath(path) ? path.left(path.size() - info.suffix().size() - 1) : path;
        path = base + QLatin1Char('.') + suffix;
        m_path->setText(path);
    }
    showPreview();
    updateButtons();
}

void ExportDialog::requestPreview()
{
    const int key = anonymize() ? 1 : 0;
    if (m_prepared[key] || m_preparing[key]) {
        showPreview();
        return;
    }
    m_preparing[key] = true;
    m_status->setText(
        anonymize() ? tr("Preparing the anonymised report…") : tr("Preparing the report…"));
    updateButtons();
    const views::DocumentPtr document = m_document;
    const bool anonymise = key == 1;
    // Content off the GUI thread; figures back on it (widgets). A closed dialog cancels
    // the continuation (it is bound to this object).
    QtConcurrent::run([document, anonymise] {
        return prepareReport(document, anonymise);
    }).then(this, [this, key](const PreparedReport& prepared) {
        m_preparing[key] = false;
        if (!prepared.data) {
            m_status->setText(tr("There is no diagnosis to export."));
            return;
        }
        m_prepared[key] = Prepared { prepared.data,
            std::make_shared<const std::vector<ExportFigure>>(
                renderReportFigures(prepared.figureDocument)) };
        showPreview();
    });
}

void ExportDialog::showPreview()
{
    const int key = anonymize() ? 1 : 0;
    if (!m_prepared[key]) {
        updateButtons();
        return;
    }
    const Prepared& p = *m_prepared[key];
    const ExportFormat f = format();
    const std::shared_ptr<const ReportData> data = withAppendix(p.data, appendix());
    QTextDocument* doc = nullptr;
    if (f == ExportFormat::Html || f == ExportFormat::Pdf) {
        // The PDF is this document paginated; HTML differs from it only in styling.
        doc = reportTextDocument(*data, reportFigures(*p.figures), m_preview);
    } else {
        doc = new QTextDocument(m_preview);
        doc->setDefaultFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        doc->setPlainText(QString::fromStdString(reportText(*data, *p.figures, f, outputPath())));
    }
    // Keep the reader's place when only the anonymise box or the format changed.
    const int scroll = m_preview->verticalScrollBar()->value();
    m_preview->setDocument(doc);
    if (m_previewDocument)
        m_previewDocument->deleteLater();
    m_previewDocument = doc;
    m_preview->verticalScrollBar()->setValue(scroll);

    QString status = tr("%1 report").arg(exportFormatTitle(f));
    if (f == ExportFormat::Markdown)
        status += tr(", %1 figure(s) as PNG files in %2/")
                      .arg(p.figures->size())
                      .arg(figureFolderName(outputPath()));
    else if (f != ExportFormat::Json)
        status += tr(", %1 figure(s)").arg(p.figures->size());
    if (anonymize())
        status += tr(" · host names, IPs, users and job ids are pseudonyms");
    m_status->setText(status);
    updateButtons();
    Q_EMIT previewUpdated();
}

void ExportDialog::updateButtons()
{
    m_exportButton->setEnabled(!m_writing && isPreviewReady() && !outputPath().isEmpty());
    m_format->setEnabled(!m_writing);
    m_anonymize->setEnabled(!m_writing);
    m_appendix->setEnabled(!m_writing && appendixApplies(format()));
    m_path->setEnabled(!m_writing);
}

void ExportDialog::startExport()
{
    const int key = anonymize() ? 1 : 0;
    const QString path = outputPath();
    if (m_writing || !m_prepared[key] || path.isEmpty())
        return;
    m_writing = true;
    updateButtons();
    m_status->setText(tr("Writing %1…").arg(QDir::toNativeSeparators(path)));
    QSettings().setValue(kLastDirKey, QFileInfo(path).absolutePath());

    const ExportFormat f = format();
    const Prepared p { withAppendix(m_prepared[key]->data, appendix()), m_prepared[key]->figures };
    m_writeProgress->store(0);
    m_shownProgress = 0;
    m_progress->setValue(0);
    m_progress->show();
    m_progressTimer->start();
    const auto write = [p, f, path, counter = m_writeProgress] {
        WriteOutcome outcome;
        auto written = writeReport(
            *p.data, *p.figures, f, path, [counter](int percent) { counter->store(percent); });
        if (written)
            outcome.written = written.value();
        else
            outcome.error = QString::fromStdString(written.error().message);
        return outcome;
    };
    QtConcurrent::run(write).then(this, [this](const WriteOutcome& o) { onWritten(o); });
}

void ExportDialog::onWritten(const WriteOutcome& outcome)
{
    m_progressTimer->stop();
    pollWriteProgress(); // the last value, 100 when written
    m_progress->hide();
    m_writing = false;
    updateButtons();
    if (!outcome.error.isEmpty()) {
        m_status->setText(outcome.error);
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Export failed"),
            tr("The report was not written:\n\n%1").arg(outcome.error), QMessageBox::Ok, this);
        box->setObjectName(QStringLiteral("exportErrorBox"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setModal(false);
        box->show();
        Q_EMIT exportFailed(outcome.error);
        return;
    }
    Q_EMIT exported(outcome.written.path);
    accept();
}

} // namespace rankscope::app
