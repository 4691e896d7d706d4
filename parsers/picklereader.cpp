#include "parsers/picklereader.h"

#include "parsers/pickleopcodes.h"
#include "parsers/picklerepeats.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>
#include <limits>
#include <new>

namespace rankscope::parsers {

// ---------------------------------------------------------------------------------------
// Document

void PickleDocument::reset(std::string_view source)
{
    m_source = source;
    m_owned.clear();
    m_copiedFrom = kNoPickleValue;
    m_copiedTo = 0;
    m_copiesChanged = false;
    m_valueCount = 0;
    m_itemCount = 0;
    m_limitError.clear();
}

void PickleDocument::setLimits(std::size_t maxValues, std::size_t maxItems, std::uint16_t maxDepth)
{
    m_maxValues = maxValues;
    m_maxItems = maxItems;
    m_maxDepth = maxDepth;
}

bool PickleDocument::real(PickleId id, double& out) const
{
    if (id >= m_valueCount)
        return false;
    const PickleValue& v = m_values[id];
    if (v.kind == PickleKind::Float) {
        out = std::bit_cast<double>(v.bits);
        return true;
    }
    if (v.kind == PickleKind::Int) {
        out = static_cast<double>(static_cast<std::int64_t>(v.bits));
        return true;
    }
    return false;
}

PickleId PickleDocument::find(PickleId dict, std::string_view key) const
{
    if (!is(dict, PickleKind::Dict))
        return kNoPickleValue;
    const auto pairs = items(dict);
    PickleId found = kNoPickleValue;
    // A later SETITEM for the same key wins, as in Python.
    for (std::size_t i = 0; i + 1 < pairs.size(); i += 2)
        if (is(pairs[i], PickleKind::Str) && text(pairs[i]) == key)
            found = pairs[i + 1];
    return found;
}

void PickleDocument::setLimitError(std::string message)
{
    m_limitError = std::move(message);
}

namespace {

// Makes `slots` hold at least `needed` elements. The slots are the storage behind a count
// kept elsewhere (see PickleDocument), so growing sizes the vector itself; doubling keeps
// a run of appends amortised O(1).
template <typename T> void ensureSlots(std::vector<T>& slots, std::size_t needed)
{
    if (slots.size() < needed)
        slots.resize(std::max({ needed, slots.size() * 2, std::size_t(64) }));
}

} // namespace

PickleId PickleDocument::add(PickleKind kind, std::uint8_t flags, std::uint16_t depth,
    std::uint32_t size, std::uint64_t bits)
{
    if (m_valueCount >= m_maxValues) [[unlikely]] {
        setLimitError("more than " + std::to_string(m_maxValues) + " values");
        return kNoPickleValue;
    }
    ensureSlots(m_values, m_valueCount + 1);
    m_values[m_valueCount] = PickleValue { kind, flags, depth, size, bits };
    return static_cast<PickleId>(m_valueCount++);
}

PickleId PickleDocument::addInt(std::int64_t v, bool overflow)
{
    return add(PickleKind::Int, overflow ? kIntOverflow : 0, 0, 0, static_cast<std::uint64_t>(v));
}

PickleId PickleDocument::addFloat(double v)
{
    return add(PickleKind::Float, 0, 0, 0, std::bit_cast<std::uint64_t>(v));
}

PickleId PickleDocument::addOwnedText(PickleKind kind, std::string_view text)
{
    if (m_owned.size() + text.size() > std::numeric_limits<std::uint32_t>::max()) {
        setLimitError("decoded text over 4 GiB");
        return kNoPickleValue;
    }
    const PickleId id
        = add(kind, kOwnedText, 0, static_cast<std::uint32_t>(text.size()), m_owned.size());
    if (id != kNoPickleValue)
        m_owned.append(text);
    return id;
}

bool PickleDocument::append(PickleId container, const PickleId* ids, std::size_t count)
{
    const PickleValue* v = &m_values[container];
    const bool dict = v->kind == PickleKind::Dict;
    const std::size_t used = dict ? std::size_t(v->size) * 2 : v->size;
    auto first = static_cast<std::uint32_t>(v->bits);
    std::size_t capacity = static_cast<std::uint32_t>(v->bits >> 32);
    if (count == 0)
        return true;
    if (container >= m_copiedFrom && container < m_copiedTo)
        m_copiesChanged = true;
    if (m_itemCount + count > m_maxItems) [[unlikely]] {
        setLimitError("more than " + std::to_string(m_maxItems) + " container items");
        return false;
    }
    if (used + count > capacity) {
        if (capacity == 0 || first + capacity == m_itemCount) {
            // The container's slots end the array: grow in place (the common case: items
            // are appended right after they were built).
            if (capacity == 0)
                first = static_cast<std::uint32_t>(m_itemCount);
            capacity = used + count;
            m_itemCount = first + capacity;
        } else {
            // Move to the end with room to spare, so appending to a container that is
            // not the last one built stays amortised O(1) (hostile files do this).
            const std::size_t newCapacity
                = std::max({ used + count, capacity * 2, std::size_t(4) });
            if (m_itemCount + newCapacity > m_maxItems) {
                setLimitError("more than " + std::to_string(m_maxItems) + " container items");
                return false;
            }
            const auto newFirst = static_cast<std::uint32_t>(m_itemCount);
            ensureSlots(m_items, m_itemCount + newCapacity);
            std::copy_n(m_items.begin() + first, used, m_items.begin() + newFirst);
            first = newFirst;
            capacity = newCapacity;
            m_itemCount += newCapacity;
        }
        ensureSlots(m_items, m_itemCount);
    }
    std::copy_n(ids, count, m_items.begin() + first + used);
    finishAppend(container, first, capacity, used + count, ids, count);
    return m_values[container].depth <= m_maxDepth;
}

void PickleDocument::finishAppend(PickleId container, std::uint32_t first, std::size_t capacity,
    std::size_t used, const PickleId* ids, std::size_t count)
{
    PickleValue& v = m_values[container];
    std::uint16_t depth = v.depth;
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint16_t itemDepth = m_values[ids[i]].depth;
        if (itemDepth >= depth)
            depth = static_cast<std::uint16_t>(std::min<int>(itemDepth + 1, 0xffff));
    }
    if (depth > m_maxDepth) [[unlikely]]
        setLimitError("containers nested deeper than " + std::to_string(m_maxDepth) + " levels");
    v.depth = depth;
    v.size = static_cast<std::uint32_t>(v.kind == PickleKind::Dict ? used / 2 : used);
    v.bits = first | (static_cast<std::uint64_t>(capacity) << 32);
}

// ---------------------------------------------------------------------------------------
// Opcodes

