// The shared Catch2 main for the Qt-free test executables.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
