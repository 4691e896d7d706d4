#include "parsers/picklerepeats.h"

#include "parsers/pickleopcodes.h"

#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rankscope::parsers {

namespace {

namespace op = pickle::op;

// A Flight Recorder entry is 150–300 bytes; frame dicts (about 50) are too small to be worth
// a template, and a dict of several KB is no repeated record.
constexpr std::size_t kMinSpan = 96;
constexpr std::size_t kMaxSpan = 4096;
constexpr std::size_t kMaxHeight = 64; // stack slots the dict's opcodes may use
constexpr std::size_t kMaxMarks = 16;
constexpr std::size_t kMaxOutside = 16;

// True when the `n` bytes at `a` and `b` agree wherever `mask` is 0xff.
bool maskedEqual(
    const std::uint8_t* a, const std::uint8_t* b, const std::uint8_t* mask, std::size_t n)
{
    std::size_t i = 0;
#if defined(__SSE2__)
    auto equal16 = [&](std::size_t at) {
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + at));
        const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + at));
        const __m128i m = _mm_loadu_si128(reinterpret_cast<const __m128i*>(mask + at));
        const __m128i diff = _mm_and_si128(_mm_xor_si128(x, y), m);
        return _mm_movemask_epi8(_mm_cmpeq_epi8(diff, _mm_setzero_si128())) == 0xffff;
    };
    if (n >= 16) {
        for (; i + 16 <= n; i += 16)
            if (!equal16(i))
                return false;
        // The last 16 bytes once more, overlapping what was compared: no byte-by-byte tail.
        return i == n || equal16(n - 16);
    }
#endif
    for (; i < n; ++i)
        if (((a[i] ^ b[i]) & mask[i]) != 0)
            return false;
    return true;
}

} // namespace

DictCopy RepeatedDicts::atDict(
    const DictSite& site, const DictArrays& arrays, std::uint16_t maxDepth)
{
    const std::size_t height = site.height;
    if (height >= 1) {
        Recording& below = m_recordings[(height - 1) % kHeights];
        if (below.dict != kNoPickleValue && below.height == height - 1 && below.stretch == m_stretch
            && arrays.stack[height - 1] == below.dict && below.markCount == site.markCount) {
            const auto span = static_cast<std::size_t>(site.at - below.at);
            if (span >= kMinSpan && span <= kMaxSpan)
                learn(below, site, arrays);
            below.dict = kNoPickleValue;
        }
    }
    // Entries follow each other in the order the training loop issues its collectives: the
    // template copied after the last one copied is tried first, then the others, most
    // recently used first.
    const std::uint8_t likely = m_last != kNone ? m_templates[m_last].next : kNone;
    if (likely != kNone && matches(m_templates[likely], site, arrays, maxDepth))
        return copied(likely, site, arrays);
    for (std::size_t k = 0; k < m_count; ++k) {
        const std::uint8_t slot = m_order[k];
        if (slot == likely || !matches(m_templates[slot], site, arrays, maxDepth))
            continue;
        if (k > 0)
            std::swap(m_order[k], m_order[k - 1]);
        return copied(slot, site, arrays);
    }
    m_recordings[height % kHeights] = Recording { site.at, static_cast<PickleId>(site.valueCount),
        height, site.markCount, site.itemCount, site.memoSize, m_stretch };
    return {};
}

DictCopy RepeatedDicts::copied(std::uint8_t slot, const DictSite& site, const DictArrays& arrays)
{
    const Template& t = m_templates[slot];
    copy(t, site, arrays);
    m_copyList.push_back(PickleCopy { static_cast<PickleId>(site.valueCount), t.firstValue,
        static_cast<std::uint32_t>(t.values.size()), t.numbersListed,
        static_cast<std::uint32_t>(t.numbers.size()), t.containersListed, t.containerCount,
        static_cast<std::uint32_t>(t.items.size()), site.itemCount, t.firstItem });
    if (m_last != kNone)
        m_templates[m_last].next = slot;
    m_last = slot;
    m_recordings[site.height % kHeights].dict = kNoPickleValue;
    return DictCopy { t.span, static_cast<std::uint32_t>(t.values.size()),
        static_cast<std::uint32_t>(t.items.size()), static_cast<std::uint32_t>(t.memo.size()) };
}

