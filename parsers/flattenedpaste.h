#pragma once
// A log pasted outside a code block is rendered as a paragraph: its line breaks become spaces
// and a dozen records arrive as one line ("[E ProcessGroupNCCL.cpp:455] Some NCCL operations
// have failed … [E ProcessGroupNCCL.cpp:460] To avoid data inconsistency … terminate called
// after throwing …"). Where such a line holds the start of another record, the scanner reads
// it from there as a piece of its own (LogScanner), as it reads the pieces of a line a
// carriage return split.

#include <cstddef>
#include <string_view>
#include <vector>

namespace rankscope::parsers {

// Where records glued into `line` after a blank begin (never 0), in order: a PyTorch C++ log
// envelope ("[E ProcessGroupNCCL.cpp:455]", "[W1206 18:44:13.27 Foo.cpp:12]"), its "[rank3]:"
// or torchrun's "[default3]:" prefix, Open MPI's "[1,3]<stdout>:" and horovodrun's
// "[3]<stderr>:" labels, NCCL's "host:pid:tid [dev] NCCL INFO|WARN" header (a WARN's source
// location included, a "[15]" label before it too), Python logging's "LEVEL:logger:" header, a
// Python traceback, a C++ "terminate called", a gdb frame ("#3  …"), a dmesg time stamp,
// nvidia-smi's lost-GPU message, torchrun's failure and Lightning's rank announcements.
std::vector<std::size_t> gluedRecordStarts(std::string_view line);

// One of the first lines of `head` (a source's first bytes) glues three records or more: the
// source is a flattened paste.
bool looksFlattened(std::string_view head);

} // namespace rankscope::parsers