namespace {

namespace op = pickle::op;
using pickle::decodeLong;
using pickle::loadBe8;
using pickle::loadLe;

struct OpcodeName {
    std::uint8_t code;
    const char* name;
};

constexpr OpcodeName kOpcodeNames[] = {
    { op::kMark, "MARK" },
    { op::kStop, "STOP" },
    { op::kPop, "POP" },
    { op::kPopMark, "POP_MARK" },
    { op::kDup, "DUP" },
    { op::kFloat, "FLOAT" },
    { op::kInt, "INT" },
    { op::kBinInt, "BININT" },
    { op::kBinInt1, "BININT1" },
    { op::kLong, "LONG" },
    { op::kBinInt2, "BININT2" },
    { op::kNone, "NONE" },
    { op::kPersId, "PERSID" },
    { op::kBinPersId, "BINPERSID" },
    { op::kReduce, "REDUCE" },
    { op::kString, "STRING" },
    { op::kBinString, "BINSTRING" },
    { op::kShortBinString, "SHORT_BINSTRING" },
    { op::kUnicode, "UNICODE" },
    { op::kBinUnicode, "BINUNICODE" },
    { op::kAppend, "APPEND" },
    { op::kBuild, "BUILD" },
    { op::kGlobal, "GLOBAL" },
    { op::kDict, "DICT" },
    { op::kEmptyDict, "EMPTY_DICT" },
    { op::kAppends, "APPENDS" },
    { op::kGet, "GET" },
    { op::kBinGet, "BINGET" },
    { op::kInst, "INST" },
    { op::kLongBinGet, "LONG_BINGET" },
    { op::kList, "LIST" },
    { op::kEmptyList, "EMPTY_LIST" },
    { op::kObj, "OBJ" },
    { op::kPut, "PUT" },
    { op::kBinPut, "BINPUT" },
    { op::kLongBinPut, "LONG_BINPUT" },
    { op::kSetItem, "SETITEM" },
    { op::kTuple, "TUPLE" },
    { op::kEmptyTuple, "EMPTY_TUPLE" },
    { op::kSetItems, "SETITEMS" },
    { op::kBinFloat, "BINFLOAT" },
    { op::kProto, "PROTO" },
    { op::kNewObj, "NEWOBJ" },
    { op::kExt1, "EXT1" },
    { op::kExt2, "EXT2" },
    { op::kExt4, "EXT4" },
    { op::kTuple1, "TUPLE1" },
    { op::kTuple2, "TUPLE2" },
    { op::kTuple3, "TUPLE3" },
    { op::kNewTrue, "NEWTRUE" },
    { op::kNewFalse, "NEWFALSE" },
    { op::kLong1, "LONG1" },
    { op::kLong4, "LONG4" },
    { op::kBinBytes, "BINBYTES" },
    { op::kShortBinBytes, "SHORT_BINBYTES" },
    { op::kShortBinUnicode, "SHORT_BINUNICODE" },
    { op::kBinUnicode8, "BINUNICODE8" },
    { op::kBinBytes8, "BINBYTES8" },
    { op::kEmptySet, "EMPTY_SET" },
    { op::kAddItems, "ADDITEMS" },
    { op::kFrozenSet, "FROZENSET" },
    { op::kNewObjEx, "NEWOBJ_EX" },
    { op::kStackGlobal, "STACK_GLOBAL" },
    { op::kMemoize, "MEMOIZE" },
    { op::kFrame, "FRAME" },
    { op::kByteArray8, "BYTEARRAY8" },
    { op::kNextBuffer, "NEXT_BUFFER" },
    { op::kReadonlyBuffer, "READONLY_BUFFER" },
};

// Printable ASCII only, bounded: names from a hostile file go into messages.
std::string sanitized(std::string_view s, std::size_t limit = 60)
{
    std::string out;
    for (const char c : s.substr(0, limit))
        out += (c >= 0x20 && c < 0x7f) ? c : '?';
    if (s.size() > limit)
        out += "...";
    return out;
}

// Appends the UTF-8 encoding of a code point (lone surrogates are kept as Python's
// 'surrogatepass' would, rather than dropped).
void appendUtf8(std::string& out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xc0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xe0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
        out += static_cast<char>(0xf0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    }
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool readHexDigits(std::string_view s, std::size_t& i, int digits, std::uint32_t& out)
{
    if (i + static_cast<std::size_t>(digits) > s.size())
        return false;
    out = 0;
    for (int k = 0; k < digits; ++k) {
        const int h = hexValue(s[i + static_cast<std::size_t>(k)]);
        if (h < 0)
            return false;
        out = (out << 4) | static_cast<std::uint32_t>(h);
    }
    i += static_cast<std::size_t>(digits);
    return true;
}

// UNICODE (protocol 0): raw-unicode-escape, i.e. latin-1 bytes plus \uXXXX / \UXXXXXXXX.
bool decodeRawUnicodeEscape(std::string_view s, std::string& out)
{
    out.clear();
    for (std::size_t i = 0; i < s.size();) {
        const char c = s[i];
        if (c == '\\' && i + 1 < s.size() && (s[i + 1] == 'u' || s[i + 1] == 'U')) {
            const int digits = s[i + 1] == 'u' ? 4 : 8;
            std::size_t j = i + 2;
            std::uint32_t cp = 0;
            if (!readHexDigits(s, j, digits, cp) || cp > 0x10ffff)
                return false;
            appendUtf8(out, cp);
            i = j;
            continue;
        }
        appendUtf8(out, static_cast<unsigned char>(c));
        ++i;
    }
    return true;
}

// STRING (protocol 0): a quoted Python 2 str literal with backslash escapes.
bool decodeQuotedString(std::string_view s, std::string& out)
{
    if (s.size() < 2 || (s.front() != '\'' && s.front() != '"') || s.back() != s.front())
        return false;
    s = s.substr(1, s.size() - 2);
    out.clear();
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '\\' || i + 1 == s.size()) {
            out += s[i];
            continue;
        }
        const char e = s[++i];
        switch (e) {
        case 'n':
            out += '\n';
            break;
        case 't':
            out += '\t';
            break;
        case 'r':
            out += '\r';
            break;
        case 'a':
            out += '\a';
            break;
        case 'b':
            out += '\b';
            break;
        case 'f':
            out += '\f';
            break;
        case 'v':
            out += '\v';
            break;
        case '\n':
            break;
        case 'x': {
            std::size_t j = i + 1;
            std::uint32_t v = 0;
            if (!readHexDigits(s, j, 2, v))
                return false;
            out += static_cast<char>(v);
            i = j - 1;
            break;
        }
        default:
            if (e >= '0' && e <= '7') {
                std::uint32_t v = 0;
                std::size_t j = i;
                for (int k = 0; k < 3 && j < s.size() && s[j] >= '0' && s[j] <= '7'; ++k, ++j)
                    v = v * 8 + static_cast<std::uint32_t>(s[j] - '0');
                out += static_cast<char>(v & 0xff);
                i = j - 1;
            } else if (e == '\\' || e == '\'' || e == '"') {
                out += e;
            } else {
                out += '\\';
                out += e;
            }
        }
    }
    return true;
}

// Decimal integer text of any length: clamped to int64, `overflow` set when clamped.
bool parseDecimal(std::string_view s, std::int64_t& value, bool& overflow)
{
    overflow = false;
    bool negative = false;
    std::size_t i = 0;
    if (i < s.size() && (s[i] == '-' || s[i] == '+'))
        negative = s[i++] == '-';
    if (i == s.size())
        return false;
    std::uint64_t magnitude = 0;
    for (; i < s.size(); ++i) {
        const char c = s[i];
        if (c < '0' || c > '9')
            return false;
        const auto digit = static_cast<std::uint64_t>(c - '0');
        if (magnitude > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
            overflow = true;
        else
            magnitude = magnitude * 10 + digit;
    }
    const std::uint64_t limit = negative
        ? std::uint64_t(1) << 63
        : static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (overflow || magnitude > limit) {
        overflow = true;
        magnitude = limit;
    }
    value = negative ? static_cast<std::int64_t>(0 - magnitude)
                     : static_cast<std::int64_t>(magnitude);
    return true;
}

} // namespace

