#include "parsers/pastewrapper.h"

#include "parsers/flattenedpaste.h"
#include "parsers/lineprefix.h"
#include "parsers/textscan.h"
#include "parsers/timesniff.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace rankscope::parsers {

namespace {

constexpr std::size_t kHeadLines = 64;
// The widest terminal window a hard wrap is believed at.
constexpr std::size_t kWidestWindow = 400;
// Whitespace runs a paste indents code blocks with; the wrapper's indent points here.
constexpr std::string_view kSpaces = "                                ";
constexpr std::string_view kTabs = "\t\t\t\t\t\t\t\t";

// Takes up to `depth` quote marks ("> " or ">") off `line`; returns how many it took.
std::size_t takeQuotes(std::string_view& line, std::size_t depth)
{
    std::size_t taken = 0;
    for (; taken < depth && line.starts_with('>'); ++taken) {
        line.remove_prefix(1);
        if (line.starts_with(' '))
            line.remove_prefix(1);
    }
    return taken;
}

std::string_view withoutQuotes(std::string_view line, std::size_t depth)
{
    takeQuotes(line, depth);
    return line;
}

std::size_t quoteDepthOf(std::string_view line)
{
    return takeQuotes(line, 8);
}

// "    12\t": the line number `cat -n` and `nl` put before a line; its length, 0 if none.
std::size_t lineNumberLength(std::string_view line)
{
    std::size_t i = 0;
    while (i < line.size() && line[i] == ' ')
        ++i;
    const std::size_t digits = i;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9')
        ++i;
    return i > digits && i < line.size() && line[i] == '\t' ? i + 1 : 0;
}

bool blank(std::string_view line)
{
    return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

// The head's lines, a CR before the break dropped; with skipBlank, only lines with text. At
// most `limit` are kept.
std::vector<std::string_view> headLines(std::string_view head, std::size_t limit, bool skipBlank)
{
    std::vector<std::string_view> lines;
    for (std::size_t start = 0; start <= head.size() && lines.size() < limit;) {
        const std::size_t nl = std::min(head.find('\n', start), head.size());
        std::string_view line = head.substr(start, nl - start);
        start = nl + 1;
        if (line.ends_with('\r'))
            line.remove_suffix(1);
        if (!skipBlank || !blank(line))
            lines.push_back(line);
    }
    return lines;
}

// No two lines with text next to each other, and enough of them to tell: a blank line after
// every line. (The last line of the head may be cut, so the head's end proves nothing.)
bool everyLineSpaced(std::string_view head)
{
    const std::vector<std::string_view> lines = headLines(head, 2 * kHeadLines, false);
    std::size_t withText = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (blank(lines[i]))
            continue;
        if (i + 1 < lines.size() && !blank(lines[i + 1]))
            return false;
        ++withText;
    }
    return withText >= 6;
}

// Every line followed by a copy of itself (`head` holds whole lines only); the head may start
// at the second copy of a pair.
bool everyLineTwice(std::string_view head)
{
    const std::vector<std::string_view> lines = headLines(head, 2 * kHeadLines, false);
    if (lines.size() < 8)
        return false;
    for (std::size_t first : { 0, 1 }) {
        std::vector<std::string_view> distinct;
        bool paired = true;
        for (std::size_t i = first; paired && i + 1 < lines.size(); i += 2) {
            paired = lines[i] == lines[i + 1];
            if (!blank(lines[i])
                && std::find(distinct.begin(), distinct.end(), lines[i]) == distinct.end())
                distinct.push_back(lines[i]);
        }
        if (paired && distinct.size() >= 3)
            return true;
    }
    return false;
}

// A piece cut mid-line is followed by the rest of that line, which begins unlike it and names
// no writer; lines of one format begin alike but for their numbers, after what a collector put
// before every line (its time, a host label, a grep file name).
bool beginAlike(std::string_view a, std::string_view b)
{
    LinePrefix pa;
    LinePrefix pb;
    const std::string_view bodyA = stripPrefixes(a, pa);
    const std::string_view bodyB = stripPrefixes(b, pb);
    if (pb.globalRank >= 0 || pb.localRank >= 0 || pb.srunTask >= 0 || pb.mpiRank >= 0 || pb.pid >= 0)
        return true; // a record of its own
    const std::string x = digitsAsZero(bodyA.substr(0, 8));
    const std::string y = digitsAsZero(bodyB.substr(0, 8));
    return x.starts_with(y) || y.starts_with(x); // a line cut short still begins alike
}

// Of the lines exactly `width` long (not ending in padding, which marks a line's last piece),
// how many are followed by a line that begins unlike them, and how many there are.
std::pair<std::size_t, std::size_t> cutsAt(const std::vector<std::string_view>& lines, std::size_t width)
{
    std::size_t pieces = 0;
    std::size_t cut = 0;
    for (std::size_t i = 0; i + 1 < lines.size(); ++i)
        if (columnsOf(lines[i]) == width && !lines[i].ends_with("  ")) {
            ++pieces;
            cut += beginAlike(lines[i], lines[i + 1]) ? 0 : 1;
        }
    return { cut, pieces };
}

// The width a terminal cut long lines at (see wrapWidth), 0 when the head is not hard-wrapped.
// Two signs, either enough: half the lines or more share one width of 60 or more (a long
// paste, most of its lines cut); or no line is longer than the width the longest lines share
// (a short paste with a few long lines, all cut at the window's edge and nothing beyond it).
// Either way most of the pieces at that width must be followed by a line that begins unlike
// them, two at least.
std::size_t hardWrapWidth(std::string_view head)
{
    const std::vector<std::string_view> lines = headLines(head, kHeadLines, true);
    // A carriage return inside a line is a progress bar redrawn in a captured file: a terminal's
    // copy shows only the last drawing, so such a file was never wrapped by one.
    for (std::string_view l : lines)
        if (l.find('\r') != std::string_view::npos)
            return 0;
    std::vector<std::size_t> widths;
    for (std::string_view l : lines)
        if (const std::size_t columns = columnsOf(l); columns >= 60)
            widths.push_back(columns);
    if (widths.size() < 2)
        return 0;
    std::sort(widths.begin(), widths.end());
    std::size_t width = 0;
    std::size_t most = 0;
    for (std::size_t i = 0; i < widths.size();) {
        std::size_t j = i;
        while (j < widths.size() && widths[j] == widths[i])
            ++j;
        if (j - i > most) {
            most = j - i;
            width = widths[i];
        }
        i = j;
    }
    const auto wrappedAt = [&lines](std::size_t w) {
        const auto [cut, pieces] = cutsAt(lines, w);
        return cut >= 2 && cut * 2 >= pieces;
    };
    if (most >= 3 && most * 2 >= lines.size() && width <= kWidestWindow && wrappedAt(width))
        return width;
    // Terminal windows are a few hundred columns at most (kWidestWindow); longer lines of one
    // length are a program's (padded records, repeated dumps), not a window's edge.
    const std::size_t longest = widths.back();
    const std::size_t atLongest = static_cast<std::size_t>(std::count(widths.begin(), widths.end(), longest));
    return longest <= kWidestWindow && atLongest >= 2 && wrappedAt(longest) ? longest : 0;
}

// "2024-05-01 10:00:07 ", "2024-05-01 10:00:07,123 ": a date and time first on the line and a
// blank after it; its length with the blank, 0 if none.
std::size_t timeStampLength(std::string_view line)
{
    if (line.size() < 20 || !isDigit(line[0]) || line[4] != '-')
        return 0;
    std::size_t consumed = 0;
    // A zoned RFC 3339 time is a collector's the prefix reader takes with what follows it (the
    // CRI format's "stderr F "); only the zoneless local time is left to this wrapper.
    if (!parseIsoTime(line, &consumed).valid() || consumed >= line.size())
        return 0;
    return line[consumed] == ' ' ? consumed + 1 : 0;
}

// A logging level a forwarder put before the line: Python's default "INFO:root:" (level, logger
// name, colon), "[INFO] ", "INFO: ", and "- INFO - " (what is left of "%(asctime)s - %(levelname)s
// - " once the time is off). Its length, 0 if none.
std::size_t levelTagLength(std::string_view line)
{
    static constexpr std::string_view kLevels[] = { "DEBUG", "INFO", "WARNING", "WARN", "ERROR", "CRITICAL", "FATAL" };
    const bool bracket = line.starts_with('[');
    const bool dashed = line.starts_with("- ");
    const std::size_t at = bracket ? 1 : dashed ? 2 : 0;
    for (std::string_view level : kLevels) {
        if (!line.substr(at).starts_with(level))
            continue;
        std::size_t i = at + level.size();
        if (bracket)
            return line.substr(i).starts_with("] ") ? i + 2 : 0;
        if (dashed)
            return line.substr(i).starts_with(" - ") ? i + 3 : 0;
        if (line.substr(i).starts_with(": "))
            return i + 2;
        if (i >= line.size() || line[i] != ':')
            return 0;
        // "INFO:root:" / "INFO:my.module:": the logger's name, then its colon.
        const std::size_t name = ++i;
        while (i < line.size() && i - name < 64 && (isAlnum(line[i]) || line[i] == '_' || line[i] == '.'))
            ++i;
        return i > name && i < line.size() && line[i] == ':' ? i + 1 : 0;
    }
    return 0;
}

} // namespace

