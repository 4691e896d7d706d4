#include "parsers/flightrecorderparser.h"

#include "parsers/textscan.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace rankscope::parsers {

namespace {

using model::FrCall;
using model::FrEntry;
using model::FrState;
using model::StrId;
using parsers::PickleCopy;

constexpr std::size_t kMaxFrames = 64; // FrEntry::frames: "at most a few dozen"
constexpr std::size_t kMaxJsonNesting = 64; // FR JSON nests 5 deep
constexpr std::string_view kIssueKind = "bad_flight_recorder_dump";

std::string_view kindName(PickleKind kind);

enum class Field : std::uint8_t {
    Unknown,
    RecordId,
    PgId,
    ProcessGroup,
    CollectiveSeq,
    P2pSeq,
    OpId,
    ProfilingName,
    TimeCreated,
    Duration,
    InputSizes,
    InputDtypes,
    OutputSizes,
    OutputDtypes,
    State,
    TimeStarted,
    TimeCompleted,
    Retired,
    Timeout,
    IsP2p,
    Frames,
};

// Entry keys (DEFINE_CONSTANT in pt:FlightRecorder.hpp); "seq_id" is the pre-2.0 name.
Field classifyEntryKey(std::string_view key)
{
    static constexpr std::pair<std::string_view, Field> kKeys[] = {
        { "record_id", Field::RecordId },
        { "pg_id", Field::PgId },
        { "process_group", Field::ProcessGroup },
        { "collective_seq_id", Field::CollectiveSeq },
        { "seq_id", Field::CollectiveSeq },
        { "p2p_seq_id", Field::P2pSeq },
        { "op_id", Field::OpId },
        { "profiling_name", Field::ProfilingName },
        { "time_created_ns", Field::TimeCreated },
        { "duration_ms", Field::Duration },
        { "input_sizes", Field::InputSizes },
        { "input_dtypes", Field::InputDtypes },
        { "output_sizes", Field::OutputSizes },
        { "output_dtypes", Field::OutputDtypes },
        { "state", Field::State },
        { "time_discovered_started_ns", Field::TimeStarted },
        { "time_discovered_completed_ns", Field::TimeCompleted },
        { "retired", Field::Retired },
        { "timeout_ms", Field::Timeout },
        { "is_p2p", Field::IsP2p },
        { "frames", Field::Frames },
    };
    for (const auto& [text, field] : kKeys)
        if (text.size() == key.size() && text == key)
            return field;
    return Field::Unknown;
}

// FrEntry ids are 32-bit: a larger id saturates, a negative one stays "unknown".
std::int32_t narrowId(std::int64_t v)
{
    return v < 0 ? -1 : static_cast<std::int32_t>(std::min<std::int64_t>(v, model::kMaxFrId));
}

std::uint64_t saturatingMul(std::uint64_t a, std::uint64_t b)
{
    if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a)
        return std::numeric_limits<std::uint64_t>::max();
    return a * b;
}

std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b)
{
    return b > std::numeric_limits<std::uint64_t>::max() - a
        ? std::numeric_limits<std::uint64_t>::max()
        : a + b;
}

// Value ids of memoized strings are scattered; a multiplicative hash spreads them over the
// direct-mapped cache slots (id & mask collides for ids a power of two apart).
std::size_t slotOf(PickleId id, unsigned bits)
{
    return static_cast<std::size_t>((id * 0x9E3779B1u) >> (32 - bits));
}

