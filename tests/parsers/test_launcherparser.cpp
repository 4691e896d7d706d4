// STUB: tests for parsers/launcherparser to be written with the parser.
#include "scanhelpers.h"

#include <catch2/catch.hpp>
