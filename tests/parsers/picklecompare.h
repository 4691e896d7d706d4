#pragma once
// The fast pickle loop against the reference path (PickleReaderPath::Reference: step()
// alone) on the same bytes: every result field and every value of the document must agree.
// Shared by the reader's tests and those of the repeated-dict copier.

#include "parsers/picklereader.h"

#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>

namespace rankscope::testing {

using parsers::PickleDocument;
using parsers::PickleId;
using parsers::PickleKind;
using parsers::PickleLimits;
using parsers::PickleReaderPath;
using parsers::PickleResult;
using parsers::readPickle;

// Everything a caller can observe of a read, as text.
inline std::string observed(const PickleResult& r)
{
    std::ostringstream s;
    s << "complete " << r.complete << " truncated " << r.truncated << " refused " << r.refused
      << " protocol " << r.protocol << " root " << r.root << " error@" << r.errorOffset << " "
      << r.error << " limit " << r.document.limitError() << "\n";
    const PickleDocument& d = r.document;
    for (PickleId id = 0; id < d.valueCount(); ++id) {
        s << id << ": kind " << int(d.kind(id)) << " depth " << d.depth(id) << " salvaged "
          << d.salvaged(id) << " overflow " << d.overflowed(id);
        std::int64_t n = 0;
        double x = 0;
        if (d.integer(id, n))
            s << " int " << n;
        else if (d.real(id, x))
            s << " real " << std::bit_cast<std::uint64_t>(x);
        else if (d.is(id, PickleKind::Str) || d.is(id, PickleKind::Bytes))
            s << " text " << d.text(id).size() << ":" << d.text(id);
        else if (d.isContainer(id)) {
            s << " size " << d.size(id) << " items";
            for (const PickleId item : d.items(id))
                s << ' ' << item;
        }
        s << "\n";
    }
    return s.str();
}

// Reads `bytes` both ways and requires the same outcome; the fast result is returned.
// The first line where two texts of many lines differ (a report, not two whole documents).
inline std::pair<std::string, std::string> firstDifferentLines(
    const std::string& a, const std::string& b)
{
    std::istringstream fa(a), fb(b);
    std::string la, lb;
    while (std::getline(fa, la) && std::getline(fb, lb) && la == lb) { }
    return { la, lb };
}

inline void requireSameAsReference(const std::string& bytes, const PickleLimits& limits = {})
{
    PickleResult fast;
    PickleResult reference;
    readPickle(bytes, fast, limits, PickleReaderPath::Fast);
    readPickle(bytes, reference, limits, PickleReaderPath::Reference);
    const std::string a = observed(fast);
    const std::string b = observed(reference);
    if (a != b) {
        const auto [la, lb] = firstDifferentLines(a, b);
        INFO("fast:      " << la);
        INFO("reference: " << lb);
        INFO("input of " << bytes.size() << " bytes");
        FAIL("the fast loop and the reference path disagree");
    }
}

} // namespace rankscope::testing