// The stack machine. step() executes the opcode at m_p the plain way: it is the definition
// of what the reader does, and the reference path runs it alone. run() alternates between
// runFast(), which takes the opcodes dumps are made of with its state in locals, over
// stretches sized by fastBudget(), and step() for whatever runFast() leaves.
class PickleMachine {
public:
    PickleMachine(std::string_view bytes, PickleResult& result, const PickleLimits& limits)
        : m_begin(reinterpret_cast<const std::uint8_t*>(bytes.data()))
        , m_p(m_begin)
        , m_end(m_begin + bytes.size())
        , m_result(result)
        , m_doc(result.document)
        , m_limits(limits)
        , m_stack(result.document.m_stack)
        , m_marks(result.document.m_marks)
        , m_memo(result.document.m_memo)
    {
        // Room for what a dump of this size usually holds (a value per 5 to 6 bytes), so
        // a first read regrows rarely; a scratch document keeps its slots for the next.
        const std::size_t guess = bytes.size() / 4 + 64;
        ensureSlots(m_doc.m_values, std::min(guess, limits.maxValues));
        ensureSlots(m_doc.m_items, std::min(guess, limits.maxItems));
    }

    // Both read to STOP, an error or the end of the input.
    void run();
    void runReference();
    void salvage();

private:
    using Ptr = const std::uint8_t*;

    // The fast loop (see run()).
    std::size_t fastBudget();
    void runFast(Ptr stop);

    // One opcode through step(); false once reading is over (STOP, an error, no more input).
    bool stepOrFinish();
    bool step();

    std::size_t remaining() const { return static_cast<std::size_t>(m_end - m_p); }
    // The n-byte little-endian number at the read position, which moves past it; false
    // (nothing read) when fewer than n bytes are left.
    bool takeLe(int n, std::uint64_t& value)
    {
        if (remaining() < static_cast<std::size_t>(n))
            return false;
        value = loadLe(m_p, n);
        m_p += n;
        return true;
    }
    std::size_t floor() const { return m_markCount == 0 ? 0 : m_marks[m_markCount - 1]; }
    void pushId(PickleId id)
    {
        ensureSlots(m_stack, m_top + 1);
        m_stack[m_top++] = id;
    }
    // New value on the stack; false (error set) when the value limit is reached.
    bool pushValue(
        PickleKind kind, std::uint8_t flags, std::uint32_t size, std::uint64_t bits, std::size_t at)
    {
        const std::uint16_t depth = kind >= PickleKind::List ? 1 : 0;
        const PickleId id = m_doc.add(kind, flags, depth, size, bits);
        if (id == kNoPickleValue)
            return limitHit(at);
        pushId(id);
        return true;
    }
    bool pushInt(std::int64_t v, bool overflow, std::size_t at)
    {
        return pushValue(PickleKind::Int, overflow ? PickleDocument::kIntOverflow : 0, 0,
            static_cast<std::uint64_t>(v), at);
    }
    bool pushSourceText(PickleKind kind, std::uint64_t length, std::size_t at, std::uint8_t code);
    bool memoGet(std::uint64_t index, std::size_t at, std::uint8_t code);
    bool memoPut(std::uint64_t index, std::size_t at, std::uint8_t code);
    // APPEND/APPENDS/SETITEM/SETITEMS: the items above `start` go into the container below them.
    bool appendToTop(PickleKind expected, std::size_t start, std::size_t at, std::uint8_t code);
    bool tupleOf(std::size_t count, std::size_t at, std::uint8_t code);
    bool markStart(std::size_t& start, std::size_t at, std::uint8_t code);
    bool buildFromMark(PickleKind kind, std::size_t at, std::uint8_t code);
    bool textOp(std::uint8_t code, std::size_t at);
    bool line(std::string_view& out, std::size_t at, std::uint8_t code);
    bool global(std::uint8_t code, std::size_t at);

    // Error paths: out of line.
    [[gnu::cold, gnu::noinline]] bool fail(std::size_t at, std::string message);
    [[gnu::cold, gnu::noinline]] bool truncated(std::size_t at, std::uint8_t code);
    [[gnu::cold, gnu::noinline]] bool lengthBeyondEnd(
        std::size_t at, std::uint8_t code, std::uint64_t length);
    [[gnu::cold, gnu::noinline]] bool refuse(
        std::size_t at, std::uint8_t code, std::string_view detail = {});
    [[gnu::cold, gnu::noinline]] bool limitHit(std::size_t at);
    [[gnu::cold, gnu::noinline]] bool badMemoGet(
        std::size_t at, std::uint8_t code, std::uint64_t index);
    [[gnu::cold, gnu::noinline]] bool noValue(std::size_t at, std::uint8_t code);
    [[gnu::cold, gnu::noinline]] bool noContainer(std::size_t at, std::uint8_t code);
    [[gnu::cold, gnu::noinline]] bool wrongContainer(
        std::size_t at, std::uint8_t code, PickleKind expected);

    Ptr m_begin;
    Ptr m_p;
    Ptr m_end;
    PickleResult& m_result;
    PickleDocument& m_doc;
    const PickleLimits& m_limits;
    // Slots of the document's working arrays; the counts say how much is in use.
    std::vector<PickleId>& m_stack;
    std::vector<std::uint32_t>& m_marks;
    std::vector<PickleId>& m_memo;
    std::size_t m_top = 0;
    std::size_t m_markCount = 0;
    // Memo slots up to the highest one stored; those never stored hold kNoPickleValue.
    std::size_t m_memoSize = 0;
    std::size_t m_memoCount = 0; // slots in use: MEMOIZE stores at len(memo), as Python does
    std::string m_scratch;
    bool m_stopped = false;
    RepeatedDicts m_repeats { m_result.copies, m_result.copyOffsets }; // the fast loop's copies
};

bool PickleMachine::fail(std::size_t at, std::string message)
{
    if (m_result.error.empty()) {
        m_result.error = std::move(message);
        m_result.errorOffset = at;
    }
    return false;
}

bool PickleMachine::truncated(std::size_t at, std::uint8_t code)
{
    m_result.truncated = true;
    return fail(at,
        "pickle ends inside " + pickleOpcodeName(code) + " at byte " + std::to_string(at) + " ("
            + std::to_string(m_end - m_begin) + " bytes): the dump is truncated");
}

bool PickleMachine::lengthBeyondEnd(std::size_t at, std::uint8_t code, std::uint64_t length)
{
    m_result.truncated = true;
    return fail(at,
        pickleOpcodeName(code) + " at byte " + std::to_string(at) + " declares "
            + std::to_string(length) + " bytes but only " + std::to_string(remaining())
            + " remain: the dump is truncated or corrupt");
}

bool PickleMachine::refuse(std::size_t at, std::uint8_t code, std::string_view detail)
{
    m_result.refused = true;
    std::string name = pickleOpcodeName(code);
    if (!detail.empty())
        name += " (" + sanitized(detail) + ")";
    return fail(at,
        "pickle opcode " + name + " at byte " + std::to_string(at)
            + " is not allowed: Rankscope never executes code from a dump");
}

bool PickleMachine::limitHit(std::size_t at)
{
    return fail(at, "pickle refused at byte " + std::to_string(at) + ": " + m_doc.limitError());
}

bool PickleMachine::badMemoGet(std::size_t at, std::uint8_t code, std::uint64_t index)
{
    return fail(at,
        "malformed pickle: " + pickleOpcodeName(code) + " at byte " + std::to_string(at)
            + " reads memo slot " + std::to_string(index) + " that was never stored");
}

bool PickleMachine::noValue(std::size_t at, std::uint8_t code)
{
    return fail(at,
        "malformed pickle: " + pickleOpcodeName(code) + " at byte " + std::to_string(at)
            + " finds no value on the stack");
}

