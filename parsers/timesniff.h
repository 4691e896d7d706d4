#pragma once
// Reads the timestamp a line starts with, for every leading clock format in the logs
// ([formats 1.1], [formats 3.1], [formats 5.1], [formats 6], [formats 7.1], [formats 10]). Parsers receive the result in their
// LineContext, so no parser re-parses envelopes it does not own.
//
//   "[E1218 20:27:21.426415540 ProcessGroupNCCL.cpp:629] "  PyTorch ≥2.4: MMDD, seconds only
//   "I0527 15:16:57.738664 58629 file.cpp:2183] "           glog / torch._logging: µs
//   "[2024-07-25 06:36:18,293] "                            Python logging / DeepSpeed: ms
//   "2024-07-25 06:36:18,293 " / "2024-07-25T06:36:18"      ISO
//   "[2025-03-01 12:00:05] "                                NCCL 2.26+ WARN
//   "[ 1399.140323] "                                       dmesg (seconds since boot)
//   "[Tue Jun 11 10:00:00 2024] "                           dmesg -T
//   "Jun 11 10:00:00 "                                      syslog / journal (no year)

#include "model/timepoint.h"

#include <cstddef>
#include <string_view>

namespace rankscope::parsers {

struct SniffedTime {
    model::TimePoint time;
    std::size_t length = 0; // bytes of the timestamp (and its brackets) at the line start
};

SniffedTime sniffTimeAtStart(std::string_view line);

// Every clock above starts with '[', a digit or a capital letter (severity, month, weekday);
// the test is inline because most lines of a big bundle start with a lowercase host name.
inline SniffedTime sniffLeadingTime(std::string_view line)
{
    if (line.size() < 10)
        return {};
    const char c = line[0];
    if (c != '[' && !(c >= '0' && c <= '9') && !(c >= 'A' && c <= 'Z'))
        return {};
    return sniffTimeAtStart(line);
}

// The PyTorch C++ envelope "[E1218 20:27:21.426415540 " or glog "E1218 20:27:21.426415 " at
// the start of `s`. Returns an invalid time when `s` does not start with one.
model::TimePoint parseTorchEnvelopeTime(std::string_view s);

// "2023-06-14_22:36:10" (torchrun table), "2024-07-25 06:36:18,293", "2024-07-25T06:36:18.5".
model::TimePoint parseIsoTime(std::string_view s, std::size_t* consumed = nullptr);

} // namespace rankscope::parsers
