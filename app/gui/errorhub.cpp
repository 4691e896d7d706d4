#include "app/gui/errorhub.h"

#include "app/core/explainline.h"
#include "model/diagnosis/diagnosis.h"
#include "views/placeholderwidth.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <iterator>
#include <string_view>
#include <utility>

namespace rankscope::app {

namespace {

constexpr int kIdRole = Qt::UserRole;

// What each family of the catalogue is, in words; the catalogue's loader refuses any other.
constexpr std::array<std::pair<std::string_view, const char*>, 9> kFamilyWords { {
    { "nccl_result", "NCCL result codes" },
    { "nccl_warn", "NCCL warnings" },
    { "ib", "InfiniBand and RoCE" },
    { "socket", "Sockets and bootstrap" },
    { "c10d", "PyTorch c10d" },
    { "launcher", "torchrun and Slurm" },
    { "xid", "NVIDIA Xid events" },
    { "cuda", "CUDA errors" },
    { "ras", "NCCL RAS" },
} };

QString familyWords(std::string_view family)
{
    for (const auto& [id, words] : kFamilyWords)
        if (id == family)
            return ErrorHub::tr(words);
    return QString::fromStdString(std::string(family));
}

QString html(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

QString classWords(const std::string& name)
{
    const auto cls = model::rootCauseClassFromName(name);
    return cls ? QString::fromUtf8(model::rootCauseClassWords(*cls).data(),
                     static_cast<qsizetype>(model::rootCauseClassWords(*cls).size()))
               : QString::fromStdString(name);
}

QString listOf(const std::vector<std::string>& items, bool code)
{
    QString out = QStringLiteral("<ul>");
    for (const auto& s : items)
        out += code ? QStringLiteral("<li><code>%1</code></li>").arg(html(s))
                    : QStringLiteral("<li>%1</li>").arg(html(s));
    return out + QStringLiteral("</ul>");
}

QString classList(const std::vector<std::string>& classes)
{
    QStringList words;
    for (const auto& c : classes)
        words << classWords(c).toHtmlEscaped();
    return words.join(QStringLiteral(", "));
}

QString entryHtml(const parsers::ErrorCatalogue& catalogue, const parsers::CatalogueEntry& e)
{
    QString out = QStringLiteral("<h2>%1</h2><p><small>%2 · <code>%3</code></small></p>")
                      .arg(html(e.title), familyWords(e.family).toHtmlEscaped(), html(e.id));
    out += ErrorHub::tr("<h3>What it means</h3><p>%1</p>").arg(html(e.means));
    if (!e.notMeans.empty())
        out += ErrorHub::tr("<h3>What it does not mean</h3><p>%1</p>").arg(html(e.notMeans));
    if (!e.classes.empty())
        out += ErrorHub::tr("<h3>Causes it points to</h3><p>%1</p>").arg(classList(e.classes));
    if (!e.settings.empty())
        out += ErrorHub::tr("<h3>Settings that tell them apart</h3>") + listOf(e.settings, true);
    if (!e.commands.empty())
        out += ErrorHub::tr("<h3>Commands</h3>") + listOf(e.commands, true);
    if (!e.examples.empty())
        out += ErrorHub::tr("<h3>How it looks in a log</h3>") + listOf(e.examples, true);
    if (!e.related.empty()) {
        out += ErrorHub::tr("<h3>Often confused with</h3><ul>");
        for (const auto& id : e.related) {
            const parsers::CatalogueEntry* r = catalogue.find(id);
            if (!r)
                continue;
            out += QStringLiteral("<li><a href=\"entry:%1\">%2</a> — <a href=\"compare:%3:%1\">%4</a></li>")
                       .arg(html(r->id), html(r->title), html(e.id), ErrorHub::tr("compare side by side"));
        }
        out += QStringLiteral("</ul>");
    }
    return out;
}

QString comparisonHtml(const parsers::CatalogueEntry& a, const parsers::CatalogueEntry& b)
{
    auto row = [](const QString& label, const QString& left, const QString& right) {
        return QStringLiteral("<tr><th align=\"left\" valign=\"top\">%1</th><td valign=\"top\">%2</td>"
                              "<td valign=\"top\">%3</td></tr>")
            .arg(label, left, right);
    };
    QString out = ErrorHub::tr("<h2>Side by side</h2>");
    out += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"6\" border=\"1\" width=\"100%\">");
    out += row(QString(), QStringLiteral("<a href=\"entry:%1\"><b>%2</b></a>").arg(html(a.id), html(a.title)),
        QStringLiteral("<a href=\"entry:%1\"><b>%2</b></a>").arg(html(b.id), html(b.title)));
    out += row(ErrorHub::tr("Means"), html(a.means), html(b.means));
    out += row(ErrorHub::tr("Does not mean"), html(a.notMeans), html(b.notMeans));
    out += row(ErrorHub::tr("Points to"), classList(a.classes), classList(b.classes));
    out += row(ErrorHub::tr("Tell apart with"), listOf(a.settings, true), listOf(b.settings, true));
    out += row(ErrorHub::tr("Looks like"), listOf(a.examples, true), listOf(b.examples, true));
    return out + QStringLiteral("</table>");
}

} // namespace

ErrorHub::ErrorHub(const parsers::ErrorCatalogue* catalogue, QWidget* parent)
    : QWidget(parent)
    , m_catalogue(catalogue)
    , m_search(new QLineEdit(this))
    , m_summary(new QLabel(this))
    , m_list(new QTreeWidget(this))
    , m_details(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("errorHub"));
    m_search->setObjectName(QStringLiteral("errorHubSearch"));
    m_search->setPlaceholderText(tr("Paste a log line, or type words…"));
    m_search->setClearButtonEnabled(true);
    views::keepPlaceholderVisible(m_search);
    m_summary->setWordWrap(true);
    m_list->setObjectName(QStringLiteral("errorHubList"));
    m_list->setHeaderHidden(true);
    m_list->setRootIsDecorated(true);
    m_details->setObjectName(QStringLiteral("errorHubDetails"));
    m_details->setOpenLinks(false);

