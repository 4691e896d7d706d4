#pragma once
// The byte searches of model/bytescan.h, named in the parsers' namespace.

#include "model/bytescan.h"

namespace rankscope::parsers {

using model::bytesEqual;
using model::bytesEqualShort;
using model::findByte;
using model::findBytePair;
using model::findEitherByte;
using model::sameText;

} // namespace rankscope::parsers
