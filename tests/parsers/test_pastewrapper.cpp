#include "parsers/lineprefix.h"
#include "parsers/pastewrapper.h"
#include "scanhelpers.h"

#include <catch2/catch.hpp>

#include <string>
#include <tuple>
#include <vector>

using rankscope::parsers::detectPasteWrapper;

TEST_CASE("a quote or code-block indentation on every line is the paste's wrapper", "[parsers][paste]")
{
    auto quoted = detectPasteWrapper("> [rank3]: a\n>\n> > nested is deeper than the rest\n> b\n");
    CHECK(quoted.quoteDepth == 1);
    CHECK(quoted.indent.empty());
    CHECK(quoted.strip("> [rank3]: a") == "[rank3]: a");
    CHECK(quoted.strip("no quote") == "no quote");

    auto code = detectPasteWrapper("\n    [rank3]: a\n      Traceback frame\n    b\n");
    CHECK(code.quoteDepth == 0);
    CHECK(code.indent == "    ");
    CHECK(code.strip("      Traceback frame") == "  Traceback frame");

    auto both = detectPasteWrapper(">     x\n>     y\n");
    CHECK(both.quoteDepth == 1);
    CHECK(both.indent == "    ");
    CHECK(both.strip(">     x") == "x");

    auto tab = detectPasteWrapper("\tx\n\t\ty\n");
    CHECK(tab.indent == "\t");

    // cat -n numbers every line, blank ones too; the text after the tab may be indented.
    auto numbered = detectPasteWrapper("     1\t[rank3]: a\n     2\t\n     3\t  File \"x.py\"\n");
    CHECK(numbered.numbered);
    CHECK(numbered.indent.empty());
    CHECK(numbered.strip("     3\t  File \"x.py\"") == "  File \"x.py\"");
    CHECK_FALSE(detectPasteWrapper("3\tx\n").numbered);
    CHECK(detectPasteWrapper("     1\t[1] NCCL INFO x\n").numbered);
    CHECK_FALSE(detectPasteWrapper("3\tx\ny\n").numbered);
}

TEST_CASE("indentation a log means is not a wrapper", "[parsers][paste]")
{
    // Two blanks: a traceback's frames, a failure table's fields.
    CHECK(detectPasteWrapper("  File \"x.py\", line 1, in f\n    g()\n").empty());
    // One line without it is enough to say there is none.
    CHECK(detectPasteWrapper("    a\nb\n    c\n").empty());
    CHECK(detectPasteWrapper("> a\nb\n").empty());
    CHECK(detectPasteWrapper("").empty());
    CHECK(detectPasteWrapper("\n\n  \n").empty());
}

TEST_CASE("a quoted paste is read like the plain log", "[parsers][paste]")
{
    const std::string line = "[rank3]:[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog caught collective operation timeout: "
                             "WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for "
                             "600011 milliseconds before timing out.\n";
    const auto read = [](const std::string& text) { return rankscope::testing::built(text); };
    const auto plain = read(line);
    const auto quoted = read("> " + line + ">\n> " + line);
    const auto indented = read("    " + line);
    REQUIRE_FALSE(plain.events.empty());
    for (const auto* p : { &quoted, &indented }) {
        REQUIRE_FALSE(p->events.empty());
        CHECK(p->events[0].kind == plain.events[0].kind);
        CHECK(p->identities[p->events[0].identity].globalRank == 3);
    }
}

TEST_CASE("a paste with every line twice in a row is doubled", "[parsers][paste]")
{
    const std::string lines[] = { "[rank0]: a", "[rank1]: b", "", "[rank2]: c", "[rank3]: d" };
    std::string twice;
    for (const auto& l : lines)
        twice += l + "\n" + l + "\n";
    CHECK(detectPasteWrapper(twice).doubled);
    // The head may begin at a pair's second copy, and CRLF endings are the same line.
    CHECK(detectPasteWrapper(twice.substr(twice.find('\n') + 1)).doubled);
    CHECK(detectPasteWrapper("a\r\na\r\nb\r\nb\r\nc\r\nc\r\nd\r\nd\r\n").doubled);

    // Too short to tell a doubled paste from two processes printing the same line.
    CHECK_FALSE(detectPasteWrapper("a\na\nb\nb\nc\nc\n").doubled);
    // One message repeated is a log that repeats it, not a doubled paste.
    CHECK_FALSE(detectPasteWrapper("retry\nretry\nretry\nretry\nretry\nretry\nx\nx\n").doubled);
    // One unpaired line anywhere in the head and it is not doubled.
    CHECK_FALSE(detectPasteWrapper("a\na\nb\nb\nc\nd\nd\ne\ne\nf\nf\n").doubled);
}

