#pragma once
// A restricted reader for Python pickles that holds only plain data ([formats 2.2]): the
// Flight Recorder writes its dump with torch::jit::Pickler (protocol 2) and scripts rewrite
// them with Python's pickle (protocols 2–5). Unpickling with Python executes whatever the
// file names (GLOBAL + REDUCE = any function call), so dumps are read here by a small stack
// machine that knows only the opcodes that build None, bools, ints, floats, str, bytes,
// lists, tuples and dicts, plus framing, marks and the memo. Every other opcode (GLOBAL,
// STACK_GLOBAL, REDUCE, BUILD, INST, OBJ, NEWOBJ, PERSID, EXT*, sets, out-of-band buffers)
// stops the reader with an error naming the opcode and its offset; nothing is ever called.
//
//   80 02 7d 71 00 28 58 07 00 00 00 76 65 72 73 69 6f 6e …   → Dict {"version": …}
//   80 02 63 70 6f 73 69 78 0a 73 79 73 74 65 6d 0a …          → error "pickle opcode GLOBAL
//       (posix.system) at byte 2 is not allowed: Rankscope never executes code from a dump"
//
// Opcodes read (pickletools names): PROTO FRAME STOP MARK POP POP_MARK DUP; NONE NEWTRUE
// NEWFALSE; INT BININT BININT1 BININT2 LONG LONG1 LONG4 (arbitrary length, clamped to int64
// with an overflow flag); FLOAT BINFLOAT; STRING BINSTRING SHORT_BINSTRING; UNICODE
// BINUNICODE SHORT_BINUNICODE BINUNICODE8; BINBYTES SHORT_BINBYTES BINBYTES8; EMPTY_LIST
// APPEND APPENDS LIST; EMPTY_TUPLE TUPLE TUPLE1 TUPLE2 TUPLE3; EMPTY_DICT DICT SETITEM
// SETITEMS; PUT BINPUT LONG_BINPUT MEMOIZE GET BINGET LONG_BINGET. torch::jit::Pickler
// emits a subset of these for the dicts, lists, strings and ints of a dump (GLOBAL only for
// tensors, typed lists, devices and objects, none of which a dump contains).
//
// Safety: every declared length is checked against the bytes left, nesting is capped,
// value and item counts are capped, memo indices are checked, and no exception leaves the
// reader. When input ends early or an opcode is refused, the containers still open are
// closed as they stand ("salvaged") so the caller keeps what was read.
//
// Speed: strings are views into the input, and all values of a document live in two flat
// arrays (values, item ids) reused across reads. step() is the plain interpreter that defines
// what every opcode does. The fast loop takes the opcodes a dump is made of (memo reads and
// writes, ints, floats, strings, empty containers, TUPLE2, MARK, APPEND(S), SETITEM(S)) with
// its state in registers and one indirect jump per opcode, in stretches of input sized so
// that no array can fill and no limit can be reached inside them (an opcode takes at least
// a byte and adds at most one value), so it checks only what the bytes declare. A rare
// opcode, one whose own checks fail (a declared length beyond the end, a wrong container, a
// memo slot never stored, nesting too deep) and everything near a limit or the end of the
// input go to step() before anything is changed, so errors come from one place. A dict that
// repeats one the fast loop built before, byte for byte apart from its numbers (the 2000
// entries of a dump), is copied rather than read (picklerepeats.h), and listed in
// PickleResult::copies for the mapper. Tests read valid, corrupted and cut pickles both ways
// (PickleReaderPath::Reference: step() alone, no copies).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rankscope::parsers {

// Containers last: isContainer() is one comparison.
enum class PickleKind : std::uint8_t { None, Bool, Int, Float, Str, Bytes, List, Tuple, Dict };

using PickleId = std::uint32_t;
inline constexpr PickleId kNoPickleValue = 0xffffffffu;

// One value of a document: 16 bytes. Containers keep their items in the document's item
// array; dict items are key, value, key, value, ...
struct PickleValue {
    PickleKind kind = PickleKind::None;
    std::uint8_t flags = 0;
    std::uint16_t depth = 0; // containers: 1 + depth of the deepest item
    std::uint32_t size = 0; // Str/Bytes: bytes; List/Tuple: items; Dict: pairs
    std::uint64_t bits = 0; // Int/Bool: value; Float: IEEE bits; Str/Bytes: text offset;
                            // containers: first item (low 32 bits), capacity (high 32 bits)
};

