// STUB: tests for parsers/gputelemetryparser to be written with the parser.
#include "scanhelpers.h"

#include <catch2/catch.hpp>