// Walks the dict's opcodes once more, on stack heights alone, to prove it self-contained
// (see the header) and to find its numbers and relative memo arguments; then keeps what
// the fast loop built for it. Any doubt: no template.
void RepeatedDicts::learn(const Recording& r, const DictSite& site, const DictArrays& arrays)
{
    // The least recently used template makes room.
    std::size_t slot = m_count < kTemplates ? m_count : m_order[kTemplates - 1];
    Template& t = m_templates[slot];
    t.used = false;
    t.numbers.clear();
    t.memoArgs.clear();
    t.outside.clear();
    t.texts.clear();

    const std::uint8_t* const start = r.at;
    const std::uint8_t* const end = site.at;
    const PickleId firstValue = r.dict;
    std::array<bool, kMaxHeight> mine {}; // the slot holds a container of this dict's
    std::array<std::size_t, kMaxMarks> marks {};
    std::size_t height = 0, markCount = 0, maxMarks = 0;
    std::uint32_t values = 0, memoStored = 0;
    auto push = [&](bool own) {
        if (height == kMaxHeight)
            return false;
        mine[height++] = own;
        return true;
    };
    auto addNumber = [&](std::uint8_t opcode, const std::uint8_t* payload, std::size_t length) {
        t.numbers.push_back(Number { static_cast<std::uint32_t>(payload - start), values, opcode,
            static_cast<std::uint8_t>(length) });
    };
    auto memoRead = [&](std::uint64_t index, const std::uint8_t* arg, std::size_t length) {
        if (index >= r.memoSize) {
            const std::uint64_t relative = index - r.memoSize;
            if (relative >= memoStored)
                return false;
            t.memoArgs.push_back(MemoArg { static_cast<std::uint32_t>(arg - start),
                static_cast<std::uint32_t>(relative), static_cast<std::uint8_t>(length) });
            return push(arrays.memo[index] >= firstValue);
        }
        const PickleId id = arrays.memo[index];
        if (id == kNoPickleValue)
            return false;
        if (arrays.values[id].kind >= PickleKind::List) {
            if (t.outside.size() == kMaxOutside)
                return false;
            t.outside.push_back(Outside { id, arrays.values[id].depth });
        }
        return push(false);
    };
    auto memoStore = [&](std::uint64_t index, const std::uint8_t* arg, std::size_t length) {
        if (height == 0 || index != r.memoSize + memoStored)
            return false;
        t.memoArgs.push_back(MemoArg { static_cast<std::uint32_t>(arg - start), memoStored,
            static_cast<std::uint8_t>(length) });
        ++memoStored;
        return true;
    };

    bool ok = true;
    for (const std::uint8_t* q = start; ok && q < end;) {
        const std::uint8_t code = *q;
        const auto left = static_cast<std::size_t>(end - q);
        switch (code) {
        case op::kEmptyDict:
        case op::kEmptyList:
            ok = push(true);
            ++values;
            q += 1;
            break;
        case op::kNone:
        case op::kNewTrue:
        case op::kNewFalse:
            ok = push(false);
            ++values;
            q += 1;
            break;
        case op::kShortBinUnicode: {
            const std::size_t length = left >= 2 ? q[1] : left;
            ok = left >= 2 + length && push(false);
            t.texts.push_back(values++);
            q += 2 + length;
            break;
        }
        case op::kBinUnicode: {
            const std::size_t length = left >= 5 ? pickle::loadLe(q + 1, 4) : left;
            ok = left >= 5 + length && push(false);
            t.texts.push_back(values++);
            q += 5 + length;
            break;
        }
        case op::kBinInt1:
        case op::kBinInt2:
        case op::kBinInt:
        case op::kBinFloat: {
            const std::size_t length = code == op::kBinInt1 ? 1
                : code == op::kBinInt2                      ? 2
                : code == op::kBinInt                       ? 4
                                                            : 8;
            ok = left >= 1 + length && push(false);
            addNumber(code, q + 1, length);
            ++values;
            q += 1 + length;
            break;
        }
        case op::kLong1: {
            const std::size_t length = left >= 2 ? q[1] : left;
            ok = left >= 2 + length && push(false);
            addNumber(code, q + 2, length);
            ++values;
            q += 2 + length;
            break;
        }
        case op::kBinGet:
            ok = left >= 2 && memoRead(q[1], q + 1, 1);
            q += 2;
            break;
        case op::kLongBinGet:
            ok = left >= 5 && memoRead(pickle::loadLe(q + 1, 4), q + 1, 4);
            q += 5;
            break;
        case op::kMemoize:
            ok = height > 0;
            ++memoStored;
            q += 1;
            break;
        case op::kBinPut:
            ok = left >= 2 && memoStore(q[1], q + 1, 1);
            q += 2;
            break;
        case op::kLongBinPut:
            ok = left >= 5 && memoStore(pickle::loadLe(q + 1, 4), q + 1, 4);
            q += 5;
            break;
        case op::kMark:
            ok = markCount < kMaxMarks;
            if (ok) {
                marks[markCount++] = height;
                maxMarks = std::max(maxMarks, markCount);
            }
            q += 1;
            break;
        case op::kAppends:
        case op::kSetItems:
            // Only the dict's own MARKs, and only into containers it made.
            ok = markCount > 0 && marks[markCount - 1] > 0 && mine[marks[markCount - 1] - 1];
            if (ok)
                height = marks[--markCount];
            q += 1;
            break;
        case op::kAppend:
            ok = height >= 2 && mine[height - 2];
            height -= ok ? 1 : 0;
            q += 1;
            break;
        case op::kSetItem:
            ok = height >= 3 && mine[height - 3];
            height -= ok ? 2 : 0;
            q += 1;
            break;
        case op::kTuple2:
            ok = height >= 2;
            if (ok) {
                height -= 2;
                ok = push(false);
                ++values;
            }
            q += 1;
            break;
        default:
            ok = false;
            break;
        }
        if (height == 0) // the dict itself never leaves the stack
            ok = false;
        if (ok && q > end)
            ok = false;
    }
    const PickleId valueEnd = static_cast<PickleId>(site.valueCount);
    ok = ok && height == 1 && markCount == 0 && values == valueEnd - firstValue
        && memoStored == site.memoSize - r.memoSize && site.itemCount >= r.itemCount;
    if (!ok)
        return;

    const auto span = static_cast<std::size_t>(end - start);
    t.values.assign(arrays.values + firstValue, arrays.values + valueEnd);
    t.containers.clear();
    const auto textFrom = static_cast<std::uint64_t>(start - arrays.begin);
    for (std::uint32_t j = 0; j < t.values.size(); ++j) {
        const PickleValue& v = t.values[j];
        if (v.kind >= PickleKind::List) {
            const auto first = static_cast<std::uint32_t>(v.bits);
            const auto capacity = static_cast<std::uint32_t>(v.bits >> 32);
            if (capacity == 0)
                continue;
            if (first < r.itemCount || std::size_t(first) + capacity > site.itemCount)
                return;
            t.containers.push_back(j);
        } else if ((v.kind == PickleKind::Str || v.kind == PickleKind::Bytes)
            && ((v.flags & PickleDocument::kOwnedText) != 0 || v.bits < textFrom
                || v.bits + v.size > textFrom + span)) {
            return; // text from elsewhere: the fast loop only makes views of its own bytes
        }
    }
    for (const std::uint32_t j : t.texts)
        if (j >= t.values.size() || t.values[j].kind != PickleKind::Str)
            return;
    t.items.assign(arrays.items + r.itemCount, arrays.items + site.itemCount);
    auto insideMask = [&](PickleId id) -> PickleId {
        return id >= firstValue && id < valueEnd ? ~PickleId(0) : 0;
    };
    t.itemsInside.resize(t.items.size());
    std::transform(t.items.begin(), t.items.end(), t.itemsInside.begin(), insideMask);
    t.memo.assign(arrays.memo + r.memoSize, arrays.memo + site.memoSize);
    t.memoInside.resize(t.memo.size());
    std::transform(t.memo.begin(), t.memo.end(), t.memoInside.begin(), insideMask);

    t.bytes.assign(start, end);
    t.mask.assign(span, 0xff);
    for (const Number& n : t.numbers)
        std::fill_n(t.mask.begin() + n.offset, n.length, 0);
    for (const MemoArg& m : t.memoArgs)
        std::fill_n(t.mask.begin() + m.offset, m.length, 0);
    t.at = start;
    t.span = static_cast<std::uint32_t>(span);
    t.memoEpoch = m_memoEpoch;
    t.marks = static_cast<std::uint32_t>(maxMarks);
    t.firstValue = firstValue;
    t.firstItem = r.itemCount;
    t.numbersListed = static_cast<std::uint32_t>(m_offsetList.size());
    for (const Number& n : t.numbers)
        m_offsetList.push_back(n.value);
    t.containersListed = static_cast<std::uint32_t>(m_offsetList.size());
    for (std::uint32_t j = 0; j < t.values.size(); ++j)
        if (t.values[j].kind >= PickleKind::List)
            m_offsetList.push_back(j);
    t.containerCount = static_cast<std::uint32_t>(m_offsetList.size()) - t.containersListed;
    t.used = true;
    t.next = kNone;
    if (m_last != kNone)
        m_templates[m_last].next = static_cast<std::uint8_t>(slot);
    m_last = static_cast<std::uint8_t>(slot);
    // The new template goes first: the dicts after it are likeliest to repeat it.
    std::size_t k = m_count < kTemplates ? m_count++ : kTemplates - 1;
    for (; k > 0; --k)
        m_order[k] = m_order[k - 1];
    m_order[0] = static_cast<std::uint8_t>(slot);
}

