#pragma once
// The recently opened bundles, most recent first, kept in QSettings. A bundle is the list
// of paths opened together (one folder, one archive, or several files).

#include <QList>
#include <QStringList>

namespace rankscope::app {

class RecentBundles {
public:
    static constexpr int kMaxEntries = 10;

    static QList<QStringList> load();
    static void add(const QStringList& paths);
    static void clear();
    // "hung-allreduce", "run.tgz", "3 files in logs" — how menus name an entry.
    static QString displayName(const QStringList& paths);
};

} // namespace rankscope::app
