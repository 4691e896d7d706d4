#pragma once
// The NCCL Error Hub: the built-in error catalogue (resources/catalogue/errors.json), browsable
// and searchable in the app. NCCL is where a job reports failure, not where it failed: each
// entry says what a message means, what it does not mean, the causes it points to and the
// settings and commands that tell them apart, with related entries side by side.
//
// The search box takes a pasted log line (matched by the catalogue's own patterns, the same
// as `rankscope-cli explain`), an entry id or a few words.

#include "parsers/errorcatalogue.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QTextBrowser;
class QTreeWidget;
class QUrl;

namespace rankscope::app {

class ErrorHub : public QWidget {
    Q_OBJECT
public:
    // `catalogue` outlives the hub (the built-in one lives as long as the program); null
    // shows a message that the catalogue could not be read.
    explicit ErrorHub(const parsers::ErrorCatalogue* catalogue, QWidget* parent = nullptr);

    // Shows the entries that explain `text` (a log line, an id or words), the first one open.
    void explain(const QString& text);
    // Opens one entry; false when there is no entry of that id.
    bool showEntry(const QString& id);
    // Two entries side by side: meanings, what each does not mean, causes, settings.
    bool compare(const QString& firstId, const QString& secondId);

    QString currentEntryId() const { return m_currentId; }
    QLineEdit* searchBox() const { return m_search; }
    QTreeWidget* entryList() const { return m_list; }
    QTextBrowser* details() const { return m_details; }
    int listedEntries() const;

private:
    void refill(const QString& query);
    void openLink(const QUrl& url);

    const parsers::ErrorCatalogue* m_catalogue;
    QLineEdit* m_search;
    QLabel* m_summary;
    QTreeWidget* m_list;
    QTextBrowser* m_details;
    QString m_currentId;
};

} // namespace rankscope::app