class PickleDocument {
public:
    static constexpr std::uint8_t kIntOverflow = 1; // an integer beyond int64, clamped
    static constexpr std::uint8_t kOwnedText = 2; // text decoded into the document's buffer
    static constexpr std::uint8_t kSalvaged = 4; // container closed early (input ended or refused)

    // Clears the document for a new input; capacity is kept for the next read.
    void reset(std::string_view source);

    std::size_t valueCount() const { return m_valueCount; }
    PickleKind kind(PickleId id) const { return m_values[id].kind; }
    // The accessors a mapper calls per value are forced inline: in a large mapping function
    // GCC's growth limits would otherwise leave them as calls.
    [[gnu::always_inline]] bool is(PickleId id, PickleKind k) const
    {
        return id < m_valueCount && m_values[id].kind == k;
    }
    [[gnu::always_inline]] bool isContainer(PickleId id) const
    {
        return id < m_valueCount && m_values[id].kind >= PickleKind::List;
    }
    bool salvaged(PickleId id) const { return (m_values[id].flags & kSalvaged) != 0; }
    bool overflowed(PickleId id) const { return (m_values[id].flags & kIntOverflow) != 0; }
    std::uint16_t depth(PickleId id) const { return m_values[id].depth; }
    // The value itself, for checks that compare values slot by slot (id < valueCount()).
    const PickleValue& value(PickleId id) const { return m_values[id]; }
    // See PickleResult::copiesChanged.
    bool copiesChanged() const { return m_copiesChanged; }

    // Int and Bool as integers; false for other kinds.
    [[gnu::always_inline]] bool integer(PickleId id, std::int64_t& out) const
    {
        if (id >= m_valueCount)
            return false;
        const PickleValue& v = m_values[id];
        if (v.kind != PickleKind::Int && v.kind != PickleKind::Bool)
            return false;
        out = static_cast<std::int64_t>(v.bits);
        return true;
    }
    // Float, and Int converted.
    bool real(PickleId id, double& out) const;
    // Str and Bytes; empty for other kinds.
    [[gnu::always_inline]] std::string_view text(PickleId id) const
    {
        if (id >= m_valueCount)
            return {};
        const PickleValue& v = m_values[id];
        if (v.kind != PickleKind::Str && v.kind != PickleKind::Bytes)
            return {};
        const char* base = (v.flags & kOwnedText) ? m_owned.data() : m_source.data();
        return { base + v.bits, v.size };
    }
    // List/Tuple items; Dict: key, value pairs flattened (size() * 2 ids).
    [[gnu::always_inline]] std::span<const PickleId> items(PickleId id) const
    {
        if (!isContainer(id))
            return {};
        const PickleValue& v = m_values[id];
        const std::size_t count = v.kind == PickleKind::Dict ? std::size_t(v.size) * 2 : v.size;
        if (count == 0)
            return {};
        return { m_items.data() + static_cast<std::uint32_t>(v.bits), count };
    }
    // Items of a List/Tuple, pairs of a Dict.
    std::uint32_t size(PickleId id) const { return m_values[id].size; }
    // Dict lookup by string key (linear; for small dicts such as a pg_config record).
    PickleId find(PickleId dict, std::string_view key) const;

    // Building, for the reader and for converting JSON documents into the same model.
    PickleId addNone() { return add(PickleKind::None, 0, 0, 0, 0); }
    PickleId addBool(bool v) { return add(PickleKind::Bool, 0, 0, 0, v ? 1 : 0); }
    PickleId addInt(std::int64_t v, bool overflow = false);
    PickleId addFloat(double v);
    // Text decoded elsewhere: copied into the document (the reader's strings are views
    // into the source passed to reset() instead).
    PickleId addOwnedText(PickleKind kind, std::string_view text);
    PickleId addContainer(PickleKind kind) { return add(kind, 0, 1, 0, 0); }
    // Appends items (for a Dict: key, value, key, value, ...). False when a limit is hit.
    bool append(PickleId container, const PickleId* ids, std::size_t count);
    void markSalvaged(PickleId id) { m_values[id].flags |= kSalvaged; }

