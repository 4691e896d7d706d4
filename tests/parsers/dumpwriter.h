#pragma once
// A writer of Flight Recorder-like pickles with thousands of repeated entries, for the tests
// of the reader's copies of repeated dicts (parsers/picklerepeats.h) and of mapping them.

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace rankscope::testing {

// Writes a Flight Recorder-like dump the way torch::jit::Pickler (protocol 2: BINPUT with
// slot numbers) or Python's pickle (protocol 4: MEMOIZE) would: memoized keys read back with
// BINGET, shared frame dicts, entry numbers that change from entry to entry, a few entry
// shapes. Options add the traps a copier must not fall into.
class DumpWriter {
public:
    struct Traps {
        bool overwriteMemo = false; // between entries, store another string over a key's slot
        bool growShared = false; // between entries, append to a list the entries refer to
        bool reachOutside = false; // some entries append to a list made before them
        bool changeEarlier = false; // between entries, add a key to an earlier entry
        // Halfway, leave memo slots unused, so the rest is read by step() alone (protocol 2
        // only: MEMOIZE numbers slots by how many are in use).
        bool memoHole = false;
        bool changeLastOnly = false; // changeEarlier only ever changes the entry just written
        // Some entries memoize their sequence id and read it back as a tensor dim: one number
        // that is both an entry field and part of the call.
        bool sharedNumber = false;
    };

    DumpWriter(std::uint32_t seed, bool protocol4)
        : m_rng(seed)
        , m_protocol4(protocol4)
    {
    }

    std::string write(int entries, const Traps& traps)
    {
        m_out.clear();
        m_memo = 0;
        m_strings.clear();
        m_frames.clear();
        m_entries.clear();
        m_out += '\x80';
        m_out += m_protocol4 ? '\x04' : '\x02';
        m_out += '}';
        put();
        m_out += '(';
        key("version");
        text("2.10", false);
        // Things the entries share: two frame dicts and a list.
        key("shared");
        m_out += ']';
        put();
        m_out += '(';
        for (const char* name : { "all_reduce", "train_step" }) {
            m_out += '}';
            m_frames.push_back(put());
            m_out += '(';
            key("name");
            text(name, true);
            key("line");
            integer(100 + m_frames.size());
            m_out += 'u';
        }
        m_out += ']';
        m_sharedList = put();
        m_out += 'e';
        key("entries");
        m_out += ']';
        put();
        m_out += '(';
        for (int i = 0; i < entries; ++i) {
            if (i > 0 && i % 1000 == 0) // Python batches list items 1000 at a time
                m_out += "e(";
            entry(i, traps);
            if (traps.overwriteMemo && pick(7) == 0) {
                // BINGET "zz…", BINPUT <slot of "state">, POP: the next entries read "zz…".
                text("zz" + std::to_string(i), false);
                putAt(m_strings["state"]);
                m_out += '0';
            }
            if (traps.memoHole && !m_protocol4 && i == entries / 2) {
                text("hole", false); // stored 3 slots further on, and popped
                m_memo += 3;
                putAt(m_memo++);
                m_out += '0';
            }
            const bool late = !traps.memoHole || i > entries / 2; // with a hole: after it
            if (traps.changeEarlier && late && pick(8) == 0 && !m_entries.empty()) {
                // BINGET <an earlier entry> ( "input_sizes" [9, 9] u POP: a second
                // input_sizes, which wins, in an entry that others may have been copied from.
                // Half the time to the entry just written with a string already read, so
                // no container is made in between and the fast loop appends in place.
                const bool last = traps.changeLastOnly || pick(2) == 0;
                get(last ? m_entries.back()
                         : m_entries[pick(static_cast<std::uint32_t>(m_entries.size()))]);
                m_out += '(';
                key("input_sizes");
                if (last) {
                    text("0", true);
                } else {
                    m_out += ']';
                    put();
                    m_out += '(';
                    integer(9);
                    integer(9);
                    m_out += 'e';
                }
                m_out += "u0";
            }
            if (traps.growShared && pick(9) == 0) {
                // Append a list nested one deeper than last time: the shared list, and
                // every entry holding it, gets deeper.
                get(m_sharedList);
                m_nesting = std::min(m_nesting + 1, 12);
                m_out.append(static_cast<std::size_t>(m_nesting), ']');
                m_out.append(static_cast<std::size_t>(m_nesting), 'a');
                m_out += '0';
            }
        }
        m_out += 'e';
        m_out += 'u';
        m_out += '.';
        return m_out;
    }

private:
    std::uint32_t pick(std::uint32_t n) { return static_cast<std::uint32_t>(m_rng() % n); }
    void le(std::uint64_t v, int bytes)
    {
        for (int i = 0; i < bytes; ++i)
            m_out += static_cast<char>(v >> (8 * i));
    }
    std::uint32_t put()
    {
        if (m_protocol4) {
            m_out += '\x94';
        } else if (m_memo < 256) {
            m_out += 'q';
            m_out += static_cast<char>(m_memo);
        } else {
            m_out += 'r';
            le(m_memo, 4);
        }
        return m_memo++;
    }
    void putAt(std::uint32_t slot)
    {
        m_out += 'r';
        le(slot, 4);
    }
    void get(std::uint32_t slot)
    {
        if (slot < 256) {
            m_out += 'h';
            m_out += static_cast<char>(slot);
        } else {
            m_out += 'j';
            le(slot, 4);
        }
    }
    // A string; `shared` ones are memoized once and read back after, as keys are.
    void text(const std::string& s, bool shared)
    {
        if (shared) {
            const auto known = m_strings.find(s);
            if (known != m_strings.end()) {
                get(known->second);
                return;
            }
        }
        if (s.size() < 256 && m_protocol4) {
            m_out += '\x8c';
            m_out += static_cast<char>(s.size());
        } else {
            m_out += 'X';
            le(s.size(), 4);
        }
        m_out += s;
        const std::uint32_t slot = put();
        if (shared)
            m_strings[s] = slot;
    }
    void key(const std::string& k) { text(k, true); }
    void integer(std::int64_t v)
    {
        if (v >= 0 && v < 256) {
            m_out += 'K';
            m_out += static_cast<char>(v);
        } else if (v >= 0 && v < 65536) {
            m_out += 'M';
            le(static_cast<std::uint64_t>(v), 2);
        } else if (v >= INT32_MIN && v <= INT32_MAX) {
            m_out += 'J';
            le(static_cast<std::uint64_t>(v), 4);
        } else {
            m_out += '\x8a';
            m_out += '\x08';
            le(static_cast<std::uint64_t>(v), 8);
        }
    }
    // Numbers that keep their encoding most of the time, as real sequence ids and times do.
    std::int64_t small() { return pick(50) == 0 ? 300 + pick(70000) : pick(200); }
    void entry(int i, const Traps& traps)
    {
        const std::uint32_t shape = pick(10) < 7 ? pick(3) : 3 + pick(3);
        m_out += '}';
        const std::uint32_t self = put();
        m_entries.push_back(self);
        m_out += '(';
        key("record_id");
        integer(small());
        key("process_group");
        text("0", true);
        text("default_pg", true);
        m_out += '\x86';
        put();
        key("collective_seq_id");
        integer(small());
        const bool sharedSeq = traps.sharedNumber && shape == 1;
        const std::uint32_t seqSlot = sharedSeq ? put() : 0;
        key("profiling_name");
        text(shape % 3 == 0      ? "nccl:all_reduce"
                : shape % 3 == 1 ? "nccl:broadcast"
                                 : "nccl:send 1->2",
            false);
        key("time_created_ns");
        integer(1724779239936775119LL + i * 1000LL + pick(10));
        if (pick(40) == 0) { // a LONG1 past int64: clamped, flagged
            key("odd");
            m_out += "\x8a\x09";
            for (int b = 0; b < 9; ++b)
                m_out += static_cast<char>(pick(256));
        }
        key("duration_ms");
        m_out += 'G';
        le(m_rng(), 4);
        le(m_rng(), 4);
        key("input_sizes");
        m_out += ']';
        const std::uint32_t sizes = put();
        m_out += ']';
        put();
        m_out += '(';
        // Shapes repeat from step to step; now and then one is new.
        for (std::uint32_t d = 0; d < 1 + shape % 2; ++d)
            integer(pick(20) == 0 ? small() : 64 << (shape + d));
        if (sharedSeq)
            get(seqSlot);
        m_out += 'e';
        m_out += 'a';
        key("output_sizes");
        if (shape < 3) {
            get(sizes); // the same list again: a memo slot of the entry's own
        } else {
            m_out += ']';
            put();
        }
        key("state");
        text(pick(20) == 0 ? "scheduled" : "completed", false);
        key("frames");
        m_out += ']';
        put();
        m_out += '(';
        get(m_frames[0]);
        get(m_frames[1]);
        m_out += 'e';
        key("shared");
        get(m_sharedList);
        if (traps.reachOutside && shape == 4) {
            // The value of "outside" is the shared list, with an item appended to it by
            // the entry: the entry changes something made before it.
            key("outside");
            get(m_sharedList);
            m_out += '(';
            integer(i);
            m_out += 'e';
        }
        key("retired");
        m_out += pick(30) != 0 ? '\x88' : '\x89';
        key("self");
        get(self); // the entry itself, read back from its own memo slot
        m_out += 'u';
    }

    std::mt19937 m_rng;
    bool m_protocol4;
    std::string m_out;
    std::uint32_t m_memo = 0;
    std::map<std::string, std::uint32_t> m_strings;
    std::vector<std::uint32_t> m_frames;
    std::uint32_t m_sharedList = 0;
    std::vector<std::uint32_t> m_entries; // memo slots of the entries written
    int m_nesting = 0;
};

} // namespace rankscope::testing