TEST_CASE("a doubled paste is read once, with its line numbers and an import issue", "[parsers][paste]")
{
    // A watchdog timeout hard-wrapped before its WorkNCCL(...) and the whole paste doubled: the
    // wrapped halves are two lines apart in the file but consecutive among the lines read.
    const std::string head = "[rank1]:[E ProcessGroupNCCL.cpp:607] [Rank 1] Watchdog caught collective operation timeout: \n";
    const std::string tail = "WorkNCCL(SeqNum=9, OpType=ALLREDUCE, NumelIn=4, NumelOut=4, Timeout(ms)=600000) ran for 600020 "
                             "milliseconds before timing out.\n";
    const std::string other = "[rank2]:[E ProcessGroupNCCL.cpp:607] [Rank 2] Watchdog caught collective operation timeout: "
                              "WorkNCCL(SeqNum=9, OpType=ALLREDUCE, NumelIn=4, NumelOut=4, Timeout(ms)=600000) ran for "
                              "600031 milliseconds before timing out.\n";
    const std::string note = "[Mon Apr 10 07:13:18 2023] NVRM: Xid (PCI:0000:3b:00): 79, pid=4321, GPU has fallen off the bus.\n";
    const std::string text = head + head + tail + tail + other + other + note + note + note + note;
    const auto parsed = rankscope::testing::built(text);
    std::vector<std::pair<std::int32_t, std::uint64_t>> timeouts; // (rank, line)
    std::vector<std::uint64_t> xids;
    for (const auto& e : parsed.events) {
        if (e.kind == rankscope::model::EventKind::TorchWatchdogTimeout) {
            CHECK(e.seq == 9);
            timeouts.emplace_back(parsed.identities[e.identity].globalRank, e.evidence.line);
        }
        if (e.kind == rankscope::model::EventKind::GpuXid)
            xids.push_back(e.evidence.line);
    }
    CHECK(timeouts == std::vector<std::pair<std::int32_t, std::uint64_t>> { { 1, 1 }, { 2, 5 } });
    // The Xid line was printed twice by the kernel log (four copies): read twice, at 7 and 9.
    CHECK(xids == std::vector<std::uint64_t> { 7, 9 });
    CHECK(parsed.issues.count("doubled_lines") == 1);
}

namespace {

// `text` cut into pieces of `width` bytes, the last one padded with blanks to the width, as a
// terminal's copy of a long line comes out.
std::string hardWrapped(const std::string& text, std::size_t width)
{
    std::string out;
    for (std::size_t i = 0; i < text.size(); i += width) {
        std::string piece = text.substr(i, width);
        piece.resize(width, ' ');
        out += piece + "\n";
    }
    return out;
}

const std::string kTimeout1 = "[rank1]:[E513 13:25:57.714777142 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective "
                              "operation timeout: WorkNCCL(SeqNum=532339, OpType=BROADCAST, NumelIn=5164000, NumelOut=5164000, "
                              "Timeout(ms)=1800000) ran for 1800042 milliseconds before timing out.";
const std::string kTimeout2 = "[rank2]:[E513 13:25:57.714781669 ProcessGroupNCCL.cpp:616] [Rank 2] Watchdog caught collective "
                              "operation timeout: WorkNCCL(SeqNum=532339, OpType=BROADCAST, NumelIn=5164000, NumelOut=5164000, "
                              "Timeout(ms)=1800000) ran for 1800050 milliseconds before timing out.";

} // namespace