bool PickleMachine::noContainer(std::size_t at, std::uint8_t code)
{
    return fail(at,
        "malformed pickle: " + pickleOpcodeName(code) + " at byte " + std::to_string(at)
            + " finds no container on the stack");
}

bool PickleMachine::wrongContainer(std::size_t at, std::uint8_t code, PickleKind expected)
{
    return fail(at,
        "malformed pickle: " + pickleOpcodeName(code) + " at byte " + std::to_string(at)
            + " applied to a value that is not a "
            + (expected == PickleKind::Dict ? "dict" : "list"));
}

bool PickleMachine::line(std::string_view& out, std::size_t at, std::uint8_t code)
{
    const void* nl = std::memchr(m_p, '\n', remaining());
    if (nl == nullptr)
        return truncated(at, code);
    const auto* stop = static_cast<Ptr>(nl);
    out = std::string_view(
        reinterpret_cast<const char*>(m_p), static_cast<std::size_t>(stop - m_p));
    m_p = stop + 1;
    return true;
}

bool PickleMachine::pushSourceText(
    PickleKind kind, std::uint64_t length, std::size_t at, std::uint8_t code)
{
    // The declared length is checked against what is left before anything is read, so a
    // 4 GB BINUNICODE in a 100-byte file is a clean error, not an allocation.
    if (length > remaining())
        return lengthBeyondEnd(at, code, length);
    const auto offset = static_cast<std::uint64_t>(m_p - m_begin);
    m_p += length;
    return pushValue(kind, 0, static_cast<std::uint32_t>(length), offset, at);
}

bool PickleMachine::memoGet(std::uint64_t index, std::size_t at, std::uint8_t code)
{
    if (index >= m_memoSize || m_memo[index] == kNoPickleValue)
        return badMemoGet(at, code, index);
    if (m_top >= m_limits.maxItems)
        return fail(at, "pickle refused at byte " + std::to_string(at) + ": stack too deep");
    pushId(m_memo[index]);
    return true;
}

bool PickleMachine::memoPut(std::uint64_t index, std::size_t at, std::uint8_t code)
{
    if (m_top <= floor())
        return noValue(at, code);
    const PickleId value = m_stack[m_top - 1];
    if (index < m_memoSize) {
        if (m_memo[index] == kNoPickleValue)
            ++m_memoCount;
        m_memo[index] = value;
        m_repeats.memoOverwritten();
        return true;
    }
    // Picklers number memo slots consecutively; a far jump only comes from a hostile file
    // trying to make the reader allocate a 4-billion-entry table.
    if (index > m_memoSize + 65536 || index >= m_limits.maxValues)
        return fail(at,
            "malformed pickle: " + pickleOpcodeName(code) + " at byte " + std::to_string(at)
                + " stores memo slot " + std::to_string(index) + " far beyond the "
                + std::to_string(m_memoSize) + " in use");
    const auto slot = static_cast<std::size_t>(index);
    ensureSlots(m_memo, slot + 1);
    std::fill(m_memo.begin() + static_cast<std::ptrdiff_t>(m_memoSize),
        m_memo.begin() + static_cast<std::ptrdiff_t>(slot), kNoPickleValue);
    m_memo[slot] = value;
    m_memoSize = slot + 1;
    ++m_memoCount;
    return true;
}

bool PickleMachine::appendToTop(
    PickleKind expected, std::size_t start, std::size_t at, std::uint8_t code)
{
    if (start == 0 || start - 1 < floor())
        return noContainer(at, code);
    const PickleId target = m_stack[start - 1];
    if (m_doc.m_values[target].kind != expected)
        return wrongContainer(at, code, expected);
    const std::size_t count = m_top - start;
    if (expected == PickleKind::Dict && count % 2 != 0)
        return fail(at,
            "malformed pickle: " + pickleOpcodeName(code) + " at byte " + std::to_string(at)
                + " with an odd item count");
    if (!m_doc.append(target, m_stack.data() + start, count))
        return limitHit(at);
    m_top = start;
    return true;
}

bool PickleMachine::markStart(std::size_t& start, std::size_t at, std::uint8_t code)
{
    if (m_markCount == 0)
        return fail(at,
            "malformed pickle: " + pickleOpcodeName(code) + " at byte " + std::to_string(at)
                + " without a MARK");
    start = m_marks[--m_markCount];
    return true;
}

bool PickleMachine::buildFromMark(PickleKind kind, std::size_t at, std::uint8_t code)
{
    std::size_t start = 0;
    if (!markStart(start, at, code))
        return false;
    const std::size_t count = m_top - start;
    if (kind == PickleKind::Dict && count % 2 != 0)
        return fail(
            at, "malformed pickle: DICT at byte " + std::to_string(at) + " with an odd item count");
    const PickleId id = m_doc.addContainer(kind);
    if (id == kNoPickleValue || !m_doc.append(id, m_stack.data() + start, count))
        return limitHit(at);
    m_top = start;
    pushId(id);
    return true;
}

bool PickleMachine::tupleOf(std::size_t count, std::size_t at, std::uint8_t code)
{
    if (m_top < floor() + count)
        return fail(at,
            "malformed pickle: " + pickleOpcodeName(code) + " at byte " + std::to_string(at)
                + " finds too few values on the stack");
    const std::size_t start = m_top - count;
    const PickleId id = m_doc.addContainer(PickleKind::Tuple);
    if (id == kNoPickleValue || !m_doc.append(id, m_stack.data() + start, count))
        return limitHit(at);
    m_top = start;
    pushId(id);
    return true;
}

// Protocol 0 opcodes with a text argument.
bool PickleMachine::textOp(std::uint8_t code, std::size_t at)
{
    std::string_view arg;
    if (!line(arg, at, code))
        return false;
    if (!arg.empty() && arg.back() == '\r')
        arg.remove_suffix(1);
    switch (code) {
    case op::kInt: {
        if (arg == "00" || arg == "01")
            return pushValue(PickleKind::Bool, 0, 0, arg == "01" ? 1 : 0, at);
        std::int64_t v = 0;
        bool overflow = false;
        if (!parseDecimal(arg, v, overflow))
            return fail(
                at, "malformed pickle: INT at byte " + std::to_string(at) + " is not a number");
        return pushInt(v, overflow, at);
    }
    case op::kLong: {
        if (!arg.empty() && arg.back() == 'L')
            arg.remove_suffix(1);
        std::int64_t v = 0;
        bool overflow = false;
        if (!parseDecimal(arg, v, overflow))
            return fail(
                at, "malformed pickle: LONG at byte " + std::to_string(at) + " is not a number");
        return pushInt(v, overflow, at);
    }
    case op::kFloat: {
        double v = 0;
        const auto [ptr, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), v);
        if (ec != std::errc() || ptr != arg.data() + arg.size())
            return fail(
                at, "malformed pickle: FLOAT at byte " + std::to_string(at) + " is not a number");
        return pushValue(PickleKind::Float, 0, 0, std::bit_cast<std::uint64_t>(v), at);
    }
    case op::kString:
    case op::kUnicode: {
        const bool ok = code == op::kString ? decodeQuotedString(arg, m_scratch)
                                            : decodeRawUnicodeEscape(arg, m_scratch);
        if (!ok)
            return fail(at,
                "malformed pickle: " + pickleOpcodeName(code) + " at byte " + std::to_string(at)
                    + (code == op::kString ? " is not quoted" : " has a bad escape"));
        const PickleId id = m_doc.addOwnedText(PickleKind::Str, m_scratch);
        if (id == kNoPickleValue)
            return limitHit(at);
        pushId(id);
        return true;
    }
    case op::kGet:
    case op::kPut: {
        std::int64_t index = 0;
        bool overflow = false;
        if (!parseDecimal(arg, index, overflow) || overflow || index < 0)
            return fail(at,
                "malformed pickle: " + pickleOpcodeName(code) + " at byte " + std::to_string(at)
                    + " has a bad memo index");
        return code == op::kGet ? memoGet(static_cast<std::uint64_t>(index), at, code)
                                : memoPut(static_cast<std::uint64_t>(index), at, code);
    }
    default:
        return fail(at, "internal: unexpected text opcode");
    }
}