bool RepeatedDicts::matches(
    const Template& t, const DictSite& site, const DictArrays& arrays, std::uint16_t maxDepth) const
{
    if (!t.used || t.memoEpoch != m_memoEpoch || site.stop - site.at < std::ptrdiff_t(t.span)
        || site.markCount + t.marks > maxDepth)
        return false;
    if (!maskedEqual(site.at, t.bytes.data(), t.mask.data(), t.span))
        return false;
    for (const MemoArg& m : t.memoArgs)
        if (pickle::loadLe(site.at + m.offset, m.length) != site.memoSize + m.relative)
            return false;
    for (const Outside& o : t.outside)
        if (arrays.values[o.id].depth != o.depth)
            return false;
    return true;
}

void RepeatedDicts::copy(const Template& t, const DictSite& site, const DictArrays& arrays) const
{
    PickleValue* const values = arrays.values + site.valueCount;
    std::copy(t.values.begin(), t.values.end(), values);
    const auto firstItem = static_cast<std::uint32_t>(site.itemCount);
    const auto itemShift = firstItem - static_cast<std::uint32_t>(t.firstItem);
    for (const std::uint32_t j : t.containers) {
        const std::uint64_t bits = values[j].bits;
        values[j].bits = (bits & ~std::uint64_t(0xffffffff))
            | static_cast<std::uint32_t>(static_cast<std::uint32_t>(bits) + itemShift);
    }
    const auto textShift = static_cast<std::uint64_t>(site.at - t.at);
    for (const std::uint32_t j : t.texts)
        values[j].bits += textShift;
    for (const Number& n : t.numbers) {
        const std::uint8_t* p = site.at + n.offset;
        PickleValue& v = values[n.value];
        switch (n.opcode) {
        case op::kBinInt1:
            v.bits = p[0];
            break;
        case op::kBinInt2:
            v.bits = pickle::loadLe(p, 2);
            break;
        case op::kBinInt:
            v.bits = static_cast<std::uint64_t>(
                static_cast<std::int32_t>(static_cast<std::uint32_t>(pickle::loadLe(p, 4))));
            break;
        case op::kLong1: {
            bool overflow = false;
            v.bits = static_cast<std::uint64_t>(pickle::decodeLong(p, n.length, overflow));
            v.flags = overflow ? PickleDocument::kIntOverflow : 0;
            break;
        }
        default: // BINFLOAT
            v.bits = pickle::loadBe8(p);
            break;
        }
    }
    const auto valueShift = static_cast<PickleId>(site.valueCount) - t.firstValue;
    // Items and memo slots that are the dict's own values move with it; the others stay.
    PickleId* const items = arrays.items + site.itemCount;
    for (std::size_t k = 0; k < t.items.size(); ++k)
        items[k] = t.items[k] + (t.itemsInside[k] & valueShift);
    PickleId* const memo = arrays.memo + site.memoSize;
    for (std::size_t k = 0; k < t.memo.size(); ++k)
        memo[k] = t.memo[k] + (t.memoInside[k] & valueShift);
}

} // namespace rankscope::parsers
