#include "app/about/commandline.h"

#include <algorithm>

namespace rankscope::about {

namespace {

constexpr std::string_view kPathsText
    = "PATH is a log folder (read recursively), log files, archives (.tar, .tar.gz, .tgz, "
      ".tar.zst, .zip) or compressed logs (.gz, .zst), in any mix. Archives are read in memory "
      "and never extracted to disk. PyTorch Flight Recorder dumps (nccl_trace_rank_N, pickle or "
      "JSON) are read by a restricted reader that never executes anything.\n"
      "\n"
      "PATH - reads standard input (kubectl logs pod | rankscope-cli diagnose -), shown as "
      "stdin. A pipe, FIFO or terminal named as PATH (/dev/stdin, <(cmd)) is read "
      "the same way: once, to its end, with the limits of a file. One found inside a folder is "
      "never read.";

ProgramSpec makeCliProgram()
{
    ProgramSpec p;
    p.name = "rankscope-cli";
    p.oneLine = "diagnose hung multi-GPU training runs from their logs, without a display";
    p.synopsis = { "--help | --version" };
    p.description
        = "rankscope-cli reads the whole log bundle of a failed multi-GPU training run (every "
          "rank's stdout and stderr, NCCL_DEBUG output, PyTorch watchdog messages, torchrun "
          "failure tables, kernel Xid lines, py-spy dumps, Flight Recorder dumps) and names the "
          "rank or rank pair that initiated the hang, the ranks that only timed out waiting, "
          "and why, with the evidence lines, the fix and the command that verifies it. It "
          "works offline and needs no Qt and no display, so it runs on a cluster login node.\n"
          "\n"
          "Secrets (tokens, keys, passwords in URLs, *_TOKEN= environment dumps) are masked as "
          "lines are read, so no output ever holds them.";
    p.commands = {
        { "summary", "PATH...", { "text", "json" },
            "what Rankscope understood: sources, ranks, hosts, per-PG progress, import issues",
            "Print what Rankscope understood: the sources by kind, the world (size, ranks seen "
            "and missing, hosts), each rank's identity (host, local rank, pid, GPU bus id), "
            "the last enqueued and completed sequence number and the timeouts of every process "
            "group, and the import issues with samples. --format json writes the "
            "rankscope.summary/1 object." },
        { "diagnose", "PATH...", { "text", "json", "md", "sarif", "gnu" },
            "which rank or link initiated the hang, which ranks are collateral, and why",
            "Print the verdict (hang_diagnosed, no_hang_found or inconclusive), the initiating "
            "rank(s) or stuck pair, the collateral ranks, the root-cause class, and each "
            "finding with its rule id, confidence, evidence lines, fix and verification "
            "commands. --format json writes the rankscope.diagnosis/1 object.\n"
            "\n"
            "For editors: --format sarif writes SARIF 2.1.0 (one result per finding, located at "
            "every evidence line) for SARIF viewers and code-scanning tools; --format gnu writes "
            "one FILE:LINE: error|warning|note: MESSAGE line per evidence line (initiating "
            "evidence is an error, collateral a note) for problem matchers and Vim or Emacs "
            "quickfix lists." },
        { "report", "PATH... -o FILE", { "html", "md", "json" },
            "write a diagnosis report for teammates (HTML, Markdown or JSON; no figures)",
            "Write the diagnosis report as one self-contained HTML file, Markdown or JSON. The "
            "format comes from --format or else from the extension of FILE. The report has no "
            "figures; rankscope --export writes it with the timeline and the rank-pair "
            "heatmap." },
        { "why", "PATH... --rank N | --pair A,B | --collective PG:SEQ", { "text" },
            "follow-up questions: why (not) this rank or pair, who reached a collective",
            "Answer a follow-up question about the verdict from the bundle alone. --rank N: the "
            "rank's identity, its part in the verdict (initiating, collateral or neither) and "
            "the rule that decided it, its state in plain words, its last enqueued and "
            "completed sequence number on every process group, the findings that name it with "
            "their evidence, and its last recognised lines. --pair A,B: whether the verdict "
            "names the link between them, whether they share a host, each one's part and "
            "state, the rank-pair evidence between them by kind with its lines, and the "
            "findings that name both. --collective PG:SEQ (or SEQ on "
            "process group 0): which ranks completed it, entered it and timed out, never "
            "reached it, or left no line on the group." },
        { "explain", "TEXT... | --list", { "text", "json" },
            "what a log line means, from the built-in catalogue of NCCL, PyTorch, Xid and CUDA errors",
            "Look a log line up in the built-in error catalogue (NCCL result codes and WARN "
            "families, InfiniBand and socket errors, PyTorch c10d and torchrun messages, NVIDIA "
            "Xids, CUDA errors) and print what it means, what it does not mean, the root-cause "
            "classes it points to, and the settings and commands that tell them apart. TEXT is "
            "one or more lines (quote them; - reads them from standard input), an entry's id, or "
            "a few words to search for. --list prints every entry. Nothing is loaded and "
            "nothing leaves the machine. --format json writes the rankscope.explain/1 object." },
    };
    p.options = {
        { .longName = "--format",
            .shortName = "-f",
            .valueName = "FORMAT",
            .completion = Completion::Choices,
            .description = "output format (summary: text or json; diagnose: text, json, md, "
                           "sarif or gnu; report: html, md or json)" },
        { .longName = "--output",
            .shortName = "-o",
            .valueName = "FILE",
            .completion = Completion::File,
            .description
            = "write to FILE (replaced whole, never one of the inputs) instead of stdout" },
        { .longName = "--anonymize",
            .description = "replace host names, IP addresses, user names and job ids with "
                           "stable pseudonyms" },
        { .longName = "--appendix",
            .description = "append the full tables (every rank, every input's SHA-256) that a "
                           "compact report summarises",
            .command = "report" },
        { .longName = "--threads",
            .valueName = "N",
            .description = "parsing and matching threads (default: one per core)" },
        { .longName = "--max-entry-size",
            .valueName = "SIZE",
            .defaultValue = "32G",
            .description
            = "refuse archive members and files larger than SIZE, such as 512M or 64G" },
        { .longName = "--max-archive-size",
            .valueName = "SIZE",
            .defaultValue = "256G",
            .description = "refuse archives expanding past SIZE" },
        { .longName = "--max-ratio",
            .valueName = "N",
            .defaultValue = "1000",
            .description = "refuse archives compressing better than N:1" },
        { .longName = "--rank",
            .valueName = "N",
            .description = "the global rank to explain",
            .command = "why" },
        { .longName = "--pair",
            .valueName = "A,B",
            .description = "the two ranks to explain as a pair",
            .command = "why" },
        { .longName = "--collective",
            .valueName = "PG:SEQ",
            .description = "the collective (process group and sequence number) to explain",
            .command = "why" },
        { .longName = "--list",
            .description = "list every entry of the error catalogue",
            .command = "explain" },
        { .longName = "--help",
            .shortName = "-h",
            .description = "print this help and exit",
            .place = OptionPlace::Anywhere },
        { .longName = "--version",
            .description = "print the version (and the git commit it was built from) and exit",
            .place = OptionPlace::BeforeCommand },
        { .longName = "--", .description = "end of options: every argument after it is a PATH" },
    };
    p.sections = {
        { "PATHS", kPathsText, true },
        { "EXIT STATUS",
            "0 on success; 2 on usage errors and unreadable inputs, with a one-line reason on "
            "stderr. A bundle that reads but shows no hang is a success (verdict no_hang_found "
            "or inconclusive).",
            true },
        { "FILES",
            "/usr/share/rankscope/samples/hung-allreduce\n"
            "\n"
            "A sample bundle: 16 ranks on 2 nodes, one rank stalled in its DataLoader.",
            false },
        { "EXAMPLES",
            "Diagnose the sample bundle:\n"
            "\n"
            "  rankscope-cli diagnose /usr/share/rankscope/samples/hung-allreduce\n"
            "\n"
            "Write an anonymised HTML report of an archived bundle for a bug report:\n"
            "\n"
            "  rankscope-cli report job-1234.tar.zst -o report.html --anonymize\n"
            "\n"
            "Diagnose a log piped from another command, as error lines for an editor:\n"
            "\n"
            "  kubectl logs job/train | rankscope-cli diagnose - --format gnu\n"
            "\n"
            "What was read, as JSON for a script:\n"
            "\n"
            "  rankscope-cli summary logs/ --format json -o summary.json\n"
            "\n"
            "What a line means:\n"
            "\n"
            "  rankscope-cli explain 'NET/IB : Got completion from peer 10.0.0.2<5> with error 12'",
            false },
    };
    p.seeAlso = { "rankscope(1)" };
    return p;
}

ProgramSpec makeAppProgram()
{
    ProgramSpec p;
    p.name = "rankscope";
    p.oneLine = "see why a multi-GPU training run hung, rank by rank";
    p.synopsis = {
        "[BUNDLE...]",
        "--export FILE [--format html|md|json|pdf] [--anonymize] [--appendix] BUNDLE...",
        "--screenshot FILE --quit-after-load [--load-timeout SECONDS] [BUNDLE...]",
        "--help | --version",
    };
    p.description
        = "Rankscope is the desktop application of Rankscope. It opens the log bundles of "
          "failed multi-GPU training runs (folders, files or archives given on the command "
          "line, dropped on its window or its launcher, or chosen with File, Open), loads them "
          "in the background and shows the verdict, the root cause with its evidence lines, "
          "fix and verification commands, the per-rank timeline of collectives, the rank-pair "
          "heatmap, the log viewer, the ranks table and the progress charts, all following one "
          "selection. Without a BUNDLE it shows a welcome page that opens the sample bundle.\n"
          "\n"
          "With --export it needs no display: it loads and diagnoses the bundle, draws the "
          "figures offscreen, writes the report and exits.";
    p.positionals = {
        { "bundle", "[BUNDLE...]", "Log folders, files or archives to open." },
    };
    p.options = {
        { .longName = "--export",
            .valueName = "FILE",
            .completion = Completion::File,
            .description = "Write the diagnosis report of BUNDLE... to FILE and exit, without a "
                           "window. The format comes from the extension (.html, .md, .json, "
                           ".pdf) or --format." },
        { .longName = "--format",
            .valueName = "F",
            .completion = Completion::Choices,
            .choices = { "html", "md", "json", "pdf" },
            .description = "Report format for --export: html, md, json or pdf." },
        { .longName = "--anonymize",
            .description = "With --export: replace host names, IP addresses, user names and job "
                           "ids by stable pseudonyms (host-01, ip-01, user-01, job-01)." },
        { .longName = "--appendix",
            .description = "With --export: append the full tables (every rank, every input's "
                           "SHA-256) that the compact report summarises." },
        { .longName = "--screenshot",
            .valueName = "FILE",
            .completion = Completion::File,
            .description = "After loading, save the main window to FILE (PNG)." },
        { .longName = "--quit-after-load",
            .description = "Exit once the diagnosis is shown (0), the load failed (2) or timed "
                           "out (3)." },
        { .longName = "--load-timeout",
            .valueName = "SECONDS",
            .defaultValue = "300",
            .description = "Seconds --quit-after-load waits for the verdict." },
        // Qt's own --help and --version (QCommandLineParser), described as Qt does.
        { .longName = "--rank",
            .valueName = "N",
            .description = "the global rank to explain",
            .command = "why" },
        { .longName = "--collective",
            .valueName = "PG:SEQ",
            .description = "the collective (process group and sequence number) to explain",
            .command = "why" },
        { .longName = "--list",
            .description = "list every entry of the error catalogue",
            .command = "explain" },
        { .longName = "--help",
            .shortName = "-h",
            .description = "Displays help on commandline options." },
        { .longName = "--version",
            .shortName = "-v",
            .description = "Displays version information." },
    };
    p.sections = {
        { "HEADLESS EXPORT",
            "rankscope --export needs no display (it uses Qt's offscreen platform):\n"
            "\n"
            "  rankscope --export report.html|.md|.json|.pdf [--format F] [--anonymize]\n"
            "                    [--appendix] PATH...\n"
            "\n"
            "loads the bundle, diagnoses it, writes the report with its figures and exits: 0 "
            "written, 1 the bundle could not be loaded or the report not written, 2 usage error.",
            true },
        { "ENVIRONMENT",
            "QT_QPA_PLATFORM chooses Qt's platform plugin. --export, --help and --version use "
            "offscreen unless it is set; a window needs a display (X11 or Wayland).",
            false },
        { "FILES",
            "/usr/share/rankscope/samples/hung-allreduce\n"
            "\n"
            "The sample bundle the welcome page opens.\n"
            "\n"
            "~/.config/Rankscope/rankscope.conf\n"
            "\n"
            "The recently opened bundles and the window layout.",
            false },
        { "EXAMPLES",
            "Open an archived bundle:\n"
            "\n"
            "  rankscope job-1234.tar.zst\n"
            "\n"
            "Write the report with its figures on a machine without a display:\n"
            "\n"
            "  rankscope --export report.html /usr/share/rankscope/samples/hung-allreduce",
            false },
    };
    p.seeAlso = { "rankscope-cli(1)" };
    return p;
}

} // namespace

const ProgramSpec& cliProgram()
{
    static const ProgramSpec kProgram = makeCliProgram();
    return kProgram;
}

const ProgramSpec& appProgram()
{
    static const ProgramSpec kProgram = makeAppProgram();
    return kProgram;
}

std::vector<Paragraph> paragraphsOf(std::string_view text)
{
    std::vector<Paragraph> paragraphs;
    while (!text.empty()) {
        const std::size_t end = text.find("\n\n");
        const std::string_view block = text.substr(0, end);
        bool literal = true;
        for (std::size_t at = 0; at < block.size();) {
            if (block.substr(at, 2) != "  ")
                literal = false;
            const std::size_t next = block.find('\n', at);
            at = next == std::string_view::npos ? block.size() : next + 1;
        }
        if (!block.empty())
            paragraphs.push_back({ block, literal });
        text = end == std::string_view::npos ? std::string_view {} : text.substr(end + 2);
    }
    return paragraphs;
}

const CommandSpec* findCommand(const ProgramSpec& program, std::string_view name)
{
    for (const CommandSpec& command : program.commands)
        if (command.name == name)
            return &command;
    return nullptr;
}

std::vector<std::string> synopsisLines(const ProgramSpec& program)
{
    std::vector<std::string> lines;
    for (const CommandSpec& command : program.commands) {
        std::string line = std::string(command.name) + ' ' + std::string(command.arguments);
        for (std::size_t i = 0; i < command.formats.size(); ++i)
            line += (i == 0 ? " [--format " : "|") + std::string(command.formats[i]);
        lines.push_back(line + (command.formats.empty() ? " [options]" : "] [options]"));
    }
    for (std::string_view form : program.synopsis)
        lines.emplace_back(form);
    return lines;
}

std::vector<std::string_view> allFormats(const ProgramSpec& program)
{
    std::vector<std::string_view> formats;
    for (const CommandSpec& command : program.commands)
        for (std::string_view format : command.formats)
            if (std::find(formats.begin(), formats.end(), format) == formats.end())
                formats.push_back(format);
    return formats;
}

std::string optionText(const OptionSpec& option)
{
    // "(why) the global rank to explain": an option of one command says which.
    std::string text = option.command.empty() ? std::string() : "(" + std::string(option.command) + ") ";
    text += option.description;
    if (!option.defaultValue.empty()) {
        // Inside the sentence: "waits for the verdict (default 300)."
        const bool sentence = !text.empty() && text.back() == '.';
        if (sentence)
            text.pop_back();
        text += " (default ";
        text += option.defaultValue;
        text += sentence ? ")." : ")";
    }
    return text;
}

std::string optionLabel(const ProgramSpec& program, const OptionSpec& option)
{
    std::string label;
    if (!option.shortName.empty()) {
        label += option.shortName;
        label += ", ";
    }
    label += option.longName;
    if (option.valueName.empty())
        return label;
    std::vector<std::string_view> choices = option.choices;
    if (option.completion == Completion::Choices && choices.empty())
        choices = allFormats(program);
    label += ' ';
    if (choices.empty()) {
        label += option.valueName;
        return label;
    }
    for (std::size_t i = 0; i < choices.size(); ++i) {
        if (i > 0)
            label += '|';
        label += choices[i];
    }
    return label;
}

} // namespace rankscope::about