std::string_view PasteWrapper::strip(std::string_view line, std::string_view* stamp) const
{
    if (numbered)
        line.remove_prefix(lineNumberLength(line));
    line = withoutQuotes(line, quoteDepth);
    if (!indent.empty() && line.starts_with(indent))
        line.remove_prefix(indent.size());
    if (listMarker != 0 && line.size() >= 2 && line[0] == listMarker && line[1] == ' ')
        line.remove_prefix(2);
    if (timeStamped) {
        if (const std::size_t n = timeStampLength(line)) {
            if (stamp)
                *stamp = line.substr(0, n - 1);
            line.remove_prefix(n);
        }
    }
    if (levelTagged)
        line.remove_prefix(levelTagLength(line));
    return line;
}

namespace {

// The wrapper's strippable part, on whole lines.
PasteWrapper detectLineWrapper(std::string_view head)
{
    // Each step strips what the one before found, and looks again at the lines with text.
    std::vector<std::string_view> lines = headLines(head, kHeadLines, true);
    if (lines.empty())
        return {};
    const std::size_t numberedLines = static_cast<std::size_t>(std::count_if(
        lines.begin(), lines.end(), [](std::string_view l) { return lineNumberLength(l) > 0; }));
    // Two numbered lines at least, or one in cat -n's own width ("%6d\t"): a single "3\tx"
    // may be a table's row.
    const bool numbered = numberedLines == lines.size() && (lines.size() >= 2 || lineNumberLength(lines.front()) == 7);
    if (numbered) {
        std::vector<std::string_view> unnumbered;
        for (std::string_view line : headLines(head, std::numeric_limits<std::size_t>::max(), true)) {
            line.remove_prefix(lineNumberLength(line));
            if (!blank(line) && unnumbered.size() < kHeadLines)
                unnumbered.push_back(line);
        }
        lines = std::move(unnumbered);
        if (lines.empty())
            return { numbered, 0, {} };
    }
    std::size_t depth = std::numeric_limits<std::size_t>::max();
    for (std::string_view line : lines)
        depth = std::min(depth, quoteDepthOf(line));
    std::size_t spaces = std::numeric_limits<std::size_t>::max();
    std::size_t tabs = std::numeric_limits<std::size_t>::max();
    for (std::string_view line : lines) {
        line = withoutQuotes(line, depth);
        if (blank(line))
            continue;
        spaces = std::min(spaces, line.find_first_not_of(' '));
        tabs = std::min(tabs, line.find_first_not_of('\t'));
    }
    PasteWrapper w;
    w.numbered = numbered;
    w.quoteDepth = depth;
    if (spaces >= 4)
        w.indent = kSpaces.substr(0, std::min(spaces, kSpaces.size()));
    else if (tabs >= 1)
        w.indent = kTabs.substr(0, std::min(tabs, kTabs.size()));
    return w;
}

// A list marker, a time stamp and a level tag on every line with text (under the wrapper
// already found), in that order from the left; each is looked for on the lines without the ones
// before it.
void detectForwarderWrappers(std::string_view head, PasteWrapper& w)
{
    std::vector<std::string_view> lines = headLines(head, kHeadLines, true);
    if (lines.empty())
        return;
    for (std::string_view& line : lines)
        line = w.strip(line);
    const auto all = [&lines](auto&& test) { return std::all_of(lines.begin(), lines.end(), test); };
    for (const char marker : { '-', '*' })
        if (all([marker](std::string_view l) { return l.size() >= 2 && l[0] == marker && l[1] == ' '; })) {
            w.listMarker = marker;
            for (std::string_view& line : lines)
                line.remove_prefix(2);
            break;
        }
    if (all([](std::string_view l) { return timeStampLength(l) > 0; })) {
        w.timeStamped = true;
        for (std::string_view& line : lines)
            line.remove_prefix(timeStampLength(line));
    }
    w.levelTagged = all([](std::string_view l) { return levelTagLength(l) > 0; });
}

} // namespace

std::size_t columnsOf(std::string_view line)
{
    std::size_t columns = 0;
    for (char c : line)
        columns += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    return columns;
}

std::string digitsAsZero(std::string_view text)
{
    std::string shape(text);
    for (char& c : shape)
        if (c >= '0' && c <= '9')
            c = '0';
    return shape;
}

PasteWrapper detectPasteWrapper(std::string_view head)
{
    if (head.starts_with("\xEF\xBB\xBF"))
        head.remove_prefix(3);
    // Whole lines only: the last one may be cut by the end of the head.
    if (const std::size_t lastBreak = head.rfind('\n'); lastBreak != std::string_view::npos)
        head = head.substr(0, lastBreak);
    PasteWrapper w = detectLineWrapper(head);
    detectForwarderWrappers(head, w);
    w.doubled = everyLineTwice(head);
    w.doubleSpaced = !w.doubled && everyLineSpaced(head);
    w.wrapWidth = hardWrapWidth(head);
    w.flattened = looksFlattened(head);
    return w;
}

} // namespace rankscope::parsers
