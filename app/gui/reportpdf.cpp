#include "app/gui/reportpdf.h"

#include "app/about/version.h"
#include "app/gui/reporttextdocument.h"

#include <QAbstractTextDocumentLayout>
#include <QFontMetrics>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>

#include <algorithm>
#include <memory>

namespace rankscope::app {

namespace {

// QTextDocument splits a table wherever the page ends and can leave a heading alone at the
// bottom of a page; its CSS has no break-inside or break-after: avoid. So after paginating,
// the first small table (verdict, finding card, figure) that crosses a page boundary, or
// section heading whose next block is on the next page, gets a page break before it, and the
// document is laid out again, until nothing moves. Tables of half a page or more may split, as in
// print.
void keepBlocksTogether(QTextDocument& doc, const std::function<void(int pass)>& onPass)
{
    const qreal pageHeight = doc.pageSize().height();
    QAbstractTextDocumentLayout* layout = doc.documentLayout();
    // The page a y position falls on; a frame pushed to the next page starts a hair above
    // its top (layout rounding), so one pixel of slack.
    const auto pageOf = [pageHeight](qreal y) { return static_cast<int>((y + 1.0) / pageHeight); };
    // Each pass moves one block; the bound only guards against two rules undoing each other.
    constexpr int kMaxPasses = 500;
    for (int pass = 0; pass < kMaxPasses; ++pass) {
        onPass(pass);
        bool moved = false;
        const QList<QTextFrame*> frames = doc.rootFrame()->childFrames();
        for (QTextFrame* frame : frames) {
            auto* table = qobject_cast<QTextTable*>(frame);
            if (!table)
                continue;
            const QRectF r = layout->frameBoundingRect(table);
            QTextTableFormat format = table->format();
            if (r.height() >= pageHeight / 2 || pageOf(r.top()) == pageOf(r.bottom() - 2)
                || (format.pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore))
                continue;
            format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
            table->setFormat(format);
            moved = true;
            break;
        }
        for (QTextBlock b = doc.begin(); !moved && b.isValid(); b = b.next()) {
            QTextBlockFormat format = b.blockFormat();
            if (format.headingLevel() != 2 || !b.next().isValid()
                || (format.pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore))
                continue;
            // What follows the heading (a block, or the first block of a table) starts on a
            // later page: the heading goes with it.
            // (A block in a table reports its place inside the table; the table's own frame
            // says where it starts on the page.)
            QTextFrame* next = QTextCursor(b.next()).currentFrame();
            const qreal nextTop = next != doc.rootFrame()
                ? layout->frameBoundingRect(next).top()
                : layout->blockBoundingRect(b.next()).top();
            if (pageOf(layout->blockBoundingRect(b).top()) == pageOf(nextTop))
                continue;
            format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
            QTextCursor(b).setBlockFormat(format);
            // The heading now takes what follows with it; a break the table got in an
            // earlier pass would leave the heading alone on its page.
            if (next != doc.rootFrame()) {
                QTextFrameFormat nextFormat = next->frameFormat();
                nextFormat.setPageBreakPolicy(QTextFormat::PageBreak_Auto);
                next->setFrameFormat(nextFormat);
            }
            moved = true;
        }
        if (!moved)
            return;
    }
}

// Lays A4 out at 96 dpi like a screen (the stylesheet's sizes are for that); the last 8 mm
// of each page hold the footer.
constexpr qreal kLayoutDpi = 96.0;
constexpr qreal kFooterMm = 8.0;
const QMarginsF kMarginsMm(14, 14, 14, 10);

} // namespace

QSizeF reportPdfPageSize()
{
    const QPageLayout layout(
        QPageSize(QPageSize::A4), QPageLayout::Portrait, kMarginsMm, QPageLayout::Millimeter);
    const QRectF mm = layout.paintRect(QPageLayout::Millimeter);
    return QSizeF(mm.width(), mm.height() - kFooterMm) * (kLayoutDpi / 25.4);
}

model::Result<int> writeReportPdf(const ReportData& data, const std::vector<ReportFigure>& figures,
    const QString& path, const ReportProgress& progress)
{
    // Throttled: only a change of the whole percentage is reported.
    int reported = -1;
    const auto report = [&](int percent) {
        percent = std::clamp(percent, 0, 100);
        if (progress && percent != reported)
            progress(percent);
        reported = percent;
    };
    report(0);
    std::unique_ptr<QTextDocument> doc(reportTextDocument(data, figures));
    report(10);
    // Written beside the target and renamed at the end: a failed export leaves no half PDF.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return model::Error { "cannot write " + path.toStdString() + ": "
            + file.errorString().toStdString() };
    QPdfWriter writer(&file);
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(kMarginsMm, QPageLayout::Millimeter);
    writer.setTitle(QStringLiteral("Rankscope report: %1 — %2")
                        .arg(QString::fromStdString(data.headline),
                            QString::fromStdString(data.rootCauseLabel)));
    writer.setCreator(
        QStringLiteral("Rankscope ") + QString::fromStdString(std::string(about::version())));
    QPainter painter;
    if (!painter.begin(&writer))
        return model::Error { "cannot write " + path.toStdString() };

    // Laid out at 96 dpi and scaled to the writer's resolution when drawing.
    const qreal scale = writer.resolution() / kLayoutDpi;
    const qreal footer = kFooterMm / 25.4 * writer.resolution();
    const QSizeF page(writer.width() / scale, (writer.height() - footer) / scale);
    doc->setDocumentMargin(0);
    doc->setPageSize(page); // paginates: lines and table rows move to the next page whole
    // Each pass moves one block; a compact report needs a handful, so 40 % is reached
    // after 30 passes and the rest of the passes (if any) hold it there.
    keepBlocksTogether(*doc, [&](int pass) { report(10 + std::min(pass, 30)); });
    report(40);
    const int pages = doc->pageCount();

    QFont footerFont = doc->defaultFont();
    footerFont.setPointSizeF(7.5);
    const QString title = QString::fromStdString(data.headline + " — " + data.rootCauseLabel);
    for (int i = 0; i < pages; ++i) {
        if (i > 0)
            writer.newPage();
        painter.save();
        painter.scale(scale, scale);
        painter.translate(0, -i * page.height());
        doc->drawContents(&painter, QRectF(QPointF(0, i * page.height()), page));
        painter.restore();

        painter.save();
        painter.setFont(footerFont);
        painter.setPen(QColor(0x5b, 0x65, 0x77));
        const QRectF band(0, writer.height() - footer * 0.7, writer.width(), footer * 0.7);
        const QString left
            = QFontMetrics(footerFont, &writer)
                  .elidedText(QStringLiteral("Rankscope hang diagnosis report · ") + title,
                      Qt::ElideRight, static_cast<int>(band.width() * 0.8));
        painter.drawText(band, Qt::AlignLeft | Qt::AlignBottom, left);
        painter.drawText(band, Qt::AlignRight | Qt::AlignBottom,
            QStringLiteral("page %1 of %2").arg(i + 1).arg(pages));
        painter.restore();
        report(40 + 59 * (i + 1) / std::max(1, pages));
    }
    if (!painter.end() || !file.commit())
        return model::Error { "cannot write " + path.toStdString() + ": "
            + file.errorString().toStdString() };
    report(100);
    return pages;
}

} // namespace rankscope::app