// GLOBAL / INST name a module attribute to import: refused, but named in the message so
// the user sees what the file tried to run.
bool PickleMachine::global(std::uint8_t code, std::size_t at)
{
    // Both names end with a newline; when they do not (truncated file) the opcode is still
    // what matters.
    const std::string_view rest(reinterpret_cast<const char*>(m_p), remaining());
    const std::size_t firstEnd = rest.find('\n');
    const std::size_t secondEnd
        = firstEnd == std::string_view::npos ? firstEnd : rest.find('\n', firstEnd + 1);
    if (secondEnd == std::string_view::npos)
        return refuse(at, code);
    return refuse(at, code,
        std::string(rest.substr(0, firstEnd)) + "."
            + std::string(rest.substr(firstEnd + 1, secondEnd - firstEnd - 1)));
}

// Every opcode, the plain way: each argument is checked against the bytes left, each
// value against the limits.
bool PickleMachine::step()
{
    const auto at = static_cast<std::size_t>(m_p - m_begin);
    const std::uint8_t code = *m_p++;
    switch (code) {
    case op::kProto: {
        if (remaining() < 1)
            return truncated(at, code);
        const int protocol = *m_p++;
        if (protocol > 5)
            return fail(at,
                "unsupported pickle protocol " + std::to_string(protocol) + " at byte "
                    + std::to_string(at));
        m_result.protocol = protocol;
        return true;
    }
    case op::kFrame: {
        std::uint64_t length = 0;
        if (!takeLe(8, length))
            return truncated(at, code);
        if (length > remaining())
            return truncated(at, code);
        return true;
    }
    case op::kStop:
        m_stopped = true;
        return true;
    case op::kMark:
        if (m_markCount >= m_limits.maxDepth)
            return fail(at,
                "pickle refused at byte " + std::to_string(at) + ": more than "
                    + std::to_string(m_limits.maxDepth) + " nested MARKs");
        ensureSlots(m_marks, m_markCount + 1);
        m_marks[m_markCount++] = static_cast<std::uint32_t>(m_top);
        return true;
    case op::kPop:
        if (m_top > floor()) {
            --m_top;
            return true;
        }
        if (m_markCount > 0) {
            --m_markCount;
            return true;
        }
        return fail(
            at, "malformed pickle: POP at byte " + std::to_string(at) + " on an empty stack");
    case op::kPopMark: {
        std::size_t start = 0;
        if (!markStart(start, at, code))
            return false;
        m_top = start;
        return true;
    }
    case op::kDup:
        if (m_top <= floor())
            return noValue(at, code);
        if (m_top >= m_limits.maxItems)
            return fail(at, "pickle refused at byte " + std::to_string(at) + ": stack too deep");
        pushId(m_stack[m_top - 1]);
        return true;
    case op::kNone:
        return pushValue(PickleKind::None, 0, 0, 0, at);
    case op::kNewTrue:
    case op::kNewFalse:
        return pushValue(PickleKind::Bool, 0, 0, code == op::kNewTrue ? 1 : 0, at);
    case op::kBinInt1:
        if (remaining() < 1)
            return truncated(at, code);
        return pushInt(*m_p++, false, at);
    case op::kBinInt2: {
        std::uint64_t raw = 0;
        if (!takeLe(2, raw))
            return truncated(at, code);
        const auto v = static_cast<std::int64_t>(raw);
        return pushInt(v, false, at);
    }
    case op::kBinInt: {
        std::uint64_t raw = 0;
        if (!takeLe(4, raw))
            return truncated(at, code);
        const auto v = static_cast<std::int32_t>(static_cast<std::uint32_t>(raw));
        return pushInt(v, false, at);
    }
    case op::kLong1: {
        if (remaining() < 1 || remaining() - 1 < *m_p)
            return truncated(at, code);
        const std::size_t n = *m_p++;
        bool overflow = false;
        const std::int64_t v = decodeLong(m_p, n, overflow);
        m_p += n;
        return pushInt(v, overflow, at);
    }
    case op::kLong4: {
        std::uint64_t raw = 0;
        if (!takeLe(4, raw))
            return truncated(at, code);
        const auto n = static_cast<std::int32_t>(static_cast<std::uint32_t>(raw));
        if (n < 0)
            return fail(at,
                "malformed pickle: LONG4 at byte " + std::to_string(at)
                    + " with a negative length");
        if (remaining() < static_cast<std::size_t>(n))
            return truncated(at, code);
        bool overflow = false;
        const std::int64_t v = decodeLong(m_p, static_cast<std::size_t>(n), overflow);
        m_p += n;
        return pushInt(v, overflow, at);
    }
    case op::kBinFloat: {
        if (remaining() < 8)
            return truncated(at, code);
        const std::uint64_t bits = loadBe8(m_p);
        m_p += 8;
        return pushValue(PickleKind::Float, 0, 0, bits, at);
    }
    case op::kInt:
    case op::kLong:
    case op::kFloat:
    case op::kString:
    case op::kUnicode:
    case op::kGet:
    case op::kPut:
        return textOp(code, at);
    case op::kShortBinUnicode:
    case op::kShortBinString:
    case op::kShortBinBytes:
        if (remaining() < 1)
            return truncated(at, code);
        return pushSourceText(
            code == op::kShortBinBytes ? PickleKind::Bytes : PickleKind::Str, *m_p++, at, code);
    case op::kBinUnicode:
    case op::kBinBytes: {
        std::uint64_t length = 0;
        if (!takeLe(4, length))
            return truncated(at, code);
        return pushSourceText(
            code == op::kBinBytes ? PickleKind::Bytes : PickleKind::Str, length, at, code);
    }
    case op::kBinString: {
        std::uint64_t raw = 0;
        if (!takeLe(4, raw))
            return truncated(at, code);
        const auto length = static_cast<std::int32_t>(static_cast<std::uint32_t>(raw));
        if (length < 0)
            return fail(at,
                "malformed pickle: BINSTRING at byte " + std::to_string(at)
                    + " with a negative length");
        return pushSourceText(PickleKind::Str, static_cast<std::uint64_t>(length), at, code);
    }
    case op::kBinUnicode8:
    case op::kBinBytes8: {
        std::uint64_t length = 0;
        if (!takeLe(8, length))
            return truncated(at, code);
        return pushSourceText(
            code == op::kBinBytes8 ? PickleKind::Bytes : PickleKind::Str, length, at, code);
    }
    case op::kEmptyList:
        return pushValue(PickleKind::List, 0, 0, 0, at);
    case op::kEmptyDict:
        return pushValue(PickleKind::Dict, 0, 0, 0, at);
    case op::kEmptyTuple:
        return pushValue(PickleKind::Tuple, 0, 0, 0, at);
    case op::kList:
        return buildFromMark(PickleKind::List, at, code);
    case op::kTuple:
        return buildFromMark(PickleKind::Tuple, at, code);
    case op::kDict:
        return buildFromMark(PickleKind::Dict, at, code);
    case op::kTuple1:
        return tupleOf(1, at, code);
    case op::kTuple2:
        return tupleOf(2, at, code);
    case op::kTuple3:
        return tupleOf(3, at, code);
    case op::kAppend:
        return appendToTop(PickleKind::List, m_top == 0 ? 0 : m_top - 1, at, code);
    case op::kSetItem:
        return appendToTop(PickleKind::Dict, m_top < 2 ? 0 : m_top - 2, at, code);
    case op::kAppends:
    case op::kSetItems: {
        std::size_t start = 0;
        if (!markStart(start, at, code))
            return false;
        return appendToTop(
            code == op::kAppends ? PickleKind::List : PickleKind::Dict, start, at, code);
    }
    case op::kBinGet:
        if (remaining() < 1)
            return truncated(at, code);
        return memoGet(*m_p++, at, code);
    case op::kLongBinGet: {
        std::uint64_t index = 0;
        if (!takeLe(4, index))
            return truncated(at, code);
        return memoGet(index, at, code);
    }
    case op::kMemoize:
        return memoPut(m_memoCount, at, code);
    case op::kBinPut:
        if (remaining() < 1)
            return truncated(at, code);
        return memoPut(*m_p++, at, code);
    case op::kLongBinPut: {
        std::uint64_t index = 0;
        if (!takeLe(4, index))
            return truncated(at, code);
        return memoPut(index, at, code);
    }
    // Everything that imports, calls or builds objects: refused.
    case op::kGlobal:
    case op::kInst:
        return global(code, at);
    case op::kStackGlobal:
    case op::kReduce:
    case op::kBuild:
    case op::kObj:
    case op::kNewObj:
    case op::kNewObjEx:
    case op::kPersId:
    case op::kBinPersId:
    case op::kExt1:
    case op::kExt2:
    case op::kExt4:
    case op::kEmptySet:
    case op::kAddItems:
    case op::kFrozenSet:
    case op::kByteArray8:
    case op::kNextBuffer:
    case op::kReadonlyBuffer:
        return refuse(at, code);
    default:
        return fail(at,
            "not a pickle: unknown opcode " + pickleOpcodeName(code) + " at byte "
                + std::to_string(at));
    }
}

