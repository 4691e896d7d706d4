#pragma once
// The index from a writer's identity to its place in a source's identity list.
//
// A combined console (srun --label, pdsh, an MPI job's one output file) alternates thousands
// of writers line by line, so nearly every line looks its writer up here, once for its launcher
// prefix and again for the NCCL process its header names. A node-based map paid a cache miss or
// two per lookup (12 % of reading a 4096-writer srun console on one thread); this table is open
// addressing, at most half full, probed linearly, and each slot holds its identity beside the
// index, so a lookup touches one slot and not the list as well.

#include "model/identity.h"

#include <cstdint>
#include <vector>

namespace rankscope::model {

class IdentityIndex {
public:
    // The position of `identity` in `list`, appended to `list` when it is not there yet.
    // `list` must hold exactly the identities added through this index, in order.
    std::uint32_t findOrAdd(const RawIdentity& identity, std::vector<RawIdentity>& list);

    static std::uint64_t hash(const RawIdentity& identity) noexcept;

private:
    struct Slot {
        RawIdentity identity;
        std::uint32_t indexPlusOne = 0; // 0: empty
    };
    void rehash(std::size_t slots);

    std::vector<Slot> m_slots; // a power of two in size
};

} // namespace rankscope::model
