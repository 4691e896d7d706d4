// STUB: tests for parsers/pythonerrorparser to be written with the parser.
#include "scanhelpers.h"

#include <catch2/catch.hpp>