bool PickleMachine::stepOrFinish()
{
    if (m_p >= m_end) {
        const auto bytes = static_cast<std::size_t>(m_end - m_begin);
        m_result.truncated = true;
        fail(bytes,
            "pickle ends at byte " + std::to_string(bytes)
                + " before its STOP opcode: the dump is truncated");
        return false;
    }
    const auto at = static_cast<std::size_t>(m_p - m_begin);
    if (!step())
        return false;
    if (!m_stopped)
        return true;
    if (m_top == 0) {
        fail(at, "malformed pickle: STOP with an empty stack");
        return false;
    }
    m_result.root = m_stack[m_top - 1];
    m_result.complete = true;
    return false;
}

void PickleMachine::runReference()
{
    if (m_end - m_begin > std::numeric_limits<std::uint32_t>::max()) {
        fail(0, "pickle larger than 4 GiB refused");
        return;
    }
    while (stepOrFinish()) { }
}

// How many bytes the fast loop may read from m_p before it looks at the arrays again. Every
// opcode takes at least one byte and adds at most one value, one stack slot and one memo
// slot, and the items it appends come off the stack: with that many spare slots in each
// array, and as far from every limit, the fast paths need no room or limit checks at all.
// 0 sends the next opcode to step(): near the end of the input, near a limit, or when the
// memo has holes (MEMOIZE then numbers slots in a way only step() follows).
std::size_t PickleMachine::fastBudget()
{
    // The fixed-size argument (8 bytes at most: BINFLOAT) of an opcode that starts within
    // the budget is inside the input; only declared lengths need checking.
    constexpr std::size_t kLongestFixed = 1 + 8;
    // Spare slots stay small next to a dump, and a stretch is long enough that the checks
    // here are rare.
    constexpr std::size_t kStretch = 1 << 16;
    const auto left = static_cast<std::size_t>(m_end - m_p);
    const std::size_t maxValues = m_limits.maxValues;
    const std::size_t maxItems = m_limits.maxItems;
    const std::size_t values = m_doc.m_valueCount;
    const std::size_t items = m_doc.m_itemCount + m_top;
    if (left <= kLongestFixed || m_memoCount != m_memoSize || values >= maxValues
        || m_memoSize >= maxValues || items >= maxItems)
        return 0;
    const std::size_t budget = std::min({ left - kLongestFixed, kStretch, maxValues - values,
        maxValues - m_memoSize, maxItems - items });
    ensureSlots(m_doc.m_values, values + budget);
    ensureSlots(m_doc.m_items, items + budget);
    ensureSlots(m_stack, m_top + budget);
    ensureSlots(m_memo, m_memoSize + budget);
    ensureSlots(m_marks, m_limits.maxDepth);
    return budget;
}