// Slot of a direct-mapped cache of 2^bits slots for an FNV hash: FNV's multiply leaves
// inputs that differ in a few bits (shapes [[512]] and [[1024]]) equal in most bit ranges,
// so the hash is multiplied once more and the top bits are taken.
std::size_t slotOfHash(std::uint64_t h, unsigned bits)
{
    return static_cast<std::size_t>((h * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

std::uint64_t fnv1a(std::string_view s)
{
    std::uint64_t h = 1469598103934665603ull;
    for (const char c : s)
        h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return h;
}

// "1->2" (send: src 1, dst 2) or "3<-0" (recv on 3 from 0) after "nccl:send " / "nccl:recv ".
void readP2pPeers(std::string_view name, std::int32_t& src, std::int32_t& dst)
{
    const std::size_t space = name.rfind(' ');
    if (space == std::string_view::npos)
        return;
    const std::string_view peers = name.substr(space + 1);
    std::size_t i = 0;
    const auto a = readUnsigned(peers, i);
    if (!a || i + 2 > peers.size())
        return;
    const std::string_view arrow = peers.substr(i, 2);
    i += 2;
    const auto b = readUnsigned(peers, i);
    if (!b || i != peers.size() || *a > INT32_MAX || *b > INT32_MAX)
        return;
    if (arrow == "->") {
        src = static_cast<std::int32_t>(*a);
        dst = static_cast<std::int32_t>(*b);
    } else if (arrow == "<-") {
        src = static_cast<std::int32_t>(*b);
        dst = static_cast<std::int32_t>(*a);
    }
}

// "[0, 1, 2, …]": every number that fits a rank, whatever separates them. Digits are read
// by hand: a dump lists its whole world here (4096 ranks: 23 KB in every dump), and a
// std::from_chars call per number was 4% of reading a dump.
void readRankText(std::string_view s, model::FrRankList& ranks)
{
    const char* p = s.data();
    const char* const end = p + s.size();
    while (p < end) {
        if (!isDigit(*p)) {
            ++p;
            continue;
        }
        std::uint64_t v = 0; // at most INT32_MAX before each step: no overflow
        bool fits = true;
        for (; p < end && isDigit(*p); ++p) {
            v = v * 10 + static_cast<std::uint64_t>(*p - '0');
            if (v > INT32_MAX) {
                fits = false;
                v = 0;
            }
        }
        if (fits)
            ranks.push_back(static_cast<std::int32_t>(v));
    }
}

struct FrCallHash {
    std::size_t operator()(const FrCall& c) const
    {
        std::uint64_t h = 1469598103934665603ull;
        auto mix = [&h](std::uint64_t v) { h = (h ^ v) * 1099511628211ull; };
        mix(c.pg);
        mix(c.pgDesc);
        mix(c.profilingName);
        mix(c.inputSizes);
        mix(c.outputSizes);
        mix(c.inputDtypes);
        mix(c.outputDtypes);
        mix(static_cast<std::uint32_t>(c.p2pSrc));
        mix(static_cast<std::uint32_t>(c.p2pDst));
        mix(c.inputNumel);
        mix(c.outputNumel);
        mix(static_cast<std::uint64_t>(c.timeoutMs));
        mix(static_cast<std::uint64_t>(c.dump) << 32 | c.stack);
        mix(static_cast<std::uint64_t>(c.op) << 1 | (c.isP2p ? 1 : 0));
        return static_cast<std::size_t>(h);
    }
};

// Maps one dump document (pickle or converted JSON) into the ParsedSource. Values repeat
// massively across the 2000 entries of a dump (keys, op names, dtypes, frames are memoized
// by the pickler and so share one value id): small direct-mapped caches keyed by value id
// turn them into model values once.
class DumpMapper {
public:
    DumpMapper(const PickleDocument& doc, model::ParsedSource& out, RankTextCache& rankTexts)
        : m_doc(doc)
        , m_out(out)
        , m_rankTexts(rankTexts)
    {
    }

    // The reader's copies of repeated entries (PickleResult::copies), sorted by dict id;
    // `changed`: PickleResult::copiesChanged.
    void useCopies(
        std::span<const PickleCopy> copies, std::span<const std::uint32_t> offsets, bool changed)
    {
        m_copies = copies;
        m_copyOffsets = offsets;
        m_copiesChanged = changed;
    }
    // False when the root is not a dump at all.
    bool map(PickleId root, model::FrDump& dump);
    std::size_t droppedEntries() const { return m_dropped; }
    // What "entries" holds when it is not a list ("None", "a dict"), else empty.
    const std::string& entriesNotList() const { return m_entriesNotList; }
    // Entries whose collective_seq_id is negative (one left out is merely not lined up).
    std::size_t negativeSeqs() const { return m_negativeSeqs; }
    std::size_t clampedEntries() const { return m_clamped; }
    model::TimePoint newestTime() const { return m_newest; }

private:
    void mapEntries(PickleId list);
    void mapEntry(PickleId dict, FrEntry& e, std::uint32_t dumpIndex);
    struct EntryTimes {
        std::int64_t created = 0;
        std::int64_t started = 0;
        std::int64_t completed = 0;
        bool clamped = false;
    };
    [[gnu::always_inline]] bool ownField(Field f, PickleId v, FrEntry& e, EntryTimes& t);
    void finishEntry(FrEntry& e, const EntryTimes& t);
    // Fields an entry keeps itself, not in its call (and keys the model does not keep).
    static bool isOwn(Field f)
    {
        switch (f) {
        case Field::RecordId:
        case Field::CollectiveSeq:
        case Field::P2pSeq:
        case Field::OpId:
        case Field::TimeCreated:
        case Field::TimeStarted:
        case Field::TimeCompleted:
        case Field::Duration:
        case Field::State:
        case Field::Retired:
        case Field::Unknown:
            return true;
        default:
            return false;
        }
    }
    struct OwnPair { // a pair of an entry that holds one of its own fields
        std::uint32_t index;
        Field field;
    };
    struct SourceSlot { // per source and template
        PickleId source = kNoPickleValue;
        std::uint32_t numbers = 0;
        std::uint32_t call = model::kNoFrIndex;
        bool unchanged = false; // the source is still as copied
        std::vector<std::uint32_t> callNumbers; // offsets of the numbers that feed the call
        std::vector<OwnPair> ownPairs;
    };
    const PickleCopy* copyOf(PickleId dict);
    const SourceSlot* sourceOfCopy(const PickleCopy& copy);
    void mapCopiedEntry(
        PickleId dict, FrEntry& e, std::uint32_t call, const std::vector<OwnPair>& own);
    bool unchangedSince(const PickleCopy& copy, PickleId dict, std::size_t firstItem) const;
    // What copies need of their source, found once: the pairs holding the entry's own fields,
    // and the numbers that feed the call (every number that is not one of those pairs'
    // values: sizes, timeout, frame lines, anything unknown).
    void readSource(const PickleCopy& copy, SourceSlot& slot);
    std::uint32_t internCall(const FrCall& call);
    std::uint32_t internCallSlow(const FrCall& call);
    std::uint32_t internStack();
    std::uint32_t stackOf(PickleId list);
    void mapPgConfig(PickleId dict, model::FrDump& dump);
    void mapPgStatus(PickleId dict, model::FrDump& dump);
    Field field(PickleId key);
    // The field of the key at pair `index` of an entry: every entry lists its keys in the
    // writer's order, and a memoized key keeps its value id, so the previous entry's keys
    // at the same position predict this one's with one comparison (JSON keys, which are not
    // shared, miss and go through field()).
    [[gnu::always_inline]] Field fieldAt(std::size_t index, PickleId key)
    {
        if (index >= kKeyPositions)
            return field(key);
        KeySlot& slot = m_keyAt[index];
        if (slot.id != key) {
            slot.id = key;
            slot.field = field(key);
        }
        return slot.field;
    }
    StrId internValue(PickleId id);
    StrId internText(std::string_view text);
    void profilingName(PickleId id, FrCall& c);
    StrId sizesText(PickleId list, std::uint64_t& numel);
    StrId sizesOfKey(std::uint64_t h, std::uint64_t& numel); // m_sizesKey, filled; h its hash
    StrId formatSizes(std::uint64_t& numel);
    StrId dtypesText(PickleId list);
    StrId dtypesOf(std::span<const PickleId> items);
    void frames(std::span<const PickleId> items);
    std::uint32_t stackOfItems(std::span<const PickleId> items);
    model::StackFrame frame(PickleId dict);
    // Int and Bool here, so the common case is inlined; numeric strings and whole floats
    // out of line.
    [[gnu::always_inline]] bool integer(PickleId id, std::int64_t& out) const
    {
        return m_doc.integer(id, out) || integerSpelledOtherwise(id, out);
    }
    bool integerSpelledOtherwise(PickleId id, std::int64_t& out) const;
    // time_*_ns: CLOCK_REALTIME epoch ns; null (pickle) or 0 (JSON) when not observed.
    [[gnu::always_inline]] std::int64_t time(PickleId id)
    {
        std::int64_t ns = 0;
        if (!integer(id, ns) || ns <= 0 || m_doc.overflowed(id))
            return 0;
        if (!m_newest.valid() || ns > m_newest.ns)
            m_newest = FrEntry::timeOf(ns);
        return ns;
    }

    const PickleDocument& m_doc;
    model::ParsedSource& m_out;
    RankTextCache& m_rankTexts;
    std::size_t m_dropped = 0;
    std::string m_entriesNotList;
    std::size_t m_negativeSeqs = 0;
    std::size_t m_clamped = 0; // entries with a time or duration beyond FrEntry's fields
    model::TimePoint m_newest;
    std::string m_buffer;

    struct KeySlot {
        PickleId id = kNoPickleValue;
        Field field = Field::Unknown;
    };
    struct StrSlot {
        PickleId id = kNoPickleValue;
        StrId str = model::kNoStr;
    };
    struct NameSlot {
        PickleId id = kNoPickleValue;
        StrId name = model::kNoStr;
        model::OpType op = model::OpType::Unknown;
        std::int32_t src = -1;
        std::int32_t dst = -1;
    };
    struct NameTextSlot {
        std::string text;
        NameSlot name;
        bool used = false;
    };
    struct TextSlot {
        std::string text;
        StrId str = model::kNoStr;
        bool used = false;
    };
    struct FrameSlot {
        PickleId id = kNoPickleValue;
        model::StackFrame frame;
    };
    struct SizesSlot {
        std::vector<std::int64_t> key; // tensor count, then per tensor: rank, dims
        std::uint64_t hash = 0; // of key
        StrId text = model::kNoStr;
        std::uint64_t numel = 0;
        bool used = false;
    };
    std::array<KeySlot, 256> m_keys {};
    static constexpr std::size_t kKeyPositions = 32; // an entry has about 22 keys
    std::array<KeySlot, kKeyPositions> m_keyAt {};
    std::array<StrSlot, 1024> m_strs {};
    std::array<NameSlot, 256> m_names {};
    std::array<NameTextSlot, 64> m_nameTexts {};
    std::array<TextSlot, 256> m_texts {};
    std::array<FrameSlot, 1024> m_frames {};
    std::array<SizesSlot, 256> m_sizes {};
    std::vector<std::int64_t> m_sizesKey;
    // De-duplication of calls and stacks within the source (FrCall, FrStacks): a dump's
    // 2000 entries share a few dozen of each.
    std::unordered_map<FrCall, std::uint32_t, FrCallHash> m_callIndex;
    std::unordered_map<std::string, std::uint32_t> m_stackIndex;
    std::vector<model::StackFrame> m_stack; // frames of the entry being mapped
    // The last stack and call seen per hash slot, in front of the maps above: an entry's
    // frames list holds the memoized frame dicts, so the same ids mean the same stack
    // (keyed by the ids, no frames are built); a call is compared field by field.
    struct StackSlot {
        static constexpr std::size_t kIds = 12;
        std::array<PickleId, kIds> ids {};
        std::uint32_t count = 0;
        std::uint32_t stack = model::kNoFrIndex;
        bool used = false;
    };
    struct CallSlot {
        FrCall call;
        std::uint32_t index = model::kNoFrIndex;
    };
    std::array<StackSlot, 256> m_stackSlots {};
    std::array<CallSlot, 256> m_callSlots {};
    std::string m_stackKey;

    // Entries the reader copied from an earlier one (PickleCopy): a copy calls what its source
    // called when both are as copied and the numbers that feed the call are equal, so only
    // its own fields (ids, times, state) are mapped. The sources' calls are remembered by
    // dict id as entries are mapped in full.
    std::span<const PickleCopy> m_copies;
    std::span<const std::uint32_t> m_copyOffsets;
    bool m_copiesChanged = true; // check every copy is still as copied
    std::size_t m_nextCopy = 0;
    struct MappedSlot {
        PickleId dict = kNoPickleValue;
        std::uint32_t call = model::kNoFrIndex;
    };
    std::array<MappedSlot, 1024> m_mapped {};
    std::array<SourceSlot, 64> m_sources {};
    std::vector<bool> m_ownValues; // readSource's scratch
    std::vector<std::uint32_t> m_valueUses;
};

bool DumpMapper::integerSpelledOtherwise(PickleId id, std::int64_t& out) const
{
    // The JSON variant writes pg_status numbers as strings.
    if (m_doc.is(id, PickleKind::Str)) {
        const auto v = toSigned(trim(m_doc.text(id)));
        if (v) {
            out = *v;
            return true;
        }
        return false;
    }
    double d = 0;
    if (m_doc.is(id, PickleKind::Float) && m_doc.real(id, d) && std::isfinite(d)
        && std::fabs(d) < 9.2e18 && d == std::floor(d)) {
        out = static_cast<std::int64_t>(d);
        return true;
    }
    return false;
}

Field DumpMapper::field(PickleId key)
{
    KeySlot& slot = m_keys[slotOf(key, 8)];
    if (slot.id != key) {
        slot.id = key;
        slot.field
            = m_doc.is(key, PickleKind::Str) ? classifyEntryKey(m_doc.text(key)) : Field::Unknown;
    }
    return slot.field;
}

StrId DumpMapper::internValue(PickleId id)
{
    if (!m_doc.is(id, PickleKind::Str))
        return model::kNoStr;
    StrSlot& slot = m_strs[slotOf(id, 10)];
    if (slot.id != id) {
        slot.id = id;
        slot.str = m_out.intern(m_doc.text(id));
    }
    return slot.str;
}

StrId DumpMapper::internText(std::string_view text)
{
    TextSlot& slot = m_texts[slotOfHash(fnv1a(text), 8)];
    if (!slot.used || slot.text != text) {
        slot.used = true;
        slot.text.assign(text);
        slot.str = m_out.intern(text);
    }
    return slot.str;
}

void DumpMapper::profilingName(PickleId id, FrCall& e)
{
    if (!m_doc.is(id, PickleKind::Str))
        return;
    NameSlot& slot = m_names[slotOf(id, 8)];
    if (slot.id != id) {
        // A name formatted per entry ("nccl:send 1->2") is a new string each time, not a
        // memoized one: the same text is found by text before it is parsed again.
        const std::string_view name = m_doc.text(id);
        NameTextSlot& known = m_nameTexts[slotOfHash(fnv1a(name), 6)];
        if (!known.used || known.text != name) {
            known.used = true;
            known.text.assign(name);
            known.name.name = m_out.intern(name);
            known.name.op = model::opTypeFromProfilingName(name);
            known.name.src = known.name.dst = -1;
            if (model::isPointToPoint(known.name.op))
                readP2pPeers(name, known.name.src, known.name.dst);
        }
        slot = known.name;
        slot.id = id;
    }
    e.profilingName = slot.name;
    e.op = slot.op;
    e.p2pSrc = slot.src;
    e.p2pDst = slot.dst;
}

// input_sizes [[3, 4], [5]] → "[[3, 4], [5]]" as Python prints it, numel 3*4 + 5. Shapes
// repeat from step to step, so the dims are looked up in a small cache before formatting.
StrId DumpMapper::sizesText(PickleId list, std::uint64_t& numel)
{
    numel = 0;
    if (!m_doc.is(list, PickleKind::List) && !m_doc.is(list, PickleKind::Tuple))
        return model::kNoStr;
    m_sizesKey.clear();
    std::uint64_t h = 1469598103934665603ull;
    auto add = [this, &h](std::int64_t v) {
        m_sizesKey.push_back(v);
        h = (h ^ static_cast<std::uint64_t>(v)) * 1099511628211ull;
    };
    const auto tensors = m_doc.items(list);
    add(static_cast<std::int64_t>(tensors.size()));
    for (const PickleId tensor : tensors) {
        const auto dims = m_doc.items(tensor);
        add(static_cast<std::int64_t>(dims.size()));
        for (const PickleId dim : dims) {
            std::int64_t v = 0;
            add(m_doc.integer(dim, v) ? v : std::numeric_limits<std::int64_t>::min());
        }
        if (m_sizesKey.size() > 1024)
            break;
    }
    return sizesOfKey(h, numel);
}

StrId DumpMapper::sizesOfKey(std::uint64_t h, std::uint64_t& numel)
{
    SizesSlot& slot = m_sizes[slotOfHash(h, 8)];
    // A few dims: compared in place rather than through memcmp.
    const bool hit = slot.used && slot.hash == h && slot.key.size() == m_sizesKey.size()
        && std::equal(m_sizesKey.begin(), m_sizesKey.end(), slot.key.begin(),
            [](std::int64_t a, std::int64_t b) { return a == b; });
    if (!hit) {
        slot.used = true;
        slot.hash = h;
        slot.key = m_sizesKey;
        slot.text = formatSizes(slot.numel);
    }
    numel = slot.numel;
    return slot.text;
}

// Formats m_sizesKey (see SizesSlot) the way Python prints the nested lists.
StrId DumpMapper::formatSizes(std::uint64_t& numel)
{
    numel = 0;
    m_buffer.assign("[");
    std::size_t i = 1;
    const auto tensors = static_cast<std::size_t>(m_sizesKey[0]);
    for (std::size_t t = 0; t < tensors && i < m_sizesKey.size(); ++t) {
        if (t > 0)
            m_buffer += ", ";
        m_buffer += '[';
        const auto dims = static_cast<std::size_t>(m_sizesKey[i++]);
        std::uint64_t product = 1;
        bool firstDim = true;
        for (std::size_t d = 0; d < dims && i < m_sizesKey.size(); ++d) {
            const std::int64_t v = m_sizesKey[i++];
            if (v == std::numeric_limits<std::int64_t>::min())
                continue; // not an int
            if (!firstDim)
                m_buffer += ", ";
            firstDim = false;
            char digits[24];
            const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, v);
            m_buffer.append(digits, ec == std::errc() ? end : digits);
            product = saturatingMul(product, v < 0 ? 0 : static_cast<std::uint64_t>(v));
        }
        m_buffer += ']';
        numel = saturatingAdd(numel, product);
    }
    m_buffer += ']';
    return internText(m_buffer);
}

// ["Float"] → "Float"; ["Float", "Half"] → "Float,Half".
StrId DumpMapper::dtypesText(PickleId list)
{
    return dtypesOf(m_doc.items(list));
}

StrId DumpMapper::dtypesOf(std::span<const PickleId> items)
{
    if (items.size() == 1)
        return internValue(items[0]);
    m_buffer.clear();
    for (const PickleId item : items) {
        if (!m_buffer.empty())
            m_buffer += ',';
        m_buffer.append(m_doc.text(item));
        if (m_buffer.size() > 4096)
            break;
    }
    return internText(m_buffer);
}

model::StackFrame DumpMapper::frame(PickleId dict)
{
    FrameSlot& slot = m_frames[slotOf(dict, 10)];
    if (slot.id == dict)
        return slot.frame;
    model::StackFrame f;
    const auto pairs = m_doc.items(dict);
    for (std::size_t i = 0; i + 1 < pairs.size(); i += 2) {
        const std::string_view key = m_doc.text(pairs[i]);
        if (key == "name") {
            f.function = internValue(pairs[i + 1]);
        } else if (key == "filename") {
            f.file = internValue(pairs[i + 1]);
        } else if (key == "line") {
            std::int64_t line = -1;
            if (integer(pairs[i + 1], line) && line >= 0 && line <= INT32_MAX)
                f.line = static_cast<std::int32_t>(line);
        }
    }
    slot.id = dict;
    slot.frame = f;
    return f;
}

// Innermost first, as torch::symbolize lists them (pt:FlightRecorderDetail.hpp getTraceback:
// "#0 all_reduce from …distributed_c10d.py").
void DumpMapper::frames(std::span<const PickleId> items)
{
    m_stack.clear();
    for (const PickleId item : items) {
        if (m_stack.size() == kMaxFrames)
            break;
        if (m_doc.is(item, PickleKind::Dict))
            m_stack.push_back(frame(item));
    }
}

std::uint32_t DumpMapper::internCall(const FrCall& call)
{
    CallSlot& slot = m_callSlots[slotOfHash(FrCallHash {}(call), 8)];
    if (slot.index != model::kNoFrIndex && slot.call == call)
        return slot.index;
    slot.call = call;
    slot.index = internCallSlow(call);
    return slot.index;
}

std::uint32_t DumpMapper::internCallSlow(const FrCall& call)
{
    const auto [it, added] = m_callIndex.try_emplace(call, static_cast<std::uint32_t>(m_out.frCalls.size()));
    if (added)
        m_out.frCalls.push_back(call);
    return it->second;
}

// The stack of a frames list (kNoFrIndex without frames).
std::uint32_t DumpMapper::stackOf(PickleId list)
{
    if (!m_doc.is(list, PickleKind::List))
        return model::kNoFrIndex;
    return stackOfItems(m_doc.items(list));
}

std::uint32_t DumpMapper::stackOfItems(std::span<const PickleId> items)
{
    if (items.empty())
        return model::kNoFrIndex;
    if (items.size() > StackSlot::kIds) {
        frames(items);
        return internStack();
    }
    std::uint64_t h = 1469598103934665603ull;
    for (const PickleId id : items)
        h = (h ^ id) * 1099511628211ull;
    StackSlot& slot = m_stackSlots[slotOfHash(h, 8)];
    if (slot.used && slot.count == items.size()
        && std::equal(items.begin(), items.end(), slot.ids.begin()))
        return slot.stack;
    frames(items);
    slot.used = true;
    slot.count = static_cast<std::uint32_t>(items.size());
    std::copy(items.begin(), items.end(), slot.ids.begin());
    slot.stack = internStack();
    return slot.stack;
}

// The stack in m_stack, keyed by its frames' string ids (ids of one pool, so equal ids are
// equal text).
std::uint32_t DumpMapper::internStack()
{
    if (m_stack.empty())
        return model::kNoFrIndex;
    m_stackKey.clear();
    for (const model::StackFrame& f : m_stack) {
        const std::uint32_t parts[3] = { f.function, f.file, static_cast<std::uint32_t>(f.line) };
        m_stackKey.append(reinterpret_cast<const char*>(parts), sizeof parts);
    }
    model::FrStacks& stacks = m_out.frStacks;
    const auto [it, added] = m_stackIndex.try_emplace(m_stackKey, static_cast<std::uint32_t>(stacks.size()));
    if (added) {
        stacks.begin.push_back(static_cast<std::uint32_t>(stacks.frames.size()));
        stacks.frames.insert(stacks.frames.end(), m_stack.begin(), m_stack.end());
    }
    return it->second;
}

// The fields an entry keeps itself rather than in its call (model/records.h): true when
// `f` is one of them (or a key the model does not keep), after applying it.
inline bool DumpMapper::ownField(Field f, PickleId v, FrEntry& e, EntryTimes& t)
{
    std::int64_t n = 0;
    switch (f) {
    case Field::RecordId:
        if (integer(v, n))
            e.recordId = narrowId(n);
        return true;
    case Field::CollectiveSeq:
        if (integer(v, n)) {
            e.collectiveSeq = narrowId(n);
            m_negativeSeqs += n < 0 ? 1 : 0;
        }
        return true;
    case Field::P2pSeq:
        if (integer(v, n))
            e.p2pSeq = narrowId(n);
        return true;
    case Field::TimeCreated:
        t.created = time(v);
        return true;
    case Field::TimeStarted:
        t.started = time(v);
        return true;
    case Field::TimeCompleted:
        t.completed = time(v);
        return true;
    case Field::Duration: {
        double d = 0;
        if (m_doc.real(v, d) && !std::isnan(d) && d >= 0)
            t.clamped = !e.setDurationMs(d) || t.clamped;
        return true;
    }
    case Field::State: {
        const std::string_view s = m_doc.text(v);
        e.setState(s == "completed" ? FrState::Completed
                : s == "started"    ? FrState::Started
                : s == "scheduled"  ? FrState::Scheduled
                                    : FrState::Unknown);
        return true;
    }
    case Field::Retired:
        if (integer(v, n))
            e.setRetired(n != 0);
        return true;
    case Field::OpId: // not kept (model/records.h)
    case Field::Unknown:
        return true;
    default:
        return false;
    }
}

void DumpMapper::finishEntry(FrEntry& e, const EntryTimes& t)
{
    const bool clamped = !e.setTimes(t.created, t.started, t.completed) || t.clamped;
    m_clamped += clamped ? 1 : 0;
}

void DumpMapper::mapEntry(PickleId dict, FrEntry& e, std::uint32_t dumpIndex)
{
    const auto pairs = m_doc.items(dict);
    FrCall c;
    c.dump = dumpIndex;
    m_stack.clear();
    EntryTimes times;
    std::uint32_t stack = model::kNoFrIndex;
    PickleId pgId = kNoPickleValue;
    bool sawIsP2p = false;
    for (std::size_t i = 0; i + 1 < pairs.size(); i += 2) {
        const PickleId v = pairs[i + 1];
        const Field f = fieldAt(i / 2, pairs[i]);
        if (ownField(f, v, e, times))
            continue;
        std::int64_t n = 0;
        switch (f) {
        case Field::PgId:
            pgId = v;
            break;
        case Field::ProcessGroup: {
            // ("0", "default_pg"): a tuple in the pickle, a list in JSON.
            const auto parts = m_doc.items(v);
            if (!parts.empty()) {
                c.pg = internValue(parts[0]);
                if (parts.size() > 1)
                    c.pgDesc = internValue(parts[1]);
            } else if (m_doc.is(v, PickleKind::Str)) {
                c.pg = internValue(v);
            }
            break;
        }
        case Field::ProfilingName:
            profilingName(v, c);
            break;
        case Field::InputSizes:
            c.inputSizes = sizesText(v, c.inputNumel);
            break;
        case Field::OutputSizes:
            c.outputSizes = sizesText(v, c.outputNumel);
            break;
        case Field::InputDtypes:
            c.inputDtypes = dtypesText(v);
            break;
        case Field::OutputDtypes:
            c.outputDtypes = dtypesText(v);
            break;
        case Field::Timeout:
            if (integer(v, n))
                c.timeoutMs = n;
            break;
        case Field::IsP2p:
            if (integer(v, n)) {
                c.isP2p = n != 0;
                sawIsP2p = true;
            }
            break;
        case Field::Frames:
            stack = stackOf(v);
            break;
        default:
            break;
        }
    }
    if (!sawIsP2p)
        c.isP2p = model::isPointToPoint(c.op);
    // Without process_group (pre-2.2 dumps) the PG index is the only key there is.
    if (c.pg == model::kNoStr && pgId != kNoPickleValue) {
        std::int64_t n = 0;
        if (integer(pgId, n))
            c.pg = internText(std::to_string(n));
    }
    finishEntry(e, times);
    c.stack = stack;
    e.call = internCall(c);
    MappedSlot& mapped = m_mapped[slotOf(dict, 10)];
    mapped.dict = dict;
    mapped.call = e.call;
}

// A copied entry whose call is known: only the pairs that hold its own fields, found once
// per source (the copy has the source's keys in the source's order).
void DumpMapper::mapCopiedEntry(
    PickleId dict, FrEntry& e, std::uint32_t call, const std::vector<OwnPair>& own)
{
    const auto pairs = m_doc.items(dict);
    EntryTimes times;
    for (const OwnPair& o : own)
        ownField(o.field, pairs[o.index * 2 + 1], e, times);
    finishEntry(e, times);
    e.call = call;
}

void DumpMapper::mapEntries(PickleId list)
{
    const auto items = m_doc.items(list);
    const auto dumpIndex = static_cast<std::uint32_t>(m_out.frDumps.size());
    m_out.frEntries.reserve(m_out.frEntries.size() + items.size());
    for (const PickleId item : items) {
        // An entry cut short by the end of the file would show made-up "unknown" fields.
        if (!m_doc.is(item, PickleKind::Dict) || m_doc.salvaged(item)) {
            ++m_dropped;
            continue;
        }
        FrEntry& e = m_out.frEntries.emplace_back();
        if (const PickleCopy* copy = copyOf(item)) {
            if (const SourceSlot* source = sourceOfCopy(*copy)) {
                mapCopiedEntry(item, e, source->call, source->ownPairs);
                continue;
            }
        }
        mapEntry(item, e, dumpIndex);
    }
}

const PickleCopy* DumpMapper::copyOf(PickleId dict)
{
    while (m_nextCopy < m_copies.size() && m_copies[m_nextCopy].dict < dict)
        ++m_nextCopy;
    return m_nextCopy < m_copies.size() && m_copies[m_nextCopy].dict == dict ? &m_copies[m_nextCopy]
                                                                             : nullptr;
}

// The copy's source, when mapping the copy in full would give the source's call: the
// source was mapped in full, neither dict changed since the copy, and every number that does
// not go to the entry's own fields is equal in both. Null otherwise.
const DumpMapper::SourceSlot* DumpMapper::sourceOfCopy(const PickleCopy& copy)
{
    const MappedSlot& source = m_mapped[slotOf(copy.source, 10)];
    if (source.dict != copy.source || source.call == model::kNoFrIndex
        || std::size_t(copy.dict) + copy.values > m_doc.valueCount()
        || copy.numbers + std::size_t(copy.numberCount) > m_copyOffsets.size()
        || copy.containers + std::size_t(copy.containerCount) > m_copyOffsets.size())
        return nullptr;
    // The document no longer changes while it is mapped: what is found about a source holds
    // for all its copies.
    SourceSlot& slot = m_sources[slotOfHash(
        (static_cast<std::uint64_t>(copy.source) << 32 | copy.numbers) * 0x9e3779b97f4a7c15ull, 6)];
    if (slot.source != copy.source || slot.numbers != copy.numbers) {
        slot.source = copy.source;
        slot.numbers = copy.numbers;
        slot.call = source.call;
        slot.unchanged = unchangedSince(copy, copy.source, copy.sourceFirstItem);
        readSource(copy, slot);
    }
    // The reader tells whether any copy may have changed; only then is each one checked.
    if (!slot.unchanged || slot.call != source.call
        || (m_copiesChanged && !unchangedSince(copy, copy.dict, copy.firstItem)))
        return nullptr;
    for (const std::uint32_t j : slot.callNumbers) {
        const PickleValue& a = m_doc.value(copy.dict + j);
        const PickleValue& b = m_doc.value(copy.source + j);
        if (a.kind != b.kind || a.flags != b.flags || a.bits != b.bits)
            return nullptr;
    }
    return &slot;
}

// Containers only change by having items appended, and the reader gave each container of a
// copied dict (or of its source) exactly the slots its items took, inside the dict's own
// range: one appended to since has been moved out of them or grown past them.
bool DumpMapper::unchangedSince(const PickleCopy& copy, PickleId dict, std::size_t firstItem) const
{
    const std::size_t end = firstItem + copy.items;
    for (std::uint32_t k = 0; k < copy.containerCount; ++k) {
        const std::uint32_t j = m_copyOffsets[copy.containers + k];
        if (j >= copy.values)
            return false;
        const PickleValue& v = m_doc.value(dict + j);
        if (v.kind < PickleKind::List)
            return false;
        const std::size_t first = static_cast<std::uint32_t>(v.bits);
        const std::size_t capacity = static_cast<std::uint32_t>(v.bits >> 32);
        const std::size_t used = v.kind == PickleKind::Dict ? std::size_t(v.size) * 2 : v.size;
        if (capacity != used || (capacity != 0 && (first < firstItem || first + capacity > end)))
            return false;
    }
    return true;
}

// A number is the entry's own only when an own field's pair holds it and nothing else in the
// entry does (a memoized number read back into sizes, say, feeds the call too).
void DumpMapper::readSource(const PickleCopy& copy, SourceSlot& slot)
{
    slot.callNumbers.clear();
    slot.ownPairs.clear();
    // Per value of the entry: how often its containers hold it, and whether an own field's
    // pair does.
    m_valueUses.assign(copy.values, 0);
    m_ownValues.assign(copy.values, false);
    const auto inEntry
        = [&copy](PickleId v) { return v >= copy.source && v - copy.source < copy.values; };
    for (std::uint32_t k = 0; k < copy.containerCount; ++k) {
        const PickleId container = copy.source + m_copyOffsets[copy.containers + k];
        for (const PickleId item : m_doc.items(container))
            if (inEntry(item))
                ++m_valueUses[item - copy.source];
    }
    const auto pairs = m_doc.items(copy.source);
    for (std::size_t i = 0; i + 1 < pairs.size(); i += 2) {
        const Field f = field(pairs[i]);
        if (!isOwn(f))
            continue;
        if (f != Field::OpId && f != Field::Unknown) // those two set nothing
            slot.ownPairs.push_back(OwnPair { static_cast<std::uint32_t>(i / 2), f });
        if (inEntry(pairs[i + 1]))
            m_ownValues[pairs[i + 1] - copy.source] = true;
    }
    for (std::uint32_t k = 0; k < copy.numberCount; ++k) {
        const std::uint32_t j = m_copyOffsets[copy.numbers + k];
        if (j >= copy.values || !m_ownValues[j] || m_valueUses[j] != 1)
            slot.callNumbers.push_back(j);
    }
}

// {"<pg name>": {"name": "0", "desc": "default_pg", "ranks": "[0, 1]"}}: ranks is a string.
void DumpMapper::mapPgConfig(PickleId dict, model::FrDump& dump)
{
    const auto pairs = m_doc.items(dict);
    if (!m_doc.is(dict, PickleKind::Dict))
        return;
    for (std::size_t i = 0; i + 1 < pairs.size(); i += 2) {
        model::FrPgConfig config;
        const PickleId info = pairs[i + 1];
        config.name = internValue(m_doc.find(info, "name"));
        if (config.name == model::kNoStr)
            config.name = internValue(pairs[i]);
        config.desc = internValue(m_doc.find(info, "desc"));
        const PickleId ranks = m_doc.find(info, "ranks");
        if (m_doc.is(ranks, PickleKind::Str)) {
            config.ranks = m_rankTexts.ranks(m_doc.text(ranks));
        } else {
            for (const PickleId r : m_doc.items(ranks)) {
                std::int64_t n = 0;
                if (integer(r, n) && n >= 0 && n <= INT32_MAX)
                    config.ranks.push_back(static_cast<std::int32_t>(n));
            }
        }
        dump.pgConfig.push_back(std::move(config));
    }
}

// {"<pg id>": {"last_enqueued_collective": 2, "last_started_collective": -1, ...}}; the
// JSON variant writes the numbers as strings.
void DumpMapper::mapPgStatus(PickleId dict, model::FrDump& dump)
{
    const auto pairs = m_doc.items(dict);
    if (!m_doc.is(dict, PickleKind::Dict))
        return;
    for (std::size_t i = 0; i + 1 < pairs.size(); i += 2) {
        model::FrPgStatus status;
        std::int64_t n = 0;
        if (m_doc.is(pairs[i], PickleKind::Str))
            status.pg = internValue(pairs[i]);
        else if (integer(pairs[i], n))
            status.pg = internText(std::to_string(n));
        const PickleId info = pairs[i + 1];
        if (integer(m_doc.find(info, "last_enqueued_collective"), n))
            status.lastEnqueued = n;
        if (integer(m_doc.find(info, "last_started_collective"), n))
            status.lastStarted = n;
        if (integer(m_doc.find(info, "last_completed_collective"), n))
            status.lastCompleted = n;
        dump.pgStatus.push_back(status);
    }
}

bool DumpMapper::map(PickleId root, model::FrDump& dump)
{
    dump.firstEntry = static_cast<std::uint32_t>(m_out.frEntries.size());
    if (m_doc.is(root, PickleKind::List)) {
        // Before format 2.0 the dump was the bare entry list.
        const auto items = m_doc.items(root);
        if (items.empty() || !m_doc.is(items[0], PickleKind::Dict))
            return false;
        mapEntries(root);
    } else if (m_doc.is(root, PickleKind::Dict)) {
        if (m_doc.find(root, "version") == kNoPickleValue
            && m_doc.find(root, "entries") == kNoPickleValue
            && m_doc.find(root, "pg_config") == kNoPickleValue)
            return false;
        dump.version = internValue(m_doc.find(root, "version"));
        mapPgConfig(m_doc.find(root, "pg_config"), dump);
        mapPgStatus(m_doc.find(root, "pg_status"), dump);
        // PyTorch leaves "entries" out when nothing was recorded; anything but a list there
        // is a broken dump.
        const PickleId entries = m_doc.find(root, "entries");
        if (m_doc.is(entries, PickleKind::List))
            mapEntries(entries);
        else if (entries != kNoPickleValue)
            m_entriesNotList = std::string(kindName(m_doc.kind(entries)));
    } else {
        return false;
    }
    dump.entryCount = static_cast<std::uint32_t>(m_out.frEntries.size() - dump.firstEntry);
    return true;
}

std::string_view kindName(PickleKind kind)
{
    switch (kind) {
    case PickleKind::None:
        return "None";
    case PickleKind::Bool:
        return "a bool";
    case PickleKind::Int:
        return "an int";
    case PickleKind::Float:
        return "a float";
    case PickleKind::Str:
        return "a string";
    case PickleKind::Bytes:
        return "bytes";
    case PickleKind::List:
        return "a list";
    case PickleKind::Tuple:
        return "a tuple";
    case PickleKind::Dict:
        return "a dict";
    }
    return "?";
}

// The dump's writer: the rank in the file name (nccl_trace_rank_N names the global rank of
// PG 0, [formats 2.1]), so the rank resolver attributes the dump without any log line.
std::uint32_t dumpIdentity(model::ParsedSource& out)
{
    const std::int32_t rank = out.source.pathIdentity.globalRank;
    if (rank < 0)
        return 0;
    model::RawIdentity id;
    id.source = out.source.id;
    id.globalRank = rank;
    return out.identityIndex(id);
}

// Whether the dump's entries show where its rank stopped (FrDump::stopUnknown); each reason
// is an import issue. A collateral rank's broken dump must not read as a rank that stopped
// early: the matcher would blame it, or count its peers' collectives as never completed.
void checkStopShown(
    model::ParsedSource& out, model::FrDump& dump, const DumpMapper& mapper, bool complete)
{
    const std::string& path = out.source.path;
    if (!mapper.entriesNotList().empty()) {
        dump.stopUnknown = true;
        out.issues.add(kIssueKind,
            path + ": \"entries\" is " + mapper.entriesNotList()
                + ", not a list; the dump cannot show where its rank stopped and is left out "
                  "of the cross-rank matching");
    }
    if (mapper.droppedEntries() > 0)
        dump.stopUnknown = true;
    if (mapper.negativeSeqs() > 0) {
        dump.stopUnknown = true;
        out.issues.add(kIssueKind,
            path + ": " + std::to_string(mapper.negativeSeqs())
                + " entries have a negative collective_seq_id; they cannot be lined up and the "
                  "dump is not taken to show where its rank stopped");
    }
    // A cut-short dump already says so; its entries may simply not have been reached.
    if (dump.entryCount == 0 && complete && mapper.entriesNotList().empty())
        for (const model::FrPgStatus& status : dump.pgStatus)
            if (status.lastEnqueued > 0) {
                dump.stopUnknown = true;
                out.issues.add(kIssueKind,
                    path + ": pg_status says collective #" + std::to_string(status.lastEnqueued)
                        + " of PG " + std::string(out.text(status.pg))
                        + " was enqueued, but the dump holds no entries; it cannot show where "
                          "its rank stopped");
                break;
            }
}

void mapDocument(const PickleDocument& doc, PickleId root, bool complete, std::string_view error,
    std::string_view format, model::ParsedSource& out, DumpMapper& mapper)
{
    const std::string& path = out.source.path;
    model::FrDump dump;
    const bool isDump = root != kNoPickleValue && mapper.map(root, dump);
    std::string problem(error);
    if (!isDump && problem.empty())
        problem = "not a Flight Recorder dump: the " + std::string(format) + " holds "
            + std::string(root == kNoPickleValue ? "nothing" : kindName(doc.kind(root)))
            + (doc.is(root, PickleKind::Dict) ? " without version, pg_config or entries" : "")
            + (doc.is(root, PickleKind::List) ? " that is not a list of entries" : "");
    if (!problem.empty()) {
        std::string sample = path + ": " + problem;
        if (isDump)
            sample += "; " + std::to_string(dump.entryCount) + " entries read before it were kept";
        if (mapper.droppedEntries() > 0)
            sample
                += "; " + std::to_string(mapper.droppedEntries()) + " incomplete entries dropped";
        out.issues.add(kIssueKind, std::move(sample));
    } else if (mapper.droppedEntries() > 0) {
        out.issues.add(kIssueKind,
            path + ": " + std::to_string(mapper.droppedEntries())
                + " entries that are not dicts were skipped");
    }
    if (isDump)
        checkStopShown(out, dump, mapper, complete);
    if (mapper.clampedEntries() > 0)
        out.issues.add(kIssueKind,
            path + ": " + std::to_string(mapper.clampedEntries())
                + " entries have a time or duration out of range (or a discovered time without "
                  "or before its creation time); shown clamped");
    if (!isDump)
        return;

    dump.identity = dumpIdentity(out);
    dump.evidence = { out.source.id, 0, 0 };
    dump.globalRank = out.source.pathIdentity.globalRank;
    dump.truncated = !complete;
    const std::string_view version = out.text(dump.version);
    out.frDumps.push_back(std::move(dump));

    model::Event& e = out.events.emplace_back();
    e.kind = model::EventKind::FlightRecorderDump;
    e.severity = complete ? model::Severity::Info : model::Severity::Warning;
    e.evidence = { out.source.id, 0, 0 };
    e.identity = out.frDumps.back().identity;
    // The dump was written after its newest record: that time places the event on the
    // timeline, marked inferred because it is not the write time itself.
    e.time = mapper.newestTime();
    e.time.inferred = e.time.valid();
    std::string text = "Flight Recorder dump: " + std::to_string(out.frDumps.back().entryCount)
        + " entries, version " + (version.empty() ? std::string("unknown") : std::string(version));
    if (!complete)
        text += " (incomplete)";
    e.text = out.intern(text);
    e.detail = out.frDumps.back().version;
}

PickleId convertJson(const nlohmann::json& j, PickleDocument& doc, std::size_t depth)
{
    using nlohmann::json;
    switch (j.type()) {
    case json::value_t::null:
        return doc.addNone();
    case json::value_t::boolean:
        return doc.addBool(j.get<bool>());
    case json::value_t::number_integer:
        return doc.addInt(j.get<std::int64_t>());
    case json::value_t::number_unsigned: {
        const auto v = j.get<std::uint64_t>();
        const bool overflow = v > static_cast<std::uint64_t>(INT64_MAX);
        return doc.addInt(overflow ? INT64_MAX : static_cast<std::int64_t>(v), overflow);
    }
    case json::value_t::number_float:
        return doc.addFloat(j.get<double>());
    case json::value_t::string:
        return doc.addOwnedText(PickleKind::Str, j.get_ref<const std::string&>());
    case json::value_t::array:
    case json::value_t::object: {
        const bool object = j.is_object();
        const PickleId id = doc.addContainer(object ? PickleKind::Dict : PickleKind::List);
        if (id == kNoPickleValue || depth > kMaxJsonNesting)
            return id;
        std::vector<PickleId> items;
        items.reserve(object ? j.size() * 2 : j.size());
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (object)
                items.push_back(doc.addOwnedText(PickleKind::Str, it.key()));
            items.push_back(convertJson(*it, doc, depth + 1));
            if (items.back() == kNoPickleValue)
                return id;
        }
        doc.append(id, items.data(), items.size());
        return id;
    }
    case json::value_t::binary:
    case json::value_t::discarded:
        break;
    }
    return doc.addNone();
}

} // namespace

