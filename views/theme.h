#pragma once
// Semantic colours shared by every view, so "initiating", "collateral", "stuck", "error",
// "warning" and "ok" mean the same colour in the root-cause panel, the ranks table, the
// charts, the timeline and the heatmap. Derived from the application palette, so light and
// dark themes both stay readable. Small and stable on purpose: other views read it.

#include "model/diagnosis/diagnosis.h"

#include <QColor>
#include <QPalette>
#include <QString>

namespace rankscope::views::theme {

struct SemanticColors {
    QColor initiating; // the rank(s) or pair that caused the hang (red)
    QColor collateral; // ranks that only waited / timed out because of it
    QColor stuck; // inside the stuck collective and unable to finish it
    QColor error; // error markers, crashes
    QColor warning;
    QColor ok; // completed / healthy
    QColor neutral; // unknown, no information
};

// True when the palette's window colour is dark (dark theme).
bool isDark(const QPalette& palette);

// Foreground colours for marks, bars, badges and text accents.
SemanticColors colors(const QPalette& palette);

// A background tint of `accent` that keeps the palette's text colour readable on top
// (row backgrounds, label backgrounds).
QColor tint(const QColor& accent, const QPalette& palette);

// The colour of a rank's state in the diagnosis (RankVerdict::state).
QColor rankStateColor(model::RankState state, const QPalette& palette);

// Text colour readable on a filled badge of colour `fill`.
QColor textOn(const QColor& fill);

// "Hang diagnosed", "Inconclusive", "No hang found" and the badge colour of each.
QString statusLabel(model::DiagnosisStatus status);
QColor statusColor(model::DiagnosisStatus status, const QPalette& palette);
// "straggler stall" for RootCauseClass::StragglerStall.
QString rootCauseLabel(model::RootCauseClass cls);

// A rank state in plain words ("never entered", "timed out waiting", ...).
QString rankStateLabel(model::RankState state);
// What the verdict calls an initiating rank in `state` ("one end of the failed link").
QString initiatorLabel(model::RootCauseClass cls, model::RankState state);
// What a legend calls the rank(s) the verdict names ("initiating rank", "ends of the failed
// link").
QString initiatorsLabel(model::RootCauseClass cls);
// One of them, in a label or tooltip about that rank ("initiating rank", "one end of the
// failed link").
QString initiatorRoleLabel(model::RootCauseClass cls);
// Their hosts, in a legend ("initiating host", "hosts of the failed link").
QString initiatorHostsLabel(model::RootCauseClass cls);

} // namespace rankscope::views::theme
