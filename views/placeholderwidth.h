#pragma once
// Filter and search fields at least as wide as their placeholder: a layout that squeezes a
// field cuts its hint to "Filter: ranks (0-3…", and the hint is the only place that says
// what the field takes. The width comes from the field's font metrics (so it follows the
// text size setting), its frame, margins and clear button, and is recomputed when the font,
// style or placeholder changes.

class QLineEdit;

namespace rankscope::views {

// The narrowest width at which `edit` shows its whole placeholder.
int placeholderWidth(const QLineEdit* edit);
// Keeps `edit`'s minimum width at placeholderWidth() from now on.
void keepPlaceholderVisible(QLineEdit* edit);

} // namespace rankscope::views
