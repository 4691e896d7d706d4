// PyTorch's Gloo backend: the loopback fallback warning and connection failures with the
// address they went to, whole, wrapped before the address, and lines that only look alike.
#include "scanhelpers.h"

#include <catch2/catch.hpp>

using namespace rankscope;
using model::EventKind;
using testing::eventsOf;
using testing::firstOf;
using testing::scan;
using testing::str;

TEST_CASE("the loopback fallback warning is its own event", "[parsers][gloo]")
{
    auto p = scan("[W ProcessGroupGloo.cpp:559] Warning: Unable to resolve hostname to a (local) address. "
                  "Using the loopback address as fallback. Manually set the network interface to bind to "
                  "with GLOO_SOCKET_IFNAME. (function operator())\n");
    const auto* e = firstOf(p, EventKind::GlooLoopbackFallback);
    REQUIRE(e);
    CHECK(e->severity == model::Severity::Warning);
}

TEST_CASE("a Gloo connection failure keeps the address it went to", "[parsers][gloo]")
{
    auto p = scan("terminate called after throwing an instance of 'gloo::IoException'\n"
                  "  what():  [/opt/conda/conda-bld/pytorch_1544176307774/work/third_party/gloo/gloo/transport/tcp/"
                  "pair.cc:724] connect [127.0.1.1]:3210: Connection refused\n"
                  "[/src/gloo/gloo/transport/tcp/pair.cc:761] connect [10.0.0.7]:60817: Connection refused\n");
    const auto found = eventsOf(p, EventKind::GlooConnectError);
    REQUIRE(found.size() == 2);
    CHECK(str(p, found[0]->peer) == "127.0.1.1:3210");
    CHECK(str(p, found[1]->peer) == "10.0.0.7:60817");
}

TEST_CASE("a connectFullMesh failure wrapped before its address reads the next line", "[parsers][gloo]")
{
    auto p = scan("[rank8] Gloo connectFullMesh failed ... timed out connecting: SO_ERROR: Connection refused,\n"
                  "        remote=[127.0.0.1]:14215\n"
                  "RuntimeError: Gloo connectFullMesh failed ...\n"
                  "next unrelated line remote=[10.1.1.1]:5\n");
    const auto found = eventsOf(p, EventKind::GlooConnectError);
    REQUIRE(found.size() == 1);
    CHECK(str(p, found[0]->peer) == "127.0.0.1:14215");
}

TEST_CASE("lines that only mention loopback or Gloo are not Gloo failures", "[parsers][gloo]")
{
    auto p = scan("bind to the loopback interface for the dashboard\n"
                  "Using Gloo backend for CPU tensors\n"
                  "connect [127.0.0.1]:8080: Connection refused (a web client)\n");
    CHECK(eventsOf(p, EventKind::GlooConnectError).empty());
    CHECK(eventsOf(p, EventKind::GlooLoopbackFallback).empty());
}