    void setLimits(std::size_t maxValues, std::size_t maxItems, std::uint16_t maxDepth);
    // Why the last add/append failed.
    const std::string& limitError() const { return m_limitError; }

private:
    friend class PickleMachine;
    PickleId add(PickleKind kind, std::uint8_t flags, std::uint16_t depth, std::uint32_t size,
        std::uint64_t bits);
    [[gnu::cold]] void setLimitError(std::string message);
    void finishAppend(PickleId container, std::uint32_t first, std::size_t capacity,
        std::size_t used, const PickleId* ids, std::size_t count);

    std::string_view m_source;
    std::string m_owned;
    // The ids of the dicts copied so far (picklerepeats.h) lie in [m_copiedFrom, m_copiedTo):
    // an append to a container there may change a copy (PickleResult::copiesChanged).
    PickleId m_copiedFrom = kNoPickleValue;
    PickleId m_copiedTo = 0;
    bool m_copiesChanged = false;
    // The first m_valueCount values and m_itemCount item ids are the document; the slots
    // after them are spare room. A scratch document reused across reads keeps its slots,
    // so the reader writes into them through plain pointers (no per-value capacity check,
    // no re-initialisation) and only a read larger than any before grows them.
    std::vector<PickleValue> m_values;
    std::size_t m_valueCount = 0;
    std::vector<PickleId> m_items;
    std::size_t m_itemCount = 0;
    // The reader's stack, MARK positions and memo, kept here for the same reason; the
    // reader tracks how much of each is in use.
    std::vector<PickleId> m_stack;
    std::vector<std::uint32_t> m_marks;
    std::vector<PickleId> m_memo;
    std::size_t m_maxValues = 8u << 20;
    std::size_t m_maxItems = 32u << 20;
    std::uint16_t m_maxDepth = 256;
    std::string m_limitError;
};

struct PickleLimits {
    std::uint16_t maxDepth = 256; // nesting of containers and of open MARKs
    std::size_t maxValues = 8u << 20; // 128 MiB of values: ~100k FR entries
    std::size_t maxItems = 32u << 20; // container slots (incl. memo/DUP references)
};

// A dict the fast loop copied from an earlier one (picklerepeats.h) instead of reading its
// opcodes. Its `values` values, from `dict` on, are those of `source` at the time of the copy,
// moved, except the numbers: their offsets from the dict are copyOffsets[numbers] onwards
// (`numberCount` of them); its containers' offsets are copyOffsets[containers] onwards. A
// hint for mappers: either dict may have grown since.
struct PickleCopy {
    PickleId dict = kNoPickleValue;
    PickleId source = kNoPickleValue;
    std::uint32_t values = 0;
    std::uint32_t numbers = 0;
    std::uint32_t numberCount = 0;
    std::uint32_t containers = 0;
    std::uint32_t containerCount = 0;
    // The item slots each one's containers were given when made ([first, first + items)):
    // a container appended to since has left them, or grown past them.
    std::uint32_t items = 0;
    std::size_t firstItem = 0;
    std::size_t sourceFirstItem = 0;
};

struct PickleResult {
    PickleDocument document;
    PickleId root = kNoPickleValue; // what STOP returned, else the outermost value read
    int protocol = -1;
    bool complete = false; // STOP reached without error
    bool truncated = false; // the input ended before STOP
    bool refused = false; // an opcode outside the data-only set was met
    std::string error; // empty when complete
    std::size_t errorOffset = 0;
    std::vector<PickleCopy> copies; // in the order made (dict ids ascending)
    std::vector<std::uint32_t> copyOffsets;
    // Some container among the copies' values may have had items appended since it was
    // copied: a mapper must check each copy is still as copied. False: none was.
    bool copiesChanged = false;
};

// Fast: the hot opcodes in the register loop, the rest through step(). Reference: step()
// alone, for tests that check the fast loop changes nothing.
enum class PickleReaderPath : std::uint8_t { Fast, Reference };

// Reads `bytes` into `result`, reusing its buffers. `bytes` must outlive the document
// (strings are views into it). Never throws.
void readPickle(std::string_view bytes, PickleResult& result, const PickleLimits& limits = {},
    PickleReaderPath path = PickleReaderPath::Fast);

// "REDUCE", "BINUNICODE", ... ; "0x.." for bytes that are no pickle opcode.
std::string pickleOpcodeName(std::uint8_t opcode);

} // namespace rankscope::parsers
