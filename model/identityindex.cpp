#include "model/identityindex.h"

#include "model/mix64.h"

namespace rankscope::model {

namespace {

constexpr std::size_t kFirstSlots = 64;

std::uint64_t pack(std::int64_t low, std::int64_t high) noexcept
{
    return static_cast<std::uint32_t>(low) | (static_cast<std::uint64_t>(static_cast<std::uint32_t>(high)) << 32);
}

} // namespace

std::uint64_t IdentityIndex::hash(const RawIdentity& id) noexcept
{
    std::uint64_t h = mix64(pack(id.source, id.globalRank));
    h = mix64(h ^ pack(id.localRank, id.srunTask));
    h = mix64(h ^ pack(id.mpiRank, id.pid));
    return mix64(h ^ pack(id.host, id.ip));
}

void IdentityIndex::rehash(std::size_t slots)
{
    std::vector<Slot> old(slots);
    old.swap(m_slots);
    const std::size_t mask = slots - 1;
    for (const Slot& slot : old) {
        if (slot.indexPlusOne == 0)
            continue;
        std::size_t at = hash(slot.identity) & mask;
        while (m_slots[at].indexPlusOne != 0)
            at = (at + 1) & mask;
        m_slots[at] = slot;
    }
}

std::uint32_t IdentityIndex::findOrAdd(const RawIdentity& identity, std::vector<RawIdentity>& list)
{
    if (m_slots.size() < kFirstSlots || (list.size() + 1) * 2 > m_slots.size())
        rehash(m_slots.size() < kFirstSlots ? kFirstSlots : m_slots.size() * 2);
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t at = hash(identity) & mask;; at = (at + 1) & mask) {
        Slot& slot = m_slots[at];
        if (slot.indexPlusOne == 0) {
            list.push_back(identity);
            slot = Slot { identity, static_cast<std::uint32_t>(list.size()) };
            return slot.indexPlusOne - 1;
        }
        if (slot.identity == identity)
            return slot.indexPlusOne - 1;
    }
}

} // namespace rankscope::model
