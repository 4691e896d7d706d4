#pragma once
// The document the figures of an anonymised report are drawn from. The views paint host
// names (timeline host rows, heatmap host axis) and other text straight from the bundle's
// string pool, and a name in a picture leaks as surely as one in the text. So the figures
// are drawn from a copy of the bundle whose every pooled string went through the same
// Anonymizer the report text uses: hosts and addresses get the same pseudonyms (they are
// numbered from the bundle alone), and every StrId still means the same thing, so the
// diagnosis, timeline and pair data are shared with the original unchanged.
//
// Qt-free and thread-safe (it reads an immutable document); the dialog runs it on a worker.

#include "views/bundledocument.h"

namespace rankscope::app {

views::DocumentPtr anonymizedDocument(const views::DocumentPtr& document);

} // namespace rankscope::app
