#pragma once
// Whether a log line has an entry in the error catalogue ("What does this line mean?").
// The views only ask; the app answers from the catalogue, which views never read.

#include <QString>

#include <functional>

namespace rankscope::views {

using LineExplainer = std::function<bool(const QString& line)>;

} // namespace rankscope::views
