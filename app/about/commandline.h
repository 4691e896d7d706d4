#pragma once
// The command lines of rankscope-cli and rankscope, declared once. Every description of them
// loops over these tables: rankscope-cli's --help (helptext.h), the desktop app's
// QCommandLineParser options, the manual pages (manpage.h) and the bash completion
// (bashcompletion.h), so none of them can say something the others do not. rankscope-cli's
// parser checks its commands and formats against the table, and a test runs every option of
// the table through the parser.
//
// Text fields are plain text. A blank line separates paragraphs; a paragraph whose lines
// all start with two spaces is an example shown as it is (roff .nf).

#include <string>
#include <string_view>
#include <vector>

namespace rankscope::about {

// What the shell offers for an option's value or a positional argument.
enum class Completion {
    Nothing, // a number or a size: nothing to offer
    Choices, // OptionSpec::choices, or the command's formats for --format
    File,
    Path, // a file, a folder or an archive
};

// Where an option may stand in a program with commands.
enum class OptionPlace {
    AfterCommand, // rankscope-cli diagnose logs --format json
    BeforeCommand, // rankscope-cli --version
    Anywhere, // --help
};

struct OptionSpec {
    std::string_view longName {}; // "--format"
    std::string_view shortName {}; // "-f", or empty
    std::string_view valueName {}; // "FORMAT"; empty for a flag
    Completion completion = Completion::Nothing;
    std::vector<std::string_view> choices {}; // the values --help shows and the shell offers
    std::string_view defaultValue {}; // empty when none
    std::string_view description {}; // one sentence, shown in --help and the manual
    OptionPlace place = OptionPlace::AfterCommand; // ignored without commands
    std::string_view command {}; // the one command it belongs to; empty: every command
};

struct CommandSpec {
    std::string_view name; // "diagnose"
    std::string_view arguments; // what follows the name in the synopsis: "PATH... -o FILE"
    std::vector<std::string_view> formats; // what --format accepts; the first is the default
    std::string_view summary; // one line for --help
    std::string_view description; // the manual's paragraph(s)
};

struct PositionalSpec {
    std::string_view name; // "bundle": the name QCommandLineParser knows it by
    std::string_view syntax; // "[BUNDLE...]"
    std::string_view description;
};

// A section after OPTIONS in the manual ("EXIT STATUS"); inHelp also puts it in --help.
struct SectionSpec {
    std::string_view title;
    std::string_view text;
    bool inHelp = false;
};

struct ProgramSpec {
    std::string_view name; // "rankscope-cli"
    std::string_view oneLine; // the manual's NAME line and the first line of --help
    // Forms of the command line besides one per command, each what follows the name.
    std::vector<std::string_view> synopsis;
    std::string_view description; // the manual's DESCRIPTION
    std::vector<CommandSpec> commands; // empty for a program without commands
    std::vector<PositionalSpec> positionals;
    std::vector<OptionSpec> options;
    std::vector<SectionSpec> sections;
    std::vector<std::string_view> seeAlso; // "rankscope(1)"
};

// One paragraph of a text field: literal paragraphs keep their lines (and their indent).
struct Paragraph {
    std::string_view text;
    bool literal = false;
};
std::vector<Paragraph> paragraphsOf(std::string_view text);

const ProgramSpec& cliProgram();
const ProgramSpec& appProgram();

// The command named `name` in `program`, or nullptr.
const CommandSpec* findCommand(const ProgramSpec& program, std::string_view name);
// The synopsis, each line what follows the program's name: one line per command (its
// arguments, its formats, "[options]"), then the program's other forms.
std::vector<std::string> synopsisLines(const ProgramSpec& program);
// The values --format takes for any command, in table order ("text|json|md|html").
std::vector<std::string_view> allFormats(const ProgramSpec& program);
// How an option reads in --help and the manual: "-o, --output FILE", "--format text|json|md".
std::string optionLabel(const ProgramSpec& program, const OptionSpec& option);
// An option's description with its default, when it has one.
std::string optionText(const OptionSpec& option);

} // namespace rankscope::about
