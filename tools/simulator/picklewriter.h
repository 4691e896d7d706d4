#pragma once
// Writes Python pickles of dicts, lists, tuples, strings, ints, floats, bools and None the
// way the two producers of Flight Recorder dumps do ([formats 2.2]):
//   - TorchProtocol2: torch::jit::Pickler (pt:torch/csrc/jit/serialization/pickler.cpp),
//     what ProcessGroupNCCL writes to nccl_trace_rank_<R>: PROTO 2, every string memoized
//     by value (BINUNICODE + BINPUT, then BINGET), containers memoized only when shared
//     (BINPUT after the container is complete), no frames.
//   - PythonProtocol4: Python's pickle.dumps(protocol=4), what tools/frgen/frgen.py and the
//     official analyzer's round trips write: FRAME, SHORT_BINUNICODE + MEMOIZE, every
//     container memoized when it is opened.
// The caller drives the structure (mark/appends/setitems) so it can reproduce exactly the
// batching a producer uses; the writer only knows opcodes and the memo.

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace rankscope::simulator {

enum class PickleDialect : std::uint8_t { TorchProtocol2, PythonProtocol4 };

class PickleWriter {
public:
    explicit PickleWriter(PickleDialect dialect = PickleDialect::PythonProtocol4)
        : m_dialect(dialect)
    {
    }

    void begin();
    // Appends STOP; the returned buffer stays valid until the next begin().
    std::string& finish();
    // Python's framer cuts a frame once it holds 64 KiB, between top-level saves; torch's
    // protocol 2 has no frames, so this does nothing there.
    void maybeCommitFrame();

    void none() { m_out += 'N'; }
    void boolean(bool v) { m_out += v ? '\x88' : '\x89'; }
    void integer(std::int64_t v);
    void real(double v);
    // `shared`: Python writes the same object again (an interned literal) and so hits its
    // memo; torch memoizes every string by value, so it ignores the flag.
    void str(std::string_view s, bool shared = true);

    void emptyList();
    void emptyDict();
    void mark() { m_out += '('; }
    void appends() { m_out += 'e'; }
    void append() { m_out += 'a'; }
    void setitems() { m_out += 'u'; }
    void tuple2();

    // Shared containers (a frame dict referenced by many entries, one PG tuple object):
    // sharedObject() writes BINGET and returns true when `key` was written before. Else the
    // caller writes the container, calling openShared(key) right after emptyDict()/
    // emptyList()/tuple2() and closeShared() once its items are written.
    bool sharedObject(const std::string& key);
    void openShared(const std::string& key);
    void closeShared();

private:
    std::uint32_t memoize();
    void put();
    void get(std::uint32_t id);
    void le(std::uint64_t v, int n);
    void openFrame();
    void closeFrame();
    bool python() const { return m_dialect == PickleDialect::PythonProtocol4; }

    PickleDialect m_dialect;
    std::string m_out;
    std::size_t m_frameStart = 0;
    std::uint32_t m_memoNext = 0;
    std::unordered_map<std::string, std::uint32_t> m_memo; // string or shared-object key → id
    std::string m_pendingShared; // torch: key of the shared container being written
};

} // namespace rankscope::simulator