#if defined(__GNUC__)
// The opcodes dumps are made of, with the machine state in locals, from m_p until `stop` or
// an opcode whose fast path declines: m_p is then left on that opcode, which has changed
// nothing, for step() to take. Each case does exactly what step() does for its opcode when
// the case's own checks pass; fastBudget() made room for everything else.
void PickleMachine::runFast(Ptr stop)
{
    Ptr p = m_p;
    const Ptr begin = m_begin;
    const Ptr end = m_end;
    PickleValue* const values = m_doc.m_values.data();
    std::size_t valueCount = m_doc.m_valueCount;
    PickleId* const items = m_doc.m_items.data();
    std::size_t itemCount = m_doc.m_itemCount;
    PickleId* const stack = m_stack.data();
    PickleId* top = stack + m_top; // one past the top value
    PickleId* bottom = stack + floor(); // the innermost MARK: values below are out of reach
    std::uint32_t* const marks = m_marks.data();
    std::size_t markCount = m_markCount;
    PickleId* const memo = m_memo.data();
    std::size_t memoSize = m_memoSize;
    const std::uint16_t maxDepth = m_limits.maxDepth;
    m_repeats.beginStretch();
    const DictArrays arrays { begin, values, items, memo, stack };
    PickleId copiedFrom = m_doc.m_copiedFrom;
    PickleId copiedTo = m_doc.m_copiedTo;
    bool copiesChanged = m_doc.m_copiesChanged;

    auto push = [&](PickleKind kind, std::uint8_t flags, std::uint16_t depth, std::uint32_t size,
                    std::uint64_t bits) {
        values[valueCount] = PickleValue { kind, flags, depth, size, bits };
        *top++ = static_cast<PickleId>(valueCount++);
    };
    // APPEND(S)/SETITEM(S): the ids in [from, top) into the container just below `from`,
    // when the container's slots end the item array (the one just opened, or the last one
    // filled) as in PickleDocument::append(); moving a container is left to step(). The ids
    // are copied before the depth is known: into slots past the container's items, which
    // step() fills the same way when the depth check declines.
    auto append = [&](PickleKind kind, PickleId* from, const PickleId* floorBelow) {
        if (from == stack || from - 1 < floorBelow)
            return false;
        PickleValue& v = values[from[-1]];
        const auto count = static_cast<std::size_t>(top - from);
        const bool dict = kind == PickleKind::Dict;
        if (v.kind != kind || (dict && count % 2 != 0))
            return false;
        if (count != 0 && from[-1] >= copiedFrom && from[-1] < copiedTo)
            copiesChanged = true;
        const std::size_t used = dict ? std::size_t(v.size) * 2 : v.size;
        std::size_t first = static_cast<std::uint32_t>(v.bits);
        std::size_t capacity = static_cast<std::uint32_t>(v.bits >> 32);
        std::size_t newItemCount = itemCount;
        if (used + count > capacity) {
            if (capacity != 0 && first + capacity != itemCount)
                return false;
            if (capacity == 0)
                first = itemCount;
            capacity = used + count;
            newItemCount = first + capacity;
        }
        int depth = v.depth;
        PickleId* out = items + first + used;
        for (std::size_t i = 0; i < count; ++i) {
            depth = std::max<int>(depth, values[from[i]].depth + 1);
            out[i] = from[i];
        }
        depth = std::min(depth, 0xffff);
        if (depth > maxDepth)
            return false;
        v.depth = static_cast<std::uint16_t>(depth);
        v.size = static_cast<std::uint32_t>(dict ? (used + count) / 2 : used + count);
        v.bits = static_cast<std::uint32_t>(first) | (static_cast<std::uint64_t>(capacity) << 32);
        itemCount = newItemCount;
        top = from;
        return true;
    };
    auto memoGetFast = [&](std::size_t index) {
        const PickleId id = index < memoSize ? memo[index] : kNoPickleValue;
        if (id == kNoPickleValue)
            return false;
        *top++ = id;
        return true;
    };
    // MEMOIZE, BINPUT and LONG_BINPUT of the next slot: how picklers store.
    auto memoPutFast = [&](std::size_t index) {
        if (top <= bottom || index != memoSize)
            return false;
        memo[memoSize++] = top[-1];
        return true;
    };

    // Strings and containers are memoized right after they are built (MEMOIZE at protocol
    // 4), and a new container is usually followed by the MARK of its first batch: taken
    // here, those opcodes cost a compare instead of a jump through the table. Only opcodes
    // that start before `stop` are taken, so the budget still holds.
    auto memoizeNext = [&]() {
        if (p < stop && *p == op::kMemoize) {
            memo[memoSize++] = top[-1]; // the value just pushed: above any MARK
            ++p;
        }
    };
    auto markNext = [&]() {
        if (p < stop && *p == op::kMark && markCount != maxDepth) {
            marks[markCount++] = static_cast<std::uint32_t>(top - stack);
            bottom = top;
            ++p;
        }
    };
    // APPENDS/SETITEMS: the batch above the innermost MARK, which they pop.
    auto appendBatch = [&](PickleKind kind) {
        PickleId* below = markCount >= 2 ? stack + marks[markCount - 2] : stack;
        if (!append(kind, bottom, below))
            return false;
        --markCount;
        bottom = below;
        return true;
    };
    // TUPLE2 of the two values on top (process_group in every entry).
    auto tuple2Fast = [&]() {
        const PickleId a = top[-2];
        const PickleId b = top[-1];
        const int depth = std::max({ 1, values[a].depth + 1, values[b].depth + 1 });
        if (depth > maxDepth)
            return false;
        items[itemCount] = a;
        items[itemCount + 1] = b;
        values[valueCount] = PickleValue { PickleKind::Tuple, 0, static_cast<std::uint16_t>(depth),
            2, static_cast<std::uint32_t>(itemCount) | (std::uint64_t(2) << 32) };
        itemCount += 2;
        top[-2] = static_cast<PickleId>(valueCount++);
        --top;
        return true;
    };
    // LONG1: 8 bytes for epoch nanoseconds, fewer for small values.
    auto pushLong1 = [&]() {
        const std::size_t n = *p++;
        if (n > static_cast<std::size_t>(end - p))
            return false;
        bool overflow = false;
        const std::int64_t v = decodeLong(p, n, overflow);
        p += n;
        push(PickleKind::Int, overflow ? PickleDocument::kIntOverflow : 0, 0, 0,
            static_cast<std::uint64_t>(v));
        return true;
    };
    // SHORT_BINUNICODE/BINUNICODE, `p` past the length field: a view into the input.
    auto pushText = [&](std::size_t length) {
        if (length > static_cast<std::size_t>(end - p))
            return false;
        push(PickleKind::Str, 0, 0, static_cast<std::uint32_t>(length),
            static_cast<std::uint64_t>(p - begin));
        p += length;
        return true;
    };

    // Threaded dispatch (GNU C labels as values, in GCC and Clang): every handler ends in
    // its own indirect jump to the next opcode's handler, which the branch predictor learns
    // per handler since a dump repeats the same opcode sequences entry after entry. A byte
    // that is not a hot opcode jumps to `declined`.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
    const void* jump[256];
    std::fill(std::begin(jump), std::end(jump), &&declined);
    jump[op::kBinGet] = &&binGet;
    jump[op::kLongBinGet] = &&longBinGet;
    jump[op::kMemoize] = &&memoize;
    jump[op::kBinPut] = &&binPut;
    jump[op::kLongBinPut] = &&longBinPut;
    jump[op::kMark] = &&mark;
    jump[op::kAppends] = &&appends;
    jump[op::kSetItems] = &&setItems;
    jump[op::kAppend] = &&appendOne;
    jump[op::kSetItem] = &&setItem;
    jump[op::kTuple2] = &&tuple2;
    jump[op::kEmptyList] = &&emptyList;
    jump[op::kEmptyDict] = &&emptyDict;
    jump[op::kShortBinUnicode] = &&shortBinUnicode;
    jump[op::kBinUnicode] = &&binUnicode;
    jump[op::kBinInt1] = &&binInt1;
    jump[op::kBinInt2] = &&binInt2;
    jump[op::kBinInt] = &&binInt;
    jump[op::kLong1] = &&long1;
    jump[op::kBinFloat] = &&binFloat;
    jump[op::kNone] = &&none;
    jump[op::kNewTrue] = &&newTrue;
    jump[op::kNewFalse] = &&newFalse;
    Ptr opcode = p;
    // Ends every handler. `opcode` is where a declining handler leaves m_p.
#define RANKSCOPE_NEXT_OPCODE()                                                                    \
    do {                                                                                           \
        if (p >= stop)                                                                             \
            goto finished;                                                                         \
        opcode = p;                                                                                \
        goto* jump[*p++];                                                                          \
    } while (false)

    RANKSCOPE_NEXT_OPCODE();
binGet:
    if (!memoGetFast(*p++))
        goto declined;
    RANKSCOPE_NEXT_OPCODE();
longBinGet:
    p += 4;
    if (!memoGetFast(loadLe(p - 4, 4)))
        goto declined;
    RANKSCOPE_NEXT_OPCODE();
memoize:
    if (!memoPutFast(memoSize))
        goto declined;
    RANKSCOPE_NEXT_OPCODE();
binPut:
    if (!memoPutFast(*p++))
        goto declined;
    RANKSCOPE_NEXT_OPCODE();
longBinPut:
    p += 4;
    if (!memoPutFast(loadLe(p - 4, 4)))
        goto declined;
    RANKSCOPE_NEXT_OPCODE();
mark:
    if (markCount == maxDepth)
        goto declined;
    marks[markCount++] = static_cast<std::uint32_t>(top - stack);
    bottom = top;
    RANKSCOPE_NEXT_OPCODE();
appends:
    if (markCount == 0 || !appendBatch(PickleKind::List))
        goto declined;
    RANKSCOPE_NEXT_OPCODE();
setItems:
    if (markCount == 0 || !appendBatch(PickleKind::Dict))
        goto declined;
    RANKSCOPE_NEXT_OPCODE();
appendOne:
    if (top == stack || !append(PickleKind::List, top - 1, bottom))
        goto declined;
    RANKSCOPE_NEXT_OPCODE();
setItem:
    if (top - stack < 2 || !append(PickleKind::Dict, top - 2, bottom))
        goto declined;
    RANKSCOPE_NEXT_OPCODE();
tuple2:
    if (top - bottom < 2 || !tuple2Fast())
        goto declined;
    memoizeNext();
    RANKSCOPE_NEXT_OPCODE();
emptyList:
    push(PickleKind::List, 0, 1, 0, 0);
    memoizeNext();
    markNext();
    RANKSCOPE_NEXT_OPCODE();
emptyDict:
    // A dict that repeats one read before (picklerepeats.h) is copied, not interpreted.
    if (const DictCopy copied
        = m_repeats.atDict(DictSite { opcode, stop, static_cast<std::size_t>(top - stack),
                               markCount, valueCount, itemCount, memoSize },
            arrays, maxDepth);
        copied.span != 0) {
        copiedFrom = std::min(copiedFrom, static_cast<PickleId>(valueCount));
        *top++ = static_cast<PickleId>(valueCount);
        valueCount += copied.values;
        copiedTo = static_cast<PickleId>(valueCount);
        itemCount += copied.items;
        memoSize += copied.memo;
        p = opcode + copied.span;
        RANKSCOPE_NEXT_OPCODE();
    }
    push(PickleKind::Dict, 0, 1, 0, 0);
    memoizeNext();
    markNext();
    RANKSCOPE_NEXT_OPCODE();
shortBinUnicode:
    p += 1;
    if (!pushText(p[-1]))
        goto declined;
    memoizeNext();
    RANKSCOPE_NEXT_OPCODE();
binUnicode:
    p += 4;
    if (!pushText(loadLe(p - 4, 4)))
        goto declined;
    memoizeNext();
    RANKSCOPE_NEXT_OPCODE();
binInt1:
    push(PickleKind::Int, 0, 0, 0, *p++);
    RANKSCOPE_NEXT_OPCODE();
binInt2:
    push(PickleKind::Int, 0, 0, 0, loadLe(p, 2));
    p += 2;
    RANKSCOPE_NEXT_OPCODE();
binInt:
    push(PickleKind::Int, 0, 0, 0,
        static_cast<std::uint64_t>(
            static_cast<std::int32_t>(static_cast<std::uint32_t>(loadLe(p, 4)))));
    p += 4;
    RANKSCOPE_NEXT_OPCODE();
long1:
    if (!pushLong1())
        goto declined;
    RANKSCOPE_NEXT_OPCODE();
binFloat:
    push(PickleKind::Float, 0, 0, 0, loadBe8(p));
    p += 8;
    RANKSCOPE_NEXT_OPCODE();
none:
    push(PickleKind::None, 0, 0, 0, 0);
    RANKSCOPE_NEXT_OPCODE();
newTrue:
    push(PickleKind::Bool, 0, 0, 0, 1);
    RANKSCOPE_NEXT_OPCODE();
newFalse:
    push(PickleKind::Bool, 0, 0, 0, 0);
    RANKSCOPE_NEXT_OPCODE();
#undef RANKSCOPE_NEXT_OPCODE
#pragma GCC diagnostic pop

declined: // or not a hot opcode: step() takes it from here
    p = opcode;
finished:
    m_p = p;
    m_doc.m_copiedFrom = copiedFrom;
    m_doc.m_copiedTo = copiedTo;
    m_doc.m_copiesChanged = copiesChanged;
    m_doc.m_valueCount = valueCount;
    m_doc.m_itemCount = itemCount;
    m_top = static_cast<std::size_t>(top - stack);
    m_markCount = markCount;
    m_memoSize = m_memoCount = memoSize; // the memo had no holes (fastBudget) and got none
}
#else
// Without labels as values there is no fast loop: run() hands every opcode to step().
void PickleMachine::runFast(Ptr)
{
}
#endif

