#include "app/gui/pastedlogs.h"

#include <QStringList>

#include <algorithm>
#include <memory>

namespace rankscope::app {

bool PastedLogs::taken(const QString& name) const
{
    const std::string n = name.toStdString();
    return std::any_of(m_logs.begin(), m_logs.end(), [&](const parsers::PastedText& p) { return p.name == n; });
}

std::optional<QString> PastedLogs::add(const QString& text, std::optional<int> rank)
{
    if (text.trimmed().isEmpty())
        return std::nullopt;
    // The first free name of the form; a second paste for one rank gets "-2", "-3", ...
    const QString stem = rank ? QStringLiteral("rank%1-pasted").arg(*rank) : QStringLiteral("pasted");
    QString name;
    for (int n = 1;; ++n) {
        name = rank ? (n == 1 ? stem : QStringLiteral("%1-%2").arg(stem).arg(n)) + QStringLiteral(".log")
                    : QStringLiteral("%1-%2.log").arg(stem).arg(n);
        if (!taken(name))
            break;
    }
    m_logs.push_back({ name.toStdString(), std::make_shared<const std::string>(text.toStdString()) });
    return name;
}

QStringList PastedLogs::names() const
{
    QStringList out;
    for (const auto& p : m_logs)
        out << QString::fromStdString(p.name);
    return out;
}

} // namespace rankscope::app
