#include "views/logdisplaylines.h"

#include "views/lineindex.h"

namespace rankscope::views {

namespace {

constexpr int kTabWidth = 8;

} // namespace

LogDisplayLines::LogDisplayLines(std::string_view bytes, std::uint64_t firstLineStart)
    : m_bytes(bytes)
{
    firstLineStart = std::min<std::uint64_t>(firstLineStart, bytes.size());
    std::uint64_t start = firstLineStart;
    for (std::size_t i = 0; i < model::SecretMasker::kMaxPrivateKeyLines && start > 0; ++i)
        start = LineIndex::previousLineStart(bytes, start);
    // Only the masker's state matters here; the output of the priming lines is dropped.
    while (start < firstLineStart) {
        m_masker.mask(LineIndex::lineText(bytes, start), m_masked);
        start = LineIndex::nextLineStart(bytes, start);
    }
    m_fedUpTo = firstLineStart;
}

std::string_view LogDisplayLines::maskedLine(std::uint64_t lineStart)
{
    const std::string_view raw = LineIndex::lineText(m_bytes, lineStart);
    if (lineStart < m_fedUpTo) {
        // Asked out of order: a fresh masker for this line alone.
        m_masked = model::maskSecrets(raw);
        return m_masked;
    }
    m_fedUpTo = LineIndex::nextLineStart(m_bytes, lineStart);
    if (m_masker.mask(raw, m_masked))
        return m_masked;
    return raw;
}

QString LogDisplayLines::displayLine(std::uint64_t lineStart, bool* cut)
{
    return logDisplayText(maskedLine(lineStart), cut);
}

QString LogDisplayLines::displayLineAt(std::string_view bytes, std::uint64_t lineStart)
{
    LogDisplayLines lines(bytes, lineStart);
    return lines.displayLine(lineStart);
}

QString logDisplayText(std::string_view raw, bool* cut)
{
    const bool isCut = raw.size() > static_cast<std::size_t>(LogDisplayLines::kMaxLineChars);
    if (cut)
        *cut = isCut;
    if (isCut)
        raw = raw.substr(0, LogDisplayLines::kMaxLineChars);
    const QString decoded = QString::fromUtf8(raw.data(), static_cast<qsizetype>(raw.size()));
    QString out;
    out.reserve(decoded.size());
    for (const QChar c : decoded) {
        if (c == QLatin1Char('\t')) {
            const qsizetype pad = kTabWidth - out.size() % kTabWidth;
            out.append(QString(pad, QLatin1Char(' ')));
        } else if (c == QLatin1Char('\r')) {
            out.append(QChar(0x21B5));
        } else if (c.unicode() < 0x20 || c.unicode() == 0x7f) {
            out.append(QChar(0x00B7));
        } else {
            out.append(c);
        }
    }
    return out;
}

} // namespace rankscope::views