    // Stacked, not side by side: the hub shares a narrow dock with the charts.
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_list);
    split->addWidget(m_details);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_search);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);

    connect(m_search, &QLineEdit::textChanged, this, &ErrorHub::refill);
    connect(m_list, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (item && !item->data(0, kIdRole).toString().isEmpty())
            showEntry(item->data(0, kIdRole).toString());
    });
    connect(m_details, &QTextBrowser::anchorClicked, this, &ErrorHub::openLink);
    refill({});
}

int ErrorHub::listedEntries() const
{
    int n = 0;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        n += m_list->topLevelItem(i)->childCount();
    return n;
}

void ErrorHub::refill(const QString& query)
{
    m_list->clear();
    if (!m_catalogue) {
        m_summary->setText(tr("The error catalogue could not be read."));
        return;
    }
    std::vector<const parsers::CatalogueEntry*> entries;
    if (query.trimmed().isEmpty()) {
        for (const auto& e : m_catalogue->entries())
            entries.push_back(&e);
        m_summary->setText(tr("%1 entries. Paste a line from a log to see what it means.").arg(entries.size()));
    } else {
        const Explanation found = app::explain(*m_catalogue, query.toStdString());
        entries = found.entries;
        m_summary->setText(entries.empty()
                ? tr("No entry matches. Try fewer words, or paste the whole line.")
                : found.by == ExplainedBy::Pattern
                ? (entries.size() == 1 ? tr("1 entry recognises this text.")
                                       : tr("%1 entries recognise this text.").arg(entries.size()))
                : (entries.size() == 1 ? tr("1 entry mentions these words.")
                                       : tr("%1 entries mention these words.").arg(entries.size())));
    }
    QTreeWidgetItem* first = nullptr;
    // Families in the catalogue's order of first appearance; entries in the found order.
    std::vector<std::pair<std::string, QTreeWidgetItem*>> families;
    for (const parsers::CatalogueEntry* e : entries) {
        auto it = std::find_if(families.begin(), families.end(), [&](const auto& f) { return f.first == e->family; });
        if (it == families.end()) {
            auto* group = new QTreeWidgetItem(m_list, { familyWords(e->family) });
            group->setFlags(Qt::ItemIsEnabled);
            families.emplace_back(e->family, group);
            it = std::prev(families.end());
        }
        auto* item = new QTreeWidgetItem(it->second, { QString::fromStdString(e->title) });
        item->setData(0, kIdRole, QString::fromStdString(e->id));
        item->setToolTip(0, QString::fromStdString(e->id));
        if (!first)
            first = item;
    }
    m_list->expandAll();
    if (first && !query.trimmed().isEmpty())
        m_list->setCurrentItem(first);
    else if (!first)
        m_details->clear();
}

void ErrorHub::explain(const QString& text)
{
    m_search->setText(text.trimmed()); // refills through textChanged
    if (m_list->currentItem() == nullptr && listedEntries() > 0)
        m_list->setCurrentItem(m_list->topLevelItem(0)->child(0));
}

bool ErrorHub::showEntry(const QString& id)
{
    const parsers::CatalogueEntry* e = m_catalogue ? m_catalogue->find(id.toStdString()) : nullptr;
    if (!e)
        return false;
    m_currentId = id;
    m_details->setHtml(entryHtml(*m_catalogue, *e));
    return true;
}

bool ErrorHub::compare(const QString& firstId, const QString& secondId)
{
    const parsers::CatalogueEntry* a = m_catalogue ? m_catalogue->find(firstId.toStdString()) : nullptr;
    const parsers::CatalogueEntry* b = m_catalogue ? m_catalogue->find(secondId.toStdString()) : nullptr;
    if (!a || !b)
        return false;
    m_details->setHtml(comparisonHtml(*a, *b));
    return true;
}

void ErrorHub::openLink(const QUrl& url)
{
    const QString target = url.toString();
    if (target.startsWith(QStringLiteral("entry:"))) {
        showEntry(target.mid(6));
    } else if (target.startsWith(QStringLiteral("compare:"))) {
        const QStringList ids = target.mid(8).split(QLatin1Char(':'));
        if (ids.size() == 2)
            compare(ids[0], ids[1]);
    }
}

} // namespace rankscope::app