bool jsonNestingWithin(std::string_view json, std::size_t limit)
{
    std::size_t depth = 0;
    bool inString = false;
    bool escaped = false;
    for (const char c : json) {
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            if (++depth > limit)
                return false;
        } else if ((c == '}' || c == ']') && depth > 0) {
            --depth;
        }
    }
    return true;
}

const model::FrRankList& RankTextCache::ranks(std::string_view text)
{
    if (text.size() < kMinLength) {
        m_short = {};
        readRankText(text, m_short);
        return m_short;
    }
    ++m_clock;
    Slot* oldest = &m_slots[0];
    for (Slot& slot : m_slots) {
        if (slot.text == text) {
            slot.used = m_clock;
            return slot.ranks;
        }
        if (slot.used < oldest->used)
            oldest = &slot;
    }
    oldest->text.assign(text);
    oldest->ranks = {};
    readRankText(text, oldest->ranks);
    oldest->used = m_clock;
    return oldest->ranks;
}

void parseFlightRecorderPickle(std::string_view bytes, model::ParsedSource& out,
    FlightRecorderScratch& scratch, PickleReaderPath path)
{
    try {
        PickleResult& read = scratch.pickle;
        readPickle(bytes, read, {}, path);
        DumpMapper mapper(read.document, out, scratch.rankTexts);
        mapper.useCopies(read.copies, read.copyOffsets, read.copiesChanged);
        mapDocument(read.document, read.root, read.complete, read.error, "pickle", out, mapper);
    } catch (const std::exception& ex) {
        out.issues.add(kIssueKind, out.source.path + ": could not be read (" + ex.what() + ")");
    }
}

