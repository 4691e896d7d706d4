#include "app/gui/recentbundles.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace rankscope::app {

namespace {
const QString kKey = QStringLiteral("recentBundles");
// Paths of one entry are joined with a newline: it cannot appear in a path a user picks
// in a file dialog, and it keeps the settings file human-readable.
const QChar kSeparator = QLatin1Char('\n');
} // namespace

QList<QStringList> RecentBundles::load()
{
    QList<QStringList> out;
    const QStringList stored = QSettings().value(kKey).toStringList();
    for (const QString& entry : stored) {
        const QStringList paths = entry.split(kSeparator, Qt::SkipEmptyParts);
        if (!paths.isEmpty())
            out.append(paths);
    }
    return out;
}

void RecentBundles::add(const QStringList& paths)
{
    if (paths.isEmpty())
        return;
    QStringList absolute;
    for (const QString& p : paths)
        absolute << QFileInfo(p).absoluteFilePath();
    const QString entry = absolute.join(kSeparator);
    QSettings settings;
    QStringList stored = settings.value(kKey).toStringList();
    stored.removeAll(entry);
    stored.prepend(entry);
    while (stored.size() > kMaxEntries)
        stored.removeLast();
    settings.setValue(kKey, stored);
}

void RecentBundles::clear()
{
    QSettings().remove(kKey);
}

QString RecentBundles::displayName(const QStringList& paths)
{
    if (paths.isEmpty())
        return {};
    if (paths.size() == 1) {
        const QFileInfo info(paths.front());
        return info.fileName().isEmpty() ? QDir::toNativeSeparators(paths.front())
                                         : info.fileName();
    }
    return QObject::tr("%1 files in %2")
        .arg(paths.size())
        .arg(QFileInfo(paths.front()).dir().dirName());
}

} // namespace rankscope::app
