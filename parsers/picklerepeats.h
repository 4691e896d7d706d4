#pragma once
// Copies of dicts the fast pickle loop has already built. A Flight Recorder dump is 2000
// entry dicts written by one loop, and most repeat an earlier entry byte for byte except
// for their numbers (record id, sequence ids, times, sizes):
//
//   } q0x39 ( h14 ] ( h19 h22 h25 h27 e h28 K·· h29 K·· … h37 8a 08 ········ … u
//   └ EMPTY_DICT        memo reads of keys and shared frames        numbers (·) differ
//
// The first such entry is read opcode by opcode. When its dict is complete (the next dict
// starts right after it, one stack slot higher, with everything else as it was), what it
// built is kept as a template: its bytes with the numbers masked, its values, items and memo
// slots, and where each number went. A later dict whose bytes match is then not interpreted:
// the template's values, items and memo slots are copied to the end of the document's
// arrays, moved by the offset between the two dicts, and the numbers decoded into their
// values — exactly what running the opcodes would have produced, in the same slots.
//
// Only dicts whose opcodes are self-contained become templates: every opcode is one the
// fast loop takes, nothing reaches below the dict on the stack, every MARK it pops is its
// own, every container it fills is one it made, and memo slots it stores or reads back
// that it stored itself are numbered relative to its first one. What it reads from outside
// (memo slots stored before it) must still be there unchanged: a store over an old memo slot
// retires every template, and containers read from the memo must be as deep as they were.

#include "parsers/picklereader.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rankscope::parsers {

// Where the fast loop stands at an EMPTY_DICT it has not run yet.
struct DictSite {
    const std::uint8_t* at = nullptr; // the EMPTY_DICT opcode
    const std::uint8_t* stop = nullptr; // end of the fast loop's stretch
    std::size_t height = 0; // stack height before the dict is pushed
    std::size_t markCount = 0;
    std::size_t valueCount = 0;
    std::size_t itemCount = 0;
    std::size_t memoSize = 0;
};

// The document's arrays as the fast loop holds them.
struct DictArrays {
    const std::uint8_t* begin = nullptr; // the input: text offsets count from here
    PickleValue* values = nullptr;
    PickleId* items = nullptr;
    PickleId* memo = nullptr;
    const PickleId* stack = nullptr;
};

// What a copy added (span 0: nothing copied, the EMPTY_DICT runs as usual). The copied
// dict is the value at the site's valueCount; the caller pushes it.
struct DictCopy {
    std::uint32_t span = 0; // bytes of input the copy stands for
    std::uint32_t values = 0;
    std::uint32_t items = 0;
    std::uint32_t memo = 0;
};

class RepeatedDicts {
public:
    // Each copy is listed in `copies`, its template's number and container offsets in
    // `offsets` (see PickleCopy).
    RepeatedDicts(std::vector<PickleCopy>& copies, std::vector<std::uint32_t>& offsets)
        : m_copyList(copies)
        , m_offsetList(offsets)
    {
    }

    // The fast loop starts a new stretch: dicts begun before it are not learnt.
    void beginStretch() { ++m_stretch; }
    // A memo slot already in use was stored again (only step() does that).
    void memoOverwritten() { ++m_memoEpoch; }

    // At an EMPTY_DICT: learns the dict just completed below it, if any, then copies a
    // template the bytes at site.at repeat, if any.
    DictCopy atDict(const DictSite& site, const DictArrays& arrays, std::uint16_t maxDepth);

private:
    struct Number {
        std::uint32_t offset; // of the payload in the span
        std::uint32_t value; // index in the template's values
        std::uint8_t opcode;
        std::uint8_t length;
    };
    struct MemoArg { // BINPUT/BINGET argument that counts from the dict's first memo slot
        std::uint32_t offset;
        std::uint32_t relative;
        std::uint8_t length;
    };
    struct Outside { // a container read from the memo: it must not have grown
        PickleId id;
        std::uint16_t depth;
    };
    struct Template {
        const std::uint8_t* at = nullptr;
        std::uint32_t span = 0;
        std::uint64_t memoEpoch = 0;
        std::uint32_t marks = 0; // MARKs open at once at most
        PickleId firstValue = 0;
        std::size_t firstItem = 0;
        std::uint32_t numbersListed = 0; // where its number offsets start in m_offsetList
        std::uint32_t containersListed = 0; // and its containers' offsets
        std::uint32_t containerCount = 0;
        std::vector<std::uint8_t> bytes; // the span as it was read
        std::vector<std::uint8_t> mask; // 0xff where bytes must match
        std::vector<PickleValue> values;
        std::vector<std::uint32_t> containers; // values whose items move
        std::vector<std::uint32_t> texts; // values whose text moves
        std::vector<PickleId> items;
        // Per item (and memo slot): all ones when it is one of the dict's own values, which
        // move with the copy; zero when it was made before the dict. A mask, not a list of
        // indexes, so that the copy is one vectorisable pass.
        std::vector<PickleId> itemsInside;
        std::vector<PickleId> memo;
        std::vector<PickleId> memoInside;
        std::vector<Number> numbers;
        std::vector<MemoArg> memoArgs;
        std::vector<Outside> outside;
        std::uint8_t next = kNone; // the template copied right after this one last time
        bool used = false;
    };
    struct Recording {
        const std::uint8_t* at = nullptr;
        PickleId dict = kNoPickleValue;
        std::size_t height = 0; // of the dict on the stack
        std::size_t markCount = 0;
        std::size_t itemCount = 0;
        std::size_t memoSize = 0;
        std::uint64_t stretch = 0;
    };

    void learn(const Recording& r, const DictSite& site, const DictArrays& arrays);
    bool matches(const Template& t, const DictSite& site, const DictArrays& arrays,
        std::uint16_t maxDepth) const;
    void copy(const Template& t, const DictSite& site, const DictArrays& arrays) const;
    DictCopy copied(std::uint8_t slot, const DictSite& site, const DictArrays& arrays);

    static constexpr std::size_t kTemplates = 8;
    static constexpr std::uint8_t kNone = 0xff;
    static constexpr std::size_t kHeights = 64; // recordings, by stack height modulo this
    std::array<Template, kTemplates> m_templates {};
    std::array<std::uint8_t, kTemplates> m_order {}; // most recently used first
    std::size_t m_count = 0;
    std::uint8_t m_last = kNone; // the template copied or learnt last
    std::array<Recording, kHeights> m_recordings {};
    std::uint64_t m_stretch = 1;
    std::uint64_t m_memoEpoch = 0;
    std::vector<PickleCopy>& m_copyList;
    std::vector<std::uint32_t>& m_offsetList;
};

} // namespace rankscope::parsers
