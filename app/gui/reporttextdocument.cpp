#include "app/gui/reporttextdocument.h"

#include "app/core/reportwriter.h"

#include <QBuffer>
#include <QImage>
#include <QImageReader>
#include <QRegularExpression>
#include <QTextDocument>
#include <QUrl>

#include <algorithm>
#include <cmath>

namespace rankscope::app {

namespace {

// The report's palette (app/core/reporthtml.cpp) in the CSS QTextDocument understands.
constexpr auto kRichTextStyle = R"CSS(
body { color: #1d2433; font-family: "DejaVu Sans", "Noto Sans", Arial, sans-serif; font-size: 9.5pt; }
h1 { font-size: 17pt; margin-top: 4px; margin-bottom: 6px; }
h2 { font-size: 13pt; color: #14213d; margin-top: 20px; margin-bottom: 6px; }
h3 { font-size: 10.5pt; margin-top: 0px; margin-bottom: 3px; }
h4 { font-size: 8pt; color: #5b6577; margin-top: 10px; margin-bottom: 2px; text-transform: uppercase; }
p { margin-top: 3px; margin-bottom: 3px; }
ul { margin-top: 2px; margin-bottom: 2px; }
li { margin-bottom: 2px; }
ul.checklist { list-style-type: none; }
code, .mono { font-family: "DejaVu Sans Mono", monospace; font-size: 8pt; }
code { background-color: #f6f7f9; }
pre { font-family: "DejaVu Sans Mono", monospace; font-size: 7.5pt; white-space: pre-wrap;
  background-color: #f6f7f9; margin-top: 0px; margin-bottom: 0px; }
pre.commands { background-color: #101828; color: #e4e7ec; }
.loc { color: #1f4e8c; }
.brand { font-weight: bold; color: #e8ecf4; }
.meta { color: #b8c2d6; }
.status { font-size: 8pt; font-weight: bold; color: #ffffff; }
.summary { font-size: 10.5pt; }
.confidence { color: #5b6577; font-size: 8.5pt; margin-top: 6px; }
.meterbar { color: #1f4e8c; }
.meterrest { color: #c5ccd8; }
.rank-initiating { color: #b42318; font-weight: bold; }
td.fact { color: #5b6577; font-weight: bold; padding-right: 14px; }
.cardmeta { color: #5b6577; font-size: 8.5pt; }
.placeholder { color: #5b6577; background-color: #fbfcfd; }
.caption { color: #5b6577; font-size: 8.5pt; margin-bottom: 10px; }
table.data { border-collapse: collapse; }
table.data th { background-color: #f6f7f9; font-weight: bold; border-bottom: 1px solid #dfe3ea; }
table.data td { border-bottom: 1px solid #dfe3ea; }
table.data th { text-align: left; }
table.data td.num, table.data th.num { text-align: right; }
td.rank { font-weight: bold; }
tr.initiating td { background-color: #fef3f2; }
.badge { background-color: #eef0f4; }
.badge.bad { background-color: #fee4e2; color: #912018; }
.badge.good { background-color: #dcfae6; color: #085d3a; }
.badge.quiet { background-color: #f2f4f7; color: #5b6577; }
.hash { font-size: 7pt; color: #5b6577; }
.note { font-size: 8.5pt; color: #5b6577; }
.footer { font-size: 8pt; color: #5b6577; margin-top: 14px; }
)CSS";

struct Tone {
    const char* edge;
    const char* background;
};

// The verdict banner's colours by its class (reporthtml.cpp: verdict / inconclusive / nohang).
Tone verdictTone(const QString& cls)
{
    if (cls.contains(QLatin1String("nohang")))
        return { "#067647", "#ecfdf3" };
    if (cls.contains(QLatin1String("inconclusive")))
        return { "#b54708", "#fffaeb" };
    return { "#b42318", "#fef3f2" };
}

// A one-row table whose thin first cell is a coloured edge: QTextDocument draws borders
// only on tables, and only all the way round, so the HTML's border-left is drawn this way.
QString edgedBoxOpen(const char* edge, const char* background, int padding)
{
    return QStringLiteral("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"0\" "
                          "style=\"margin-top: 8px; margin-bottom: 8px;\"><tr>"
                          "<td width=\"5\" bgcolor=\"%1\"></td><td bgcolor=\"%2\" "
                          "style=\"padding: %3px;\">")
        .arg(QLatin1String(edge), QLatin1String(background))
        .arg(padding);
}

const QString kEdgedBoxClose = QStringLiteral("</td></tr></table>");

// Replaces every match of `pattern` with what `replace` makes of it.
template <class Fn> void rewrite(QString& html, const QRegularExpression& pattern, Fn replace)
{
    QString out;
    out.reserve(html.size() + html.size() / 8);
    qsizetype last = 0;
    auto it = pattern.globalMatch(html);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        out += QStringView(html).mid(last, m.capturedStart() - last);
        out += replace(m);
        last = m.capturedEnd();
    }
    out += QStringView(html).mid(last);
    html = std::move(out);
}

void replaceAll(QString& html, const QString& pattern, const QString& with)
{
    html.replace(QRegularExpression(pattern), with);
}

} // namespace

QSize richTextFigureSize(const QSize& pixels)
{
    if (pixels.isEmpty())
        return QSize(kRichTextFigureWidth, kRichTextFigureWidth / 2);
    return pixels.scaled(
        QSize(kRichTextFigureWidth, kRichTextFigureMaxHeight), Qt::KeepAspectRatio);
}

QString richTextReportHtml(const ReportData& data, const std::vector<ReportFigure>& figures)
{
    // Figures without their bytes: the images become resources, not data URIs. Their size
    // is read from the PNG header first.
    std::vector<QSize> sizes;
    std::vector<ReportFigure> named = figures;
    for (ReportFigure& f : named) {
        QByteArray bytes
            = QByteArray::fromRawData(f.pngBytes.data(), static_cast<qsizetype>(f.pngBytes.size()));
        QBuffer buffer(&bytes);
        sizes.push_back(richTextFigureSize(QImageReader(&buffer, "PNG").size()));
        f.pngBytes.clear();
    }
    QString html = QString::fromStdString(htmlReport(data, named));

    replaceAll(html, QStringLiteral("<style>[\\s\\S]*?</style>"), {});
    // Both sides given: QTextDocument keeps the aspect ratio of an image with one side only
    // on screen, but a printer or PDF stretched it to the image's own pixel height (a heatmap
    // blown up over two pages).
    std::size_t figure = 0;
    rewrite(html, QRegularExpression(QStringLiteral("<img src=\"data:image/png;base64,\"")),
        [&figure, &sizes](const QRegularExpressionMatch&) -> QString {
            const QSize size = figure < sizes.size() ? sizes[figure] : richTextFigureSize({});
            return QStringLiteral("<img width=\"%1\" height=\"%2\" src=\"rankscope-figure:%3\"")
                .arg(size.width())
                .arg(size.height())
                .arg(figure++);
        });

    // Masthead: brand left, date and version right, on the dark band.
    rewrite(html,
        QRegularExpression(QStringLiteral(
            "<header class=\"masthead\">(<span class=\"brand\">[\\s\\S]*?</span>)([\\s\\S]*?)"
            "</header>")),
        [](const QRegularExpressionMatch& m) -> QString {
            return QStringLiteral("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"8\" "
                                  "bgcolor=\"#14213d\"><tr><td>")
                + m.captured(1) + QStringLiteral("</td><td align=\"right\">") + m.captured(2)
                + QStringLiteral("</td></tr></table>");
        });

    // Verdict banner.
    rewrite(html,
        QRegularExpression(QStringLiteral(
            "<section class=\"(verdict[^\"]*)\" id=\"verdict\">([\\s\\S]*?)</section>")),
        [](const QRegularExpressionMatch& m) -> QString {
            const Tone tone = verdictTone(m.captured(1));
            QString body = m.captured(2);
            body.replace(QStringLiteral("<span class=\"status\">"),
                QStringLiteral("<span class=\"status\" style=\"background-color: %1;\">&nbsp;")
                    .arg(QLatin1String(tone.edge)));
            return edgedBoxOpen(tone.edge, tone.background, 12) + body + kEdgedBoxClose;
        });
    // The status pill's closing padding, the confidence meter as text (no inline boxes).
    replaceAll(html, QStringLiteral("(<span class=\"status\"[^>]*>[^<]*)</span>"),
        QStringLiteral("\\1&nbsp;</span>"));
    rewrite(html,
        QRegularExpression(
            QStringLiteral("<span class=\"meter\"><span style=\"width:(\\d+)%\"></span></span>")),
        [](const QRegularExpressionMatch& m) -> QString {
            const int filled
                = std::clamp(static_cast<int>(std::lround(m.captured(1).toDouble() / 10.0)), 0, 10);
            return QStringLiteral("&nbsp;&nbsp;<span class=\"meterbar\">")
                + QString(filled, QChar(0x2588))
                + QStringLiteral("</span><span class=\"meterrest\">")
                + QString(10 - filled, QChar(0x2588)) + QStringLiteral("</span>&nbsp;&nbsp;");
        });
    replaceAll(html, QStringLiteral("<div class=\"confidence\">"),
        QStringLiteral("<p class=\"confidence\">"));
    replaceAll(html, QStringLiteral("(<p class=\"confidence\">[\\s\\S]*?)</div>"),
        QStringLiteral("\\1</p>"));

    // Facts: a two-column table.
    replaceAll(html, QStringLiteral("<dl class=\"facts\">"),
        QStringLiteral("<table cellspacing=\"0\" cellpadding=\"2\" style=\"margin-top: 8px;\">"));
    replaceAll(html, QStringLiteral("<dt>"), QStringLiteral("<tr><td class=\"fact\">"));
    replaceAll(html, QStringLiteral("</dt>"), QStringLiteral("</td>"));
    replaceAll(html, QStringLiteral("<dd>"), QStringLiteral("<td>"));
    replaceAll(html, QStringLiteral("</dd>"), QStringLiteral("</td></tr>"));
    replaceAll(html, QStringLiteral("</dl>"), QStringLiteral("</table>"));

    // Finding cards: an edged box, red for the verdict's own finding.
    rewrite(html,
        QRegularExpression(
            QStringLiteral("<article class=\"card( primary)?\">([\\s\\S]*?)</article>")),
        [](const QRegularExpressionMatch& m) -> QString {
            const bool primary = !m.captured(1).isEmpty();
            return edgedBoxOpen(primary ? "#b42318" : "#c5ccd8", "#fbfcfd", 8) + m.captured(2)
                + kEdgedBoxClose;
        });

    // Checklist boxes as characters (no ::before in the subset).
    rewrite(html, QRegularExpression(QStringLiteral("<ul class=\"checklist\">([\\s\\S]*?)</ul>")),
        [](const QRegularExpressionMatch& m) -> QString {
            QString items = m.captured(1);
            items.replace(QStringLiteral("<li>"), QStringLiteral("<li>\u2610&nbsp;"));
            return QStringLiteral("<ul class=\"checklist\">") + items + QStringLiteral("</ul>");
        });

    // Commands and evidence in a padded box: a block's own padding is not in the subset.
    rewrite(html,
        QRegularExpression(QStringLiteral("<pre class=\"(commands|evidence)\">([\\s\\S]*?)</pre>")),
        [](const QRegularExpressionMatch& m) -> QString {
            const bool commands = m.captured(1) == QLatin1String("commands");
            return QStringLiteral("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"5\" "
                                  "bgcolor=\"%1\" style=\"margin-top: 3px; margin-bottom: 3px;\">"
                                  "<tr><td><pre class=\"%2\">")
                       .arg(QLatin1String(commands ? "#101828" : "#f6f7f9"), m.captured(1))
                + m.captured(2) + QStringLiteral("</pre></td></tr></table>");
        });

    // Data tables fill the width, with room in the cells.
    replaceAll(html, QStringLiteral("<div class=\"tablewrap\"><table>"),
        QStringLiteral("<div><table class=\"data\" width=\"100%\" cellspacing=\"0\" "
                       "cellpadding=\"4\">"));

    // Figures: the image, then its caption, in one table so a page break keeps them together.
    replaceAll(html,
        QStringLiteral("<figure>(<img[^>]*>)<figcaption>([\\s\\S]*?)</figcaption></figure>"),
        QStringLiteral("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"0\"><tr><td>"
                       "<p align=\"center\">\\1</p><p class=\"caption\">\\2</p>"
                       "</td></tr></table>"));

    // HTML5 sectioning tags are unknown to QTextDocument: plain divs.
    replaceAll(html, QStringLiteral("<(section|main)\\b[^>]*>"), QStringLiteral("<div>"));
    replaceAll(html, QStringLiteral("</(section|main)>"), QStringLiteral("</div>"));
    replaceAll(html, QStringLiteral("<footer>"), QStringLiteral("<hr/><div class=\"footer\">"));
    replaceAll(html, QStringLiteral("</footer>"), QStringLiteral("</div>"));
    return html;
}

QTextDocument* reportTextDocument(
    const ReportData& data, const std::vector<ReportFigure>& figures, QObject* parent)
{
    auto* doc = new QTextDocument(parent);
    doc->setDefaultStyleSheet(QString::fromUtf8(kRichTextStyle));
    for (std::size_t i = 0; i < figures.size(); ++i) {
        const std::string& png = figures[i].pngBytes;
        const QImage image = QImage::fromData(
            reinterpret_cast<const uchar*>(png.data()), static_cast<int>(png.size()), "PNG");
        doc->addResource(QTextDocument::ImageResource,
            QUrl(QStringLiteral("rankscope-figure:%1").arg(i)), image);
    }
    doc->setHtml(richTextReportHtml(data, figures));
    return doc;
}

} // namespace rankscope::app