TEST_CASE("a terminal's hard-wrapped copy is found by its width", "[parsers][paste]")
{
    const std::string wrapped = hardWrapped(kTimeout1, 75) + hardWrapped(kTimeout2, 75);
    CHECK(detectPasteWrapper(wrapped).wrapWidth == 75);

    // Lines of one format share a width and begin alike: not wrapped.
    std::string nccl;
    for (int d = 0; d < 6; ++d)
        nccl += "gpu-node-50:34" + std::to_string(d) + ":1213 [" + std::to_string(d)
            + "] NCCL INFO [Service thread] Connection closed by localRank 7\n";
    CHECK(detectPasteWrapper(nccl).wrapWidth == 0);
    // A logger that pads its lines to one width, and a short line among them.
    std::string padded;
    for (const char* msg : { "Saving checkpoint.", "Getting full model state dict took 109.51 secs",
             "Retrieving optimizer state dict...", "Getting optimizer state dict took 118.28 secs" }) {
        std::string line = std::string("INFO:torchtune.utils._logging:") + msg;
        line.resize(120, ' ');
        padded += line + "\n";
    }
    padded += "INFO:t\n";
    CHECK(detectPasteWrapper(padded).wrapWidth == 0);
    // grep -H file names on lines of one format.
    std::string grepped;
    for (int r = 0; r < 4; ++r)
        grepped += "LOG1." + std::to_string(r) + ".txt:learnfair062:3261" + std::to_string(r) + ":3261"
            + std::to_string(r) + " [" + std::to_string(r) + "] NCCL INFO Broadcast: opCount 0 sendbuff 0x7f88e4000000\n";
    CHECK(detectPasteWrapper(grepped).wrapWidth == 0);
}

TEST_CASE("a hard-wrapped line is read joined, at its first piece's line", "[parsers][paste]")
{
    auto timeouts = [](const std::string& text) {
        const auto parsed = rankscope::testing::built(text);
        std::vector<std::tuple<std::int32_t, std::int64_t, std::uint64_t>> out; // rank, seq, line
        for (const auto& e : parsed.events)
            if (e.kind == rankscope::model::EventKind::TorchWatchdogTimeout)
                out.emplace_back(parsed.identities[e.identity].globalRank, e.seq, e.evidence.line);
        return out;
    };
    using Rows = std::vector<std::tuple<std::int32_t, std::int64_t, std::uint64_t>>;
    const std::string wrapped = hardWrapped(kTimeout1, 75) + hardWrapped(kTimeout2, 75);
    const std::size_t pieces = (kTimeout1.size() + 74) / 75;
    CHECK(timeouts(wrapped) == Rows { { 1, 532339, 1 }, { 2, 532339, 1 + pieces } });
    // Quoted after it was wrapped: every piece carries the quote mark.
    std::string quoted;
    for (std::size_t i = 0, start = 0; start < wrapped.size(); ++i) {
        const std::size_t nl = wrapped.find('\n', start);
        quoted += "> " + wrapped.substr(start, nl - start + 1);
        start = nl + 1;
    }
    CHECK(timeouts(quoted) == Rows { { 1, 532339, 1 }, { 2, 532339, 1 + pieces } });
}

