#pragma once
// `rankscope --export FILE [--format F] [--anonymize] PATH...`: load, diagnose, draw the
// figures offscreen, write the report and return the exit status, without a window (for
// scripts and CI). main() selects the offscreen platform before QApplication exists.
//
// Exit status: 0 written; 2 usage (no input, unknown format); 1 the bundle could not be
// loaded or diagnosed, or the report could not be written. Errors are one line on stderr.

#include <QString>
#include <QStringList>

namespace rankscope::app {

struct HeadlessExportRequest {
    QString output;
    QString format; // empty: from the output's extension
    bool anonymize = false;
    bool appendix = false; // the full rank and input tables at the end
    QStringList paths;
};

inline constexpr int kExportOk = 0;
inline constexpr int kExportFailed = 1;
inline constexpr int kExportUsage = 2;

int runHeadlessExport(const HeadlessExportRequest& request);

} // namespace rankscope::app
