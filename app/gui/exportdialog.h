#pragma once
// File → Export Report…: where to write the report, in which format (HTML, Markdown,
// JSON, PDF; the file's extension picks it too), whether to anonymise it, whether to append
// the full rank and input tables (a compact report otherwise), and a preview of exactly
// what will be written. The report content is prepared on a worker and the
// figures drawn on the GUI thread, once per anonymise setting (cached: toggling the box
// back is instant; the appendix only changes the layout, so it needs no new figures);
// writing runs on a worker, its percentage shown in a progress bar polled from the worker's
// counter (a PDF of a big world takes seconds). Failures are shown, never thrown.

#include "app/gui/exportformat.h"
#include "app/gui/reportexport.h"
#include "views/bundledocument.h"

#include <QDialog>

#include <array>
#include <atomic>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTimer;
class QTextBrowser;
class QTextDocument;

namespace rankscope::app {

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    ExportDialog(views::DocumentPtr document, const QString& outputPath, QWidget* parent = nullptr);
    ~ExportDialog() override;

    QString outputPath() const;
    ExportFormat format() const;
    bool anonymize() const;
    bool appendix() const;
    // The last write's progress in percent (0 before the first).
    int writeProgress() const;
    bool isPreviewReady() const;
    bool isWriting() const { return m_writing; }
    QTextBrowser* preview() const { return m_preview; }
    // "report.html" for a bundle called "report" in the last export folder.
    static QString defaultOutputPath(const views::DocumentPtr& document);

public Q_SLOTS:
    void setOutputPath(const QString& path);
    void setFormat(rankscope::app::ExportFormat format);
    void setAnonymize(bool anonymize);
    void setAppendix(bool appendix);
    // Writes the report; the dialog closes when it is written.
    void startExport();

Q_SIGNALS:
    void previewUpdated();
    void exported(const QString& path);
    void exportFailed(const QString& message);
    void writeProgressChanged(int percent);

private:
    // One anonymise setting's report: content and figures, ready to show or write.
    struct Prepared {
        std::shared_ptr<const ReportData> data;
        std::shared_ptr<const std::vector<ExportFigure>> figures;
    };
    struct WriteOutcome {
        WrittenReport written;
        QString error;
    };

    void chooseFile();
    void onPathEdited(const QString& path);
    void onFormatChosen(int index);
    void requestPreview();
    void showPreview();
    void onWritten(const WriteOutcome& outcome);
    void updateButtons();
    void pollWriteProgress();

    views::DocumentPtr m_document;
    // Cache key: the anonymise setting (index 1 = anonymised). Never invalidated: the
    // document is fixed for the dialog's life; only the time stamp would differ.
    std::array<std::optional<Prepared>, 2> m_prepared;
    std::array<bool, 2> m_preparing { false, false };
    bool m_writing = false;
    // Written by the worker, read by m_progressTimer on the GUI thread.
    std::shared_ptr<std::atomic<int>> m_writeProgress = std::make_shared<std::atomic<int>>(0);
    int m_shownProgress = 0;

    QLineEdit* m_path;
    QComboBox* m_format;
    QCheckBox* m_anonymize;
    QCheckBox* m_appendix;
    QProgressBar* m_progress;
    QTimer* m_progressTimer;
    QTextBrowser* m_preview;
    QTextDocument* m_previewDocument = nullptr;
    QLabel* m_status;
    QDialogButtonBox* m_buttons;
    QPushButton* m_exportButton;
};

} // namespace rankscope::app