void parseFlightRecorderPickle(std::string_view bytes, model::ParsedSource& out)
{
    FlightRecorderScratch scratch;
    parseFlightRecorderPickle(bytes, out, scratch);
}

void parseFlightRecorderJson(std::string_view bytes, model::ParsedSource& out)
{
    try {
        if (!jsonNestingWithin(bytes, kMaxJsonNesting)) {
            out.issues.add(kIssueKind,
                out.source.path + ": JSON nested deeper than " + std::to_string(kMaxJsonNesting)
                    + " levels refused");
            return;
        }
        const auto j = nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr, false);
        if (j.is_discarded()) {
            out.issues.add(kIssueKind, out.source.path + ": not valid JSON");
            return;
        }
        PickleDocument doc;
        doc.reset({});
        const PickleId root = convertJson(j, doc, 0);
        RankTextCache rankTexts;
        DumpMapper mapper(doc, out, rankTexts);
        mapDocument(doc, root, true, {}, "JSON document", out, mapper);
    } catch (const std::exception& ex) {
        out.issues.add(kIssueKind, out.source.path + ": could not be read (" + ex.what() + ")");
    }
}

bool looksLikeFlightRecorderJson(std::string_view head)
{
    const std::size_t start = head.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos || head[start] != '{')
        return false;
    return (contains(head, "\"pg_config\"") || contains(head, "\"entries\""))
        && contains(head, "\"version\"");
}

} // namespace rankscope::parsers
