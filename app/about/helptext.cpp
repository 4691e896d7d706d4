#include "app/about/helptext.h"

#include <algorithm>

namespace rankscope::about {

namespace {

constexpr std::size_t kWidth = 96;

std::string titleCase(std::string_view title)
{
    std::string out(title);
    for (std::size_t i = 1; i < out.size(); ++i)
        if (out[i] >= 'A' && out[i] <= 'Z')
            out[i] = static_cast<char>(out[i] - 'A' + 'a');
    return out;
}

} // namespace

std::string fillText(std::string_view text, std::size_t width, std::size_t indent)
{
    const std::string pad(indent, ' ');
    std::string out;
    bool firstParagraph = true;
    for (const Paragraph& paragraph : paragraphsOf(text)) {
        if (!firstParagraph)
            out += "\n\n" + pad;
        firstParagraph = false;
        if (paragraph.literal) {
            for (char c : paragraph.text) {
                out += c;
                if (c == '\n')
                    out += pad;
            }
            continue;
        }
        std::size_t column = indent;
        bool firstWord = true;
        std::string_view rest = paragraph.text;
        while (!rest.empty()) {
            const std::size_t start = rest.find_first_not_of(" \n");
            if (start == std::string_view::npos)
                break;
            rest.remove_prefix(start);
            const std::size_t end = std::min(rest.find_first_of(" \n"), rest.size());
            const std::string_view word = rest.substr(0, end);
            rest.remove_prefix(end);
            if (!firstWord && column + 1 + word.size() > width) {
                out += '\n' + pad;
                column = indent;
            } else if (!firstWord) {
                out += ' ';
                ++column;
            }
            out += word;
            column += word.size();
            firstWord = false;
        }
    }
    return out;
}

std::string helpSectionsText(const ProgramSpec& program)
{
    std::string out;
    for (const SectionSpec& section : program.sections) {
        if (!section.inHelp)
            continue;
        if (!out.empty())
            out += "\n\n";
        out += titleCase(section.title) + ":\n  " + fillText(section.text, kWidth, 2);
    }
    return out;
}

std::string cliHelpText(const ProgramSpec& program)
{
    std::string out = std::string(program.name) + ": " + std::string(program.oneLine) + "\n\n";
    out += "Usage:\n";
    for (const std::string& form : synopsisLines(program))
        out += "  " + std::string(program.name) + ' ' + form + '\n';

    out += "\nCommands:\n";
    std::size_t nameWidth = 0;
    for (const CommandSpec& command : program.commands)
        nameWidth = std::max(nameWidth, command.name.size());
    for (const CommandSpec& command : program.commands) {
        std::string line = "  " + std::string(command.name);
        line.resize(2 + nameWidth + 2, ' ');
        out += line + fillText(command.summary, kWidth, line.size()) + '\n';
    }

    out += "\nOptions:\n";
    std::size_t labelWidth = 0;
    for (const OptionSpec& option : program.options)
        labelWidth = std::max(labelWidth, optionLabel(program, option).size());
    for (const OptionSpec& option : program.options) {
        std::string line = "  " + optionLabel(program, option);
        line.resize(2 + labelWidth + 3, ' ');
        out += line + fillText(optionText(option), kWidth, line.size()) + '\n';
    }
    const std::string sections = helpSectionsText(program);
    if (!sections.empty())
        out += '\n' + sections + '\n';
    return out;
}

} // namespace rankscope::about
