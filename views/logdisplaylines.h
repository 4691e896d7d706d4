#pragma once
// What the log viewer shows, copies and lists for a line of a source: its bytes with secrets
// masked by the same SecretMasker the scanner ran when the bundle was loaded (the viewer
// reads the file again, so the raw bytes hold the secrets the model never kept), tabs
// expanded, \r and control bytes as one visible cell each, cut after kMaxLineChars.
//
// A private key spans lines, so the masker is primed with the kMaxPrivateKeyLines lines
// before the first line asked for (secretmasker.h: masking a window out of order) and then
// fed the following lines in file order.

#include "model/secretmasker.h"

#include <QString>

#include <cstdint>
#include <string>
#include <string_view>

namespace rankscope::views {

class LogDisplayLines {
public:
    // Characters of a line that are laid out; the rest is marked as cut.
    static constexpr int kMaxLineChars = 4000;

    // `firstLineStart` is the byte offset of the first line that will be asked for.
    LogDisplayLines(std::string_view bytes, std::uint64_t firstLineStart);

    // The masked bytes of the line starting at `lineStart` (no \n, no trailing \r); valid
    // until the next call. Lines must be asked for in file order; skipping lines is fine
    // for every secret but a private key's body.
    std::string_view maskedLine(std::uint64_t lineStart);
    // The line as painted: masked, then made displayable (tabs, control bytes, cut).
    QString displayLine(std::uint64_t lineStart, bool* cut = nullptr);

    // One line on its own (the lines before it primed): a search hit, a tooltip.
    static QString displayLineAt(std::string_view bytes, std::uint64_t lineStart);

private:
    std::string_view m_bytes;
    std::uint64_t m_fedUpTo = 0; // lines starting before this have gone through the masker
    model::SecretMasker m_masker;
    std::string m_masked;
};

// Tabs to spaces (8 columns), \r to ↵ (a \r-glued tqdm segment starts there), other control
// bytes to ·; text beyond kMaxLineChars is dropped and *cut set.
QString logDisplayText(std::string_view line, bool* cut = nullptr);

} // namespace rankscope::views
