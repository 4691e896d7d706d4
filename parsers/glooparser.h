#pragma once
// PyTorch's Gloo backend (c10d ProcessGroupGloo, gloo/transport/tcp). Each rank binds its
// Gloo device to the address its hostname resolves to and publishes it through the store;
// its peers connect there. A hostname that resolves to a loopback address (Debian and Ubuntu
// map it to 127.0.1.1 in /etc/hosts) or none at all (PyTorch then falls back to the loopback
// address and warns) publishes an address no other host can reach: peers on other hosts
// connect to themselves and are refused.
//   "[W ProcessGroupGloo.cpp:559] Warning: Unable to resolve hostname to a (local) address.
//    Using the loopback address as fallback. Manually set the network interface to bind to
//    with GLOO_SOCKET_IFNAME."                       → GlooLoopbackFallback, Warning
//   "what(): [.../gloo/transport/tcp/pair.cc:724] connect [127.0.1.1]:3210: Connection refused"
//   "Gloo connectFullMesh failed ... SO_ERROR: Connection refused, remote=[127.0.0.1]:14215"
//       → GlooConnectError, peer = the address and port, Error

#include "model/parsedsource.h"
#include "parsers/linecontext.h"

#include <cstdint>
#include <string_view>

namespace rankscope::parsers {

class GlooParser {
public:
    bool parseLine(const LineContext& ctx, std::string_view body, model::ParsedSource& out);
    bool inBlock() const { return m_addressPending; }
    void finish(model::ParsedSource&) { m_addressPending = false; }

private:
    bool m_addressPending = false; // a connect failure whose address the next line may hold
    std::uint32_t m_pendingIdentity = 0;
};

} // namespace rankscope::parsers