void PickleMachine::run()
{
    if (m_end - m_begin > std::numeric_limits<std::uint32_t>::max()) {
        fail(0, "pickle larger than 4 GiB refused");
        return;
    }
    for (;;) {
        const std::size_t budget = fastBudget();
        if (budget > 0) {
            const Ptr stop = m_p + budget;
            runFast(stop);
            if (m_p >= stop)
                continue;
        }
        if (!stepOrFinish())
            return;
    }
}

// Closes what is still open after an early end, innermost first, as the pending APPENDS,
// SETITEMS or TUPLE would have: the caller keeps every value that was read completely and
// can tell the ones cut short by their salvaged flag.
void PickleMachine::salvage()
{
    while (m_markCount > 0) {
        const std::size_t start = std::min<std::size_t>(m_marks[m_markCount - 1], m_top);
        --m_markCount;
        std::size_t count = m_top - start;
        const PickleId target = start > 0 ? m_stack[start - 1] : kNoPickleValue;
        if (m_doc.is(target, PickleKind::List) || m_doc.is(target, PickleKind::Dict)) {
            if (m_doc.is(target, PickleKind::Dict))
                count -= count % 2;
            if (!m_doc.append(target, m_stack.data() + start, count))
                break;
            m_doc.markSalvaged(target);
            m_top = start;
        } else {
            const PickleId tuple = m_doc.addContainer(PickleKind::Tuple);
            if (tuple == kNoPickleValue || !m_doc.append(tuple, m_stack.data() + start, count))
                break;
            m_doc.markSalvaged(tuple);
            m_top = start;
            pushId(tuple);
        }
    }
    // The outermost value is the first one pushed (the top-level dict of a dump).
    if (m_top > 0) {
        m_result.root = m_stack[0];
        if (m_doc.isContainer(m_result.root))
            m_doc.markSalvaged(m_result.root);
    }
}

std::string pickleOpcodeName(std::uint8_t opcode)
{
    for (const auto& entry : kOpcodeNames)
        if (entry.code == opcode)
            return entry.name;
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out = "0x";
    out += kHex[opcode >> 4];
    out += kHex[opcode & 15];
    return out;
}

void readPickle(
    std::string_view bytes, PickleResult& result, const PickleLimits& limits, PickleReaderPath path)
{
    result.document.reset(bytes);
    result.document.setLimits(limits.maxValues, limits.maxItems, limits.maxDepth);
    result.root = kNoPickleValue;
    result.protocol = -1;
    result.complete = false;
    result.truncated = false;
    result.refused = false;
    result.error.clear();
    result.errorOffset = 0;
    result.copies.clear();
    result.copyOffsets.clear();
    result.copiesChanged = false;
    try {
        PickleMachine machine(bytes, result, limits);
        if (path == PickleReaderPath::Reference)
            machine.runReference();
        else
            machine.run();
        if (!result.complete)
            machine.salvage();
        result.copiesChanged = result.document.copiesChanged();
    } catch (const std::bad_alloc&) {
        result.copiesChanged = true;
        result.complete = false;
        result.root = kNoPickleValue;
        result.error = "pickle refused: out of memory while reading";
    } catch (...) {
        result.copiesChanged = true;
        result.complete = false;
        result.root = kNoPickleValue;
        result.error = "pickle refused: internal error while reading";
    }
}

} // namespace rankscope::parsers
