#pragma once
// What the window shows before a bundle is open: one obvious button to open the sample
// bundle, the other ways in (folder, files, archive, drag and drop) and the recent bundles.

#include <QList>
#include <QStringList>
#include <QWidget>

#include <optional>

class QLabel;
class QListWidget;
class QPushButton;

namespace rankscope::app {

class PasteArea;

class WelcomePage : public QWidget {
    Q_OBJECT
public:
    explicit WelcomePage(QWidget* parent = nullptr);

    void setRecent(const QList<QStringList>& recent);
    // Where the sample bundle should be; the button explains itself when it is missing.
    void setSamplePath(const QString& path, bool exists);

Q_SIGNALS:
    void openSampleRequested();
    void openFolderRequested();
    void openFilesRequested();
    void openArchiveRequested();
    void openRecentRequested(const QStringList& paths);
    void pasteRequested(const QString& text, std::optional<int> rank);

private:
    QPushButton* m_sampleButton;
    QLabel* m_sampleNote;
    QLabel* m_recentTitle;
    QListWidget* m_recent;
    PasteArea* m_paste;
};

} // namespace rankscope::app
