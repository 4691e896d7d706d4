#pragma once
// The logs pasted into the open bundle (Edit → Paste Log, the welcome page's paste area,
// text dropped from another application), each under a name of its own: "pasted-1.log",
// or "rank5-pasted.log" when the user says which rank it is, so the loader reads the rank
// from the name as it does for files.

#include "parsers/inputplan.h"

#include <QString>

#include <optional>
#include <vector>

namespace rankscope::app {

class PastedLogs {
public:
    // Adds `text` and returns the name it is read under; nullopt for text with nothing but
    // white space in it.
    std::optional<QString> add(const QString& text, std::optional<int> rank = std::nullopt);
    void clear() { m_logs.clear(); }
    bool empty() const { return m_logs.empty(); }
    const std::vector<parsers::PastedText>& list() const { return m_logs; }
    QStringList names() const;

private:
    bool taken(const QString& name) const;

    std::vector<parsers::PastedText> m_logs;
};

} // namespace rankscope::app