TEST_CASE("a short paste whose few long lines are all cut at one width is hard-wrapped", "[parsers][paste]")
{
    // Two long lines, cut at 80 columns, among short ones: no line is longer than the cut.
    const std::string exception = "[rank3]:[E ProcessGroupNCCL.cpp:1414] [PG 2 Rank 3] Process group watchdog thread "
                                  "terminated with exception: CUDA error: an illegal memory access was encountered";
    const std::string text = hardWrapped(exception, 80) + "--\n  | For debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n"
        + "  | Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n";
    CHECK(detectPasteWrapper(text).wrapWidth == 80);
    const auto parsed = rankscope::testing::built(text);
    bool read = false;
    for (const auto& e : parsed.events)
        read |= e.kind == rankscope::model::EventKind::TorchWatchdogException
            && parsed.text(e.text).find("an illegal memory access was encountered") != std::string_view::npos;
    CHECK(read);

    // Columns, not bytes: a progress bar's blocks are three bytes each.
    std::string bar = "Tokenizing (num_proc=64):  92%|";
    for (int i = 0; i < 20; ++i)
        bar += "\u2588";
    bar += "| 328986/359152 [29:58<12:05, 41.59 examples/s] and the rest of what the line says";
    CHECK(rankscope::parsers::columnsOf(bar) < bar.size());
    CHECK(detectPasteWrapper(hardWrapped(bar, 70) + hardWrapped(exception, 70)).wrapWidth == 70);

    // Two complete lines that happen to be the longest, of one length, each followed by a line
    // of its own format: not wrapped.
    const std::string two = "host-a:101:201 [0] NCCL INFO Channel 00/02 :    0   1   2   3   4   5   6   7\n"
                            "host-a:101:201 [0] NCCL INFO Trees [0] 1/-1/-1->0->-1\n"
                            "host-b:102:202 [1] NCCL INFO Channel 01/02 :    0   1   2   3   4   5   6   7\n"
                            "host-b:102:202 [1] NCCL INFO Trees [0] 2/-1/-1->1->0\n";
    CHECK(detectPasteWrapper(two).wrapWidth == 0);

    // A captured file whose progress bar is redrawn with carriage returns: its lines share a
    // length because the drawings do, and no terminal copy keeps the \r.
    std::string captured;
    for (int step = 0; step < 4; ++step) {
        for (int redraw = 0; redraw < 6; ++redraw)
            captured += " 19%|##        | 38" + std::to_string(10 + step) + "/20000 [15:55<67:25,  3.98it/s, loss=1.30" + std::to_string(10 + redraw) + "]\r";
        captured += "\n{'loss': 1.3015, 'grad_norm': 0.52, 'learning_rate': 1.9e-05, 'epoch': 0." + std::to_string(step) + "}\n";
    }
    CHECK(detectPasteWrapper(captured).wrapWidth == 0);
    // Lines of one length wider than any terminal window are a program's.
    std::string wide;
    for (int i = 0; i < 3; ++i)
        wide += std::string(500, static_cast<char>('a' + i)) + "\n" + "next " + std::to_string(i) + "\n";
    CHECK(detectPasteWrapper(wide).wrapWidth == 0);
}

TEST_CASE("a double-spaced paste is read as if its blank lines were not there", "[parsers][paste]")
{
    const std::string lines[] = { "[rank0]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 0] Observed flight recorder dump signal",
        "Traceback (most recent call last):", "  File \"train.py\", line 3, in <module>", "    main()",
        "  File \"train.py\", line 2, in main", "    dist.all_reduce(t)", "RuntimeError: boom" };
    std::string spaced;
    std::string plain;
    for (const auto& l : lines) {
        spaced += l + "\n\n";
        plain += l + "\n";
    }
    CHECK(detectPasteWrapper(spaced).doubleSpaced);
    CHECK_FALSE(detectPasteWrapper(plain).doubleSpaced);
    // Blank lines between paragraphs only: not double-spaced.
    CHECK_FALSE(detectPasteWrapper("a\nb\n\nc\nd\n\ne\nf\n\ng\nh\n").doubleSpaced);
    const auto a = rankscope::testing::built(spaced);
    const auto b = rankscope::testing::built(plain);
    REQUIRE(a.events.size() == b.events.size());
    for (std::size_t i = 0; i < a.events.size(); ++i) {
        CHECK(a.events[i].kind == b.events[i].kind);
        CHECK(a.text(a.events[i].text) == b.text(b.events[i].text));
    }
}

