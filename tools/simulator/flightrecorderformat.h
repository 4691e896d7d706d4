#pragma once
// Serialises a FrTraceDump the way PyTorch writes it ([formats 2.2]/2.3):
//   - pickle: what ProcessGroupNCCL writes to nccl_trace_rank_<R> through torch::jit::Pickler
//     (protocol 2; see PickleWriter), keys in the order FlightRecorder inserts them, one
//     frame dict per distinct frame shared by every entry that shows it;
//   - JSON: the control plane's dump_nccl_trace_json (no frames, time_discovered_* 0 instead
//     of null, pg_config/pg_status values as strings, entries omitted when empty).
// Schema differences by version: "2.7" adds nccl_version, "2.10" comm_lib_version and each
// entry's thread_name/thread_id (as frgen.py writes them).

#include "flightrecordertrace.h"

#include <string>
#include <string_view>

namespace rankscope::simulator {

std::string flightRecorderPickle(const FrTraceDump& dump, std::string_view version);
std::string flightRecorderJson(const FrTraceDump& dump, std::string_view version);

} // namespace rankscope::simulator
