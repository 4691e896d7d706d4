#include "parsers/picklereader.h"

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
    m_values.clear();
    m_items.clear();
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
    if (id >= m_values.size())
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

PickleId PickleDocument::add(
    PickleKind kind, std::uint8_t flags, std::uint16_t depth, std::uint64_t bits)
{
    if (m_values.size() >= m_maxValues) [[unlikely]] {
        setLimitError("more than " + std::to_string(m_maxValues) + " values");
        return kNoPickleValue;
    }
    m_values.push_back(PickleValue { kind, flags, depth, 0, bits });
    return static_cast<PickleId>(m_values.size() - 1);
}

PickleId PickleDocument::addInt(std::int64_t v, bool overflow)
{
    return add(PickleKind::Int, overflow ? kIntOverflow : 0, 0, static_cast<std::uint64_t>(v));
}

PickleId PickleDocument::addFloat(double v)
{
    return add(PickleKind::Float, 0, 0, std::bit_cast<std::uint64_t>(v));
}

PickleId PickleDocument::addOwnedText(PickleKind kind, std::string_view text)
{
    if (m_owned.size() + text.size() > std::numeric_limits<std::uint32_t>::max()) {
        setLimitError("decoded text over 4 GiB");
        return kNoPickleValue;
    }
    const PickleId id = add(kind, kOwnedText, 0, m_owned.size());
    if (id != kNoPickleValue) {
        m_owned.append(text);
        m_values[id].size = static_cast<std::uint32_t>(text.size());
    }
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
    if (m_items.size() + count > m_maxItems) [[unlikely]] {
        setLimitError("more than " + std::to_string(m_maxItems) + " container items");
        return false;
    }
    if (used + count > capacity) {
        if (capacity == 0 || first + capacity == m_items.size()) {
            // The container's slots end the array: grow in place (the common case: items
            // are appended right after they were built).
            if (capacity == 0)
                first = static_cast<std::uint32_t>(m_items.size());
            m_items.resize(first + used);
            m_items.insert(m_items.end(), ids, ids + count);
            capacity = used + count;
            finishAppend(container, first, capacity, used + count, ids, count);
            return m_values[container].depth <= m_maxDepth;
        } else {
            // Move to the end with room to spare, so appending to a container that is
            // not the last one built stays amortised O(1) (hostile files do this).
            const std::size_t newCapacity
                = std::max({ used + count, capacity * 2, std::size_t(4) });
            if (m_items.size() + newCapacity > m_maxItems) {
                setLimitError("more than " + std::to_string(m_maxItems) + " container items");
                return false;
            }
            const auto newFirst = static_cast<std::uint32_t>(m_items.size());
            m_items.resize(m_items.size() + newCapacity);
            std::copy_n(m_items.begin() + first, used, m_items.begin() + newFirst);
            first = newFirst;
            capacity = newCapacity;
        }
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

namespace op {
constexpr std::uint8_t kMark = '(';
constexpr std::uint8_t kStop = '.';
constexpr std::uint8_t kPop = '0';
constexpr std::uint8_t kPopMark = '1';
constexpr std::uint8_t kDup = '2';
constexpr std::uint8_t kFloat = 'F';
constexpr std::uint8_t kInt = 'I';
constexpr std::uint8_t kBinInt = 'J';
constexpr std::uint8_t kBinInt1 = 'K';
constexpr std::uint8_t kLong = 'L';
constexpr std::uint8_t kBinInt2 = 'M';
constexpr std::uint8_t kNone = 'N';
constexpr std::uint8_t kPersId = 'P';
constexpr std::uint8_t kBinPersId = 'Q';
constexpr std::uint8_t kReduce = 'R';
constexpr std::uint8_t kString = 'S';
constexpr std::uint8_t kBinString = 'T';
constexpr std::uint8_t kShortBinString = 'U';
constexpr std::uint8_t kUnicode = 'V';
constexpr std::uint8_t kBinUnicode = 'X';
constexpr std::uint8_t kAppend = 'a';
constexpr std::uint8_t kBuild = 'b';
constexpr std::uint8_t kGlobal = 'c';
constexpr std::uint8_t kDict = 'd';
constexpr std::uint8_t kEmptyDict = '}';
constexpr std::uint8_t kAppends = 'e';
constexpr std::uint8_t kGet = 'g';
constexpr std::uint8_t kBinGet = 'h';
constexpr std::uint8_t kInst = 'i';
constexpr std::uint8_t kLongBinGet = 'j';
constexpr std::uint8_t kList = 'l';
constexpr std::uint8_t kEmptyList = ']';
constexpr std::uint8_t kObj = 'o';
constexpr std::uint8_t kPut = 'p';
constexpr std::uint8_t kBinPut = 'q';
constexpr std::uint8_t kLongBinPut = 'r';
constexpr std::uint8_t kSetItem = 's';
constexpr std::uint8_t kTuple = 't';
constexpr std::uint8_t kEmptyTuple = ')';
constexpr std::uint8_t kSetItems = 'u';
constexpr std::uint8_t kBinFloat = 'G';
constexpr std::uint8_t kProto = 0x80;
constexpr std::uint8_t kNewObj = 0x81;
constexpr std::uint8_t kExt1 = 0x82;
constexpr std::uint8_t kExt2 = 0x83;
constexpr std::uint8_t kExt4 = 0x84;
constexpr std::uint8_t kTuple1 = 0x85;
constexpr std::uint8_t kTuple2 = 0x86;
constexpr std::uint8_t kTuple3 = 0x87;
constexpr std::uint8_t kNewTrue = 0x88;
constexpr std::uint8_t kNewFalse = 0x89;
constexpr std::uint8_t kLong1 = 0x8a;
constexpr std::uint8_t kLong4 = 0x8b;
constexpr std::uint8_t kBinBytes = 'B';
constexpr std::uint8_t kShortBinBytes = 'C';
constexpr std::uint8_t kShortBinUnicode = 0x8c;
constexpr std::uint8_t kBinUnicode8 = 0x8d;
constexpr std::uint8_t kBinBytes8 = 0x8e;
constexpr std::uint8_t kEmptySet = 0x8f;
constexpr std::uint8_t kAddItems = 0x90;
constexpr std::uint8_t kFrozenSet = 0x91;
constexpr std::uint8_t kNewObjEx = 0x92;
constexpr std::uint8_t kStackGlobal = 0x93;
constexpr std::uint8_t kMemoize = 0x94;
constexpr std::uint8_t kFrame = 0x95;
constexpr std::uint8_t kByteArray8 = 0x96;
constexpr std::uint8_t kNextBuffer = 0x97;
constexpr std::uint8_t kReadonlyBuffer = 0x98;
} // namespace op

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

inline std::uint64_t loadLe(const std::uint8_t* p, int n)
{
    std::uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i)
        v = (v << 8) | p[i];
    return v;
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

// LONG1/LONG4 payload: little-endian two's complement of any length.
[[gnu::always_inline]] inline std::int64_t decodeLong(
    const std::uint8_t* p, std::size_t n, bool& overflow)
{
    overflow = false;
    if (n == 8) // what torch::jit::Pickler and Python write for epoch nanoseconds
        return static_cast<std::int64_t>(loadLe(p, 8));
    if (n == 0)
        return 0;
    const bool negative = (p[n - 1] & 0x80) != 0;
    // Bytes above the low 8 must be pure sign extension, and bit 63 must agree.
    const std::uint8_t fill = negative ? 0xff : 0x00;
    for (std::size_t i = 8; i < n; ++i)
        if (p[i] != fill)
            overflow = true;
    std::uint64_t v = 0;
    const std::size_t low = std::min<std::size_t>(n, 8);
    for (std::size_t i = low; i-- > 0;)
        v = (v << 8) | p[i];
    if (n < 8 && negative)
        v |= ~std::uint64_t(0) << (8 * n);
    if (n > 8 && ((v >> 63) != 0) != negative)
        overflow = true;
    if (overflow)
        return negative ? std::numeric_limits<std::int64_t>::min()
                        : std::numeric_limits<std::int64_t>::max();
    return static_cast<std::int64_t>(v);
}

} // namespace

// The stack machine. Hot opcodes (the ones dumps are made of) are handled inline in run()'s
// switch with their error paths in cold functions, so the common path is a few loads and
// stores per opcode; everything else goes through step().
class PickleMachine {
public:
    PickleMachine(std::string_view bytes, PickleResult& result, const PickleLimits& limits)
        : m_begin(reinterpret_cast<const std::uint8_t*>(bytes.data()))
        , m_p(m_begin)
        , m_end(m_begin + bytes.size())
        , m_result(result)
        , m_doc(result.document)
        , m_limits(limits)
    {
        // Every value needs at least one opcode byte: this bound avoids regrowing.
        const std::size_t guess = std::min(bytes.size() / 2 + 16, limits.maxValues);
        if (m_doc.m_values.capacity() < guess)
            m_doc.m_values.reserve(guess);
        if (m_doc.m_items.capacity() < guess)
            m_doc.m_items.reserve(guess);
    }

    // Flattened: the hot helpers and vector appends are inlined into the dispatch loop; the
    // cold, noinline error paths stay out of it.
    [[gnu::flatten]] void run();
    void salvage();

private:
    using Ptr = const std::uint8_t*;

    std::size_t remaining() const { return static_cast<std::size_t>(m_end - m_p); }
    std::size_t floor() const { return m_marks.empty() ? 0 : m_marks.back(); }
    // New value on the stack; false (error set) when the value limit is reached.
    [[gnu::always_inline]] bool pushValue(
        PickleKind kind, std::uint8_t flags, std::uint32_t size, std::uint64_t bits, std::size_t at)
    {
        auto& values = m_doc.m_values;
        if (values.size() >= m_limits.maxValues) [[unlikely]]
            return tooManyValues(at);
        values.push_back(PickleValue { kind, flags,
            kind >= PickleKind::List ? std::uint16_t(1) : std::uint16_t(0), size, bits });
        m_stack.push_back(static_cast<PickleId>(values.size() - 1));
        return true;
    }
    [[gnu::always_inline]] bool pushInt(std::int64_t v, bool overflow, std::size_t at)
    {
        return pushValue(PickleKind::Int, overflow ? PickleDocument::kIntOverflow : 0, 0,
            static_cast<std::uint64_t>(v), at);
    }
    [[gnu::always_inline]] bool pushSourceText(
        PickleKind kind, std::uint64_t length, std::size_t at, std::uint8_t code)
    {
        // The declared length is checked against what is left before anything is read, so
        // a 4 GB BINUNICODE in a 100-byte file is a clean error, not an allocation.
        if (length > remaining()) [[unlikely]]
            return lengthBeyondEnd(at, code, length);
        const auto offset = static_cast<std::uint64_t>(m_p - m_begin);
        m_p += length;
        return pushValue(kind, 0, static_cast<std::uint32_t>(length), offset, at);
    }
    [[gnu::always_inline]] bool memoGet(std::uint64_t index, std::size_t at, std::uint8_t code)
    {
        if (index >= m_memo.size() || m_memo[index] == kNoPickleValue) [[unlikely]]
            return badMemoGet(at, code, index);
        if (m_stack.size() >= m_limits.maxItems) [[unlikely]]
            return fail(at, "pickle refused at byte " + std::to_string(at) + ": stack too deep");
        m_stack.push_back(m_memo[index]);
        return true;
    }
    [[gnu::always_inline]] bool memoPut(std::uint64_t index, std::size_t at, std::uint8_t code)
    {
        if (m_stack.size() <= floor()) [[unlikely]]
            return noValue(at, code);
        const PickleId value = m_stack.back();
        if (index == m_memo.size() && index < m_limits.maxValues) [[likely]] {
            m_memo.push_back(value);
            ++m_memoCount;
            return true;
        }
        return memoPutSlow(index, value, at, code);
    }
    // APPEND/APPENDS/SETITEM/SETITEMS: the items above `start` go into the container below them.
    [[gnu::always_inline]] bool appendToTop(
        PickleKind expected, std::size_t start, std::size_t at, std::uint8_t code)
    {
        if (start == 0 || start - 1 < floor()) [[unlikely]]
            return noContainer(at, code);
        const PickleId target = m_stack[start - 1];
        if (m_doc.m_values[target].kind != expected) [[unlikely]]
            return wrongContainer(at, code, expected);
        const std::size_t count = m_stack.size() - start;
        if (expected == PickleKind::Dict && count % 2 != 0) [[unlikely]]
            return fail(at,
                "malformed pickle: " + pickleOpcodeName(code) + " at byte " + std::to_string(at)
                    + " with an odd item count");
        if (!m_doc.append(target, m_stack.data() + start, count)) [[unlikely]]
            return limitHit(at);
        m_stack.resize(start);
        return true;
    }
    bool tupleOf(std::size_t count, std::size_t at, std::uint8_t code);
    [[gnu::noinline]] bool markStart(std::size_t& start, std::size_t at, std::uint8_t code);
    [[gnu::noinline]] bool buildFromMark(PickleKind kind, std::size_t at, std::uint8_t code);
    [[gnu::noinline]] bool step(std::uint8_t code, std::size_t at);
    [[gnu::noinline]] bool textOp(std::uint8_t code, std::size_t at);
    bool line(std::string_view& out, std::size_t at, std::uint8_t code);
    [[gnu::noinline]] bool global(std::uint8_t code, std::size_t at);
    [[gnu::noinline]] bool memoPutSlow(
        std::uint64_t index, PickleId value, std::size_t at, std::uint8_t code);

    // Error paths: out of line, so the hot loop stays small.
    [[gnu::cold, gnu::noinline]] bool fail(std::size_t at, std::string message);
    [[gnu::cold, gnu::noinline]] bool truncated(std::size_t at, std::uint8_t code);
    [[gnu::cold, gnu::noinline]] bool lengthBeyondEnd(
        std::size_t at, std::uint8_t code, std::uint64_t length);
    [[gnu::cold, gnu::noinline]] bool refuse(
        std::size_t at, std::uint8_t code, std::string_view detail = {});
    [[gnu::cold, gnu::noinline]] bool limitHit(std::size_t at);
    [[gnu::cold, gnu::noinline]] bool tooManyValues(std::size_t at);
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
    std::vector<PickleId> m_stack;
    std::vector<std::uint32_t> m_marks;
    std::vector<PickleId> m_memo;
    std::size_t m_memoCount = 0; // slots in use: MEMOIZE stores at len(memo), as Python does
    std::string m_scratch;
    bool m_stopped = false;
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

bool PickleMachine::tooManyValues(std::size_t at)
{
    m_doc.setLimitError("more than " + std::to_string(m_limits.maxValues) + " values");
    return limitHit(at);
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

bool PickleMachine::markStart(std::size_t& start, std::size_t at, std::uint8_t code)
{
    if (m_marks.empty())
        return fail(at,
            "malformed pickle: " + pickleOpcodeName(code) + " at byte " + std::to_string(at)
                + " without a MARK");
    start = m_marks.back();
    m_marks.pop_back();
    return true;
}

bool PickleMachine::buildFromMark(PickleKind kind, std::size_t at, std::uint8_t code)
{
    std::size_t start = 0;
    if (!markStart(start, at, code))
        return false;
    const std::size_t count = m_stack.size() - start;
    if (kind == PickleKind::Dict && count % 2 != 0)
        return fail(
            at, "malformed pickle: DICT at byte " + std::to_string(at) + " with an odd item count");
    const PickleId id = m_doc.addContainer(kind);
    if (id == kNoPickleValue || !m_doc.append(id, m_stack.data() + start, count))
        return limitHit(at);
    m_stack.resize(start);
    m_stack.push_back(id);
    return true;
}

bool PickleMachine::tupleOf(std::size_t count, std::size_t at, std::uint8_t code)
{
    if (m_stack.size() < floor() + count) [[unlikely]]
        return fail(at,
            "malformed pickle: " + pickleOpcodeName(code) + " at byte " + std::to_string(at)
                + " finds too few values on the stack");
    const std::size_t start = m_stack.size() - count;
    const PickleId id = m_doc.addContainer(PickleKind::Tuple);
    if (id == kNoPickleValue || !m_doc.append(id, m_stack.data() + start, count)) [[unlikely]]
        return limitHit(at);
    m_stack.resize(start);
    m_stack.push_back(id);
    return true;
}

bool PickleMachine::memoPutSlow(
    std::uint64_t index, PickleId value, std::size_t at, std::uint8_t code)
{
    if (index < m_memo.size()) {
        if (m_memo[index] == kNoPickleValue)
            ++m_memoCount;
        m_memo[index] = value;
        return true;
    }
    // Picklers number memo slots consecutively; a far jump only comes from a hostile file
    // trying to make the reader allocate a 4-billion-entry table.
    if (index > m_memo.size() + 65536 || index >= m_limits.maxValues)
        return fail(at,
            "malformed pickle: " + pickleOpcodeName(code) + " at byte " + std::to_string(at)
                + " stores memo slot " + std::to_string(index) + " far beyond the "
                + std::to_string(m_memo.size()) + " in use");
    m_memo.resize(static_cast<std::size_t>(index) + 1, kNoPickleValue);
    m_memo[static_cast<std::size_t>(index)] = value;
    ++m_memoCount;
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
        m_stack.push_back(id);
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

// The opcodes dumps rarely or never contain.
bool PickleMachine::step(std::uint8_t code, std::size_t at)
{
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
        if (remaining() < 8)
            return truncated(at, code);
        const std::uint64_t length = loadLe(m_p, 8);
        m_p += 8;
        if (length > remaining())
            return truncated(at, code);
        return true;
    }
    case op::kStop:
        m_stopped = true;
        return true;
    case op::kPop:
        if (m_stack.size() > floor()) {
            m_stack.pop_back();
            return true;
        }
        if (!m_marks.empty()) {
            m_marks.pop_back();
            return true;
        }
        return fail(
            at, "malformed pickle: POP at byte " + std::to_string(at) + " on an empty stack");
    case op::kPopMark: {
        std::size_t start = 0;
        if (!markStart(start, at, code))
            return false;
        m_stack.resize(start);
        return true;
    }
    case op::kDup:
        if (m_stack.size() <= floor())
            return noValue(at, code);
        if (m_stack.size() >= m_limits.maxItems)
            return fail(at, "pickle refused at byte " + std::to_string(at) + ": stack too deep");
        m_stack.push_back(m_stack.back());
        return true;
    case op::kLong4: {
        if (remaining() < 4)
            return truncated(at, code);
        const auto n = static_cast<std::int32_t>(static_cast<std::uint32_t>(loadLe(m_p, 4)));
        m_p += 4;
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
    case op::kInt:
    case op::kLong:
    case op::kFloat:
    case op::kString:
    case op::kUnicode:
    case op::kGet:
    case op::kPut:
        return textOp(code, at);
    case op::kShortBinString:
    case op::kShortBinBytes:
        if (remaining() < 1)
            return truncated(at, code);
        return pushSourceText(
            code == op::kShortBinBytes ? PickleKind::Bytes : PickleKind::Str, *m_p++, at, code);
    case op::kBinBytes: {
        if (remaining() < 4)
            return truncated(at, code);
        const std::uint64_t length = loadLe(m_p, 4);
        m_p += 4;
        return pushSourceText(PickleKind::Bytes, length, at, code);
    }
    case op::kBinString: {
        if (remaining() < 4)
            return truncated(at, code);
        const auto length = static_cast<std::int32_t>(static_cast<std::uint32_t>(loadLe(m_p, 4)));
        m_p += 4;
        if (length < 0)
            return fail(at,
                "malformed pickle: BINSTRING at byte " + std::to_string(at)
                    + " with a negative length");
        return pushSourceText(PickleKind::Str, static_cast<std::uint64_t>(length), at, code);
    }
    case op::kBinUnicode8:
    case op::kBinBytes8: {
        if (remaining() < 8)
            return truncated(at, code);
        const std::uint64_t length = loadLe(m_p, 8);
        m_p += 8;
        return pushSourceText(
            code == op::kBinBytes8 ? PickleKind::Bytes : PickleKind::Str, length, at, code);
    }
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
    case op::kTuple3:
        return tupleOf(3, at, code);
    case op::kLongBinPut: {
        if (remaining() < 4)
            return truncated(at, code);
        const std::uint64_t index = loadLe(m_p, 4);
        m_p += 4;
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

void PickleMachine::run()
{
    const std::size_t bytes = static_cast<std::size_t>(m_end - m_begin);
    if (bytes > std::numeric_limits<std::uint32_t>::max()) {
        fail(0, "pickle larger than 4 GiB refused");
        return;
    }
    // The read position lives in a register: stores through the byte-typed value fields
    // would otherwise force the member to be reloaded after every write.
    Ptr p = m_p;
    const Ptr end = m_end;
    // Strings and containers are memoized right after they are built (MEMOIZE at protocol
    // 4, BINPUT before), and a new container is usually followed by the MARK of its first
    // batch: taking those opcodes here saves a dispatch for a third of all opcodes.
    auto memoizeFollowing = [&]() -> bool {
        if (p < end && *p == op::kMemoize) {
            const auto at = static_cast<std::size_t>(p++ - m_begin);
            return memoPut(m_memoCount, at, op::kMemoize);
        }
        if (end - p >= 2 && *p == op::kBinPut) {
            const auto at = static_cast<std::size_t>(p - m_begin);
            const std::uint64_t index = p[1];
            p += 2;
            return memoPut(index, at, op::kBinPut);
        }
        return true;
    };
    auto markFollowing = [&]() {
        if (p < end && *p == op::kMark && m_marks.size() < m_limits.maxDepth) {
            ++p;
            m_marks.push_back(static_cast<std::uint32_t>(m_stack.size()));
        }
    };
    for (;;) {
        if (p >= end) [[unlikely]] {
            m_p = p;
            m_result.truncated = true;
            fail(bytes,
                "pickle ends at byte " + std::to_string(bytes)
                    + " before its STOP opcode: the dump is truncated");
            return;
        }
        const auto at = static_cast<std::size_t>(p - m_begin);
        const std::uint8_t code = *p++;
        const auto left = static_cast<std::size_t>(end - p);
        bool ok = true;
        switch (code) {
        case op::kBinGet:
            if (left < 1) [[unlikely]] {
                ok = truncated(at, code);
                break;
            }
            ok = memoGet(*p++, at, code);
            break;
        case op::kLongBinGet:
            if (left < 4) [[unlikely]] {
                ok = truncated(at, code);
                break;
            }
            ok = memoGet(loadLe(p, 4), at, code);
            p += 4;
            break;
        case op::kMemoize:
            ok = memoPut(m_memoCount, at, code);
            break;
        case op::kBinPut:
            if (left < 1) [[unlikely]] {
                ok = truncated(at, code);
                break;
            }
            ok = memoPut(*p++, at, code);
            break;
        case op::kMark:
            if (m_marks.size() >= m_limits.maxDepth) [[unlikely]] {
                ok = fail(at,
                    "pickle refused at byte " + std::to_string(at) + ": more than "
                        + std::to_string(m_limits.maxDepth) + " nested MARKs");
                break;
            }
            m_marks.push_back(static_cast<std::uint32_t>(m_stack.size()));
            break;
        case op::kBinInt1:
            if (left < 1) [[unlikely]] {
                ok = truncated(at, code);
                break;
            }
            ok = pushInt(*p++, false, at);
            break;
        case op::kBinInt2:
            if (left < 2) [[unlikely]] {
                ok = truncated(at, code);
                break;
            }
            ok = pushInt(static_cast<std::int64_t>(loadLe(p, 2)), false, at);
            p += 2;
            break;
        case op::kBinInt:
            if (left < 4) [[unlikely]] {
                ok = truncated(at, code);
                break;
            }
            ok = pushInt(
                static_cast<std::int32_t>(static_cast<std::uint32_t>(loadLe(p, 4))), false, at);
            p += 4;
            break;
        case op::kLong1: {
            if (left < 1 || left - 1 < *p) [[unlikely]] {
                ok = truncated(at, code);
                break;
            }
            const std::size_t n = *p++;
            bool overflow = false;
            const std::int64_t v = decodeLong(p, n, overflow);
            p += n;
            ok = pushInt(v, overflow, at);
            break;
        }
        case op::kBinFloat: {
            if (left < 8) [[unlikely]] {
                ok = truncated(at, code);
                break;
            }
            std::uint64_t bits = 0;
            for (int i = 0; i < 8; ++i)
                bits = (bits << 8) | p[i];
            p += 8;
            ok = pushValue(PickleKind::Float, 0, 0, bits, at);
            break;
        }
        case op::kShortBinUnicode:
        case op::kBinUnicode: {
            const std::size_t width = code == op::kShortBinUnicode ? 1 : 4;
            if (left < width) [[unlikely]] {
                ok = truncated(at, code);
                break;
            }
            const std::uint64_t length = width == 1 ? *p : loadLe(p, 4);
            p += width;
            // The declared length is checked against what is left before anything is read,
            // so a 4 GB BINUNICODE in a 100-byte file is a clean error, not an allocation.
            if (length > static_cast<std::uint64_t>(end - p)) [[unlikely]] {
                m_p = p;
                ok = lengthBeyondEnd(at, code, length);
                break;
            }
            const auto offset = static_cast<std::uint64_t>(p - m_begin);
            p += length;
            ok = pushValue(PickleKind::Str, 0, static_cast<std::uint32_t>(length), offset, at)
                && memoizeFollowing();
            break;
        }
        case op::kNone:
            ok = pushValue(PickleKind::None, 0, 0, 0, at);
            break;
        case op::kNewTrue:
        case op::kNewFalse:
            ok = pushValue(PickleKind::Bool, 0, 0, code == op::kNewTrue ? 1 : 0, at);
            break;
        case op::kEmptyList:
        case op::kEmptyDict:
            ok = pushValue(
                     code == op::kEmptyList ? PickleKind::List : PickleKind::Dict, 0, 0, 0, at)
                && memoizeFollowing();
            if (ok)
                markFollowing();
            break;
        case op::kTuple2:
            ok = tupleOf(2, at, code) && memoizeFollowing();
            break;
        case op::kAppend:
            ok = appendToTop(PickleKind::List, m_stack.empty() ? 0 : m_stack.size() - 1, at, code);
            break;
        case op::kSetItem:
            ok = appendToTop(
                PickleKind::Dict, m_stack.size() < 2 ? 0 : m_stack.size() - 2, at, code);
            break;
        case op::kAppends:
        case op::kSetItems: {
            if (m_marks.empty()) [[unlikely]] {
                std::size_t unused = 0;
                ok = markStart(unused, at, code);
                break;
            }
            const std::size_t start = m_marks.back();
            m_marks.pop_back();
            ok = appendToTop(
                code == op::kAppends ? PickleKind::List : PickleKind::Dict, start, at, code);
            break;
        }
        default:
            m_p = p;
            ok = step(code, at);
            p = m_p;
            if (ok && m_stopped) {
                if (m_stack.empty()) {
                    fail(at, "malformed pickle: STOP with an empty stack");
                    return;
                }
                m_result.root = m_stack.back();
                m_result.complete = true;
                return;
            }
            break;
        }
        if (!ok) [[unlikely]] {
            m_p = p;
            return;
        }
    }
}

// Closes what is still open after an early end, innermost first, as the pending APPENDS,
// SETITEMS or TUPLE would have: the caller keeps every value that was read completely and
// can tell the ones cut short by their salvaged flag.
void PickleMachine::salvage()
{
    while (!m_marks.empty()) {
        const std::size_t start = std::min<std::size_t>(m_marks.back(), m_stack.size());
        m_marks.pop_back();
        std::size_t count = m_stack.size() - start;
        const PickleId target = start > 0 ? m_stack[start - 1] : kNoPickleValue;
        if (m_doc.is(target, PickleKind::List) || m_doc.is(target, PickleKind::Dict)) {
            if (m_doc.is(target, PickleKind::Dict))
                count -= count % 2;
            if (!m_doc.append(target, m_stack.data() + start, count))
                break;
            m_doc.markSalvaged(target);
            m_stack.resize(start);
        } else {
            const PickleId tuple = m_doc.addContainer(PickleKind::Tuple);
            if (tuple == kNoPickleValue || !m_doc.append(tuple, m_stack.data() + start, count))
                break;
            m_doc.markSalvaged(tuple);
            m_stack.resize(start);
            m_stack.push_back(tuple);
        }
    }
    // The outermost value is the first one pushed (the top-level dict of a dump).
    if (!m_stack.empty()) {
        m_result.root = m_stack.front();
        if (m_doc.isContainer(m_result.root))
            m_doc.markSalvaged(m_result.root);
    }
}

namespace {
} // namespace

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

void readPickle(std::string_view bytes, PickleResult& result, const PickleLimits& limits)
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
    try {
        PickleMachine machine(bytes, result, limits);
        machine.run();
        if (!result.complete)
            machine.salvage();
    } catch (const std::bad_alloc&) {
        result.complete = false;
        result.root = kNoPickleValue;
        result.error = "pickle refused: out of memory while reading";
    } catch (...) {
        result.complete = false;
        result.root = kNoPickleValue;
        result.error = "pickle refused: internal error while reading";
    }
}

} // namespace rankscope::parsers