TEST_CASE("what a forwarder or a list put before every line is taken off with its time kept", "[parsers][paste]")
{
    const std::string lines[] = { "[rank1]:[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog caught collective operation timeout: "
                                  "WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600042 "
                                  "milliseconds before timing out.",
        "Traceback (most recent call last):", "  File \"train.py\", line 2, in main", "RuntimeError: boom" };
    auto wrapped = [&lines](const std::string& lead) {
        std::string out;
        for (const auto& l : lines)
            out += lead + l + "\n";
        return out;
    };
    const auto pylogging = detectPasteWrapper(wrapped("2024-05-01 10:00:07,123 - INFO - "));
    CHECK(pylogging.timeStamped);
    CHECK(pylogging.levelTagged);
    std::string_view stamp;
    CHECK(pylogging.strip("2024-05-01 10:00:07,123 - INFO - RuntimeError: boom", &stamp) == "RuntimeError: boom");
    CHECK(stamp == "2024-05-01 10:00:07,123");
    CHECK(detectPasteWrapper(wrapped("INFO:root:")).strip("INFO:root:RuntimeError: boom") == "RuntimeError: boom");
    CHECK(detectPasteWrapper(wrapped("[INFO] ")).strip("[INFO] RuntimeError: boom") == "RuntimeError: boom");
    const auto listed = detectPasteWrapper(wrapped("- "));
    CHECK(listed.listMarker == '-');
    CHECK(listed.strip("-   File \"train.py\", line 2") == "  File \"train.py\", line 2");
    // A zoned time is a collector's, taken with what follows it by the prefix reader.
    CHECK_FALSE(detectPasteWrapper(wrapped("2024-05-01T10:00:00.123456789Z stderr F ")).timeStamped);
    // Parsed like the plain lines.
    const auto plain = rankscope::testing::built(wrapped(""));
    for (const std::string lead : { "2024-05-01 10:00:07,123 - INFO - ", "INFO:root:", "[INFO] ", "- ", "2024-05-01 10:00:07 " }) {
        INFO(lead);
        const auto read = rankscope::testing::built(wrapped(lead));
        REQUIRE(read.events.size() == plain.events.size());
        for (std::size_t i = 0; i < read.events.size(); ++i)
            CHECK(read.events[i].kind == plain.events[i].kind);
    }

    // A program's own log: some lines without the tag, so nothing is taken off.
    std::string own = wrapped("INFO:root:");
    own += "host:1:2 [0] NCCL INFO Channel 00/02 :    0   1\n";
    const auto mixed = detectPasteWrapper(own);
    CHECK_FALSE(mixed.levelTagged);
    CHECK(mixed.empty());
    // A paste of one to three lines is the commonest of all; when each of its lines carries
    // the wrapper, it comes off too (a program's own short log loses nothing the parsers read:
    // the time is kept as the collector's, the level says nothing they use).
    CHECK(detectPasteWrapper("INFO:root:a\nINFO:root:b\n").levelTagged);
    for (const std::string lead : { "2024-05-01 10:00:07,123 - INFO - ", "INFO:root:", "[INFO] ", "- ", "2024-05-01 10:00:07 " }) {
        INFO(lead);
        const auto read = rankscope::testing::built(lead + lines[0] + "\n");
        const auto alone = rankscope::testing::built(lines[0] + "\n");
        REQUIRE(read.events.size() == alone.events.size());
        for (std::size_t i = 0; i < read.events.size(); ++i) {
            CHECK(read.events[i].kind == alone.events[i].kind);
            CHECK(read.identities[read.events[i].identity].globalRank == 1);
        }
    }
    CHECK_FALSE(detectPasteWrapper("INFO:root:a\nplain\n").levelTagged);
}

TEST_CASE("a line set in Markdown emphasis as a whole is read inside its markers", "[parsers][paste]")
{
    using rankscope::parsers::stripLineEmphasis;
    CHECK(stripLineEmphasis("**(VllmWorker rank=5 pid=50999) ERROR boom**") == "(VllmWorker rank=5 pid=50999) ERROR boom");
    CHECK(stripLineEmphasis("**[rank1]: RuntimeError: x**  ") == "[rank1]: RuntimeError: x");
    CHECK(stripLineEmphasis("`[rank1]: RuntimeError: x`") == "[rank1]: RuntimeError: x");
    CHECK(stripLineEmphasis("__init__ (x.py:12)") == "__init__ (x.py:12)"); // a frame, not emphasis
    CHECK(stripLineEmphasis("**bold** then plain") == "**bold** then plain");
    CHECK(stripLineEmphasis("************************************************************")
        == "************************************************************");
    CHECK(stripLineEmphasis("** a list item **") == "** a list item **");
    CHECK(stripLineEmphasis("**") == "**");

    // The worker's prefix names the rank once the markers are off.
    const auto parsed = rankscope::testing::built(
        "**(VllmWorker rank=5 pid=50999) ERROR 07-07 15:19:48 [multiproc_executor.py:492] torch.OutOfMemoryError: "
        "CUDA out of memory. Tried to allocate 2.50 GiB.**\n");
    bool oom = false;
    for (const auto& e : parsed.events)
        if (e.kind == rankscope::model::EventKind::CudaOutOfMemory
            || e.kind == rankscope::model::EventKind::PythonException)
            oom = oom || parsed.identities[e.identity].globalRank == 5;
    CHECK(oom);
}
