// STUB: tests for parsers/errorfileparser to be written with the parser.
#include "parsers/errorfileparser.h"

#include <catch2/catch.hpp>
