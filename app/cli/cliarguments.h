#pragma once
// Command-line parsing for rankscope-cli, kept apart from main() so it can be tested.

#include "parsers/inputplan.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rankscope::app {

struct CliArguments {
    std::string command; // summary | diagnose | report | explain | help | version
    std::vector<std::string> paths; // explain: the words of TEXT
    std::string format; // text | json | md | html (empty = default for the command)
    std::string output; // -o FILE; empty = stdout
    unsigned threads = 0;
    bool anonymize = false;
    bool appendix = false; // report --appendix
    bool list = false; // explain --list
    std::optional<std::int32_t> rank; // why --rank N
    std::string collective;           // why --collective PG:SEQ
    std::string pair;                 // why --pair A,B
    parsers::LoadLimits limits;
};

struct CliParseResult {
    std::optional<CliArguments> arguments;
    std::string error; // one line when arguments is empty
};

// Commands and their formats are checked against about::cliProgram(), the table --help
// and the manual page are made from.
CliParseResult parseCliArguments(const std::vector<std::string>& args);

} // namespace rankscope::app
