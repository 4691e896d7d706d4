#pragma once
// One step of "how to verify": a shell command the user can paste as it is, and a note that
// says where to run it or what to look for. The two are separate so that a Copy button or
// a script only ever gets the command: prose pasted into a shell is a syntax error at best.
// A step without a command is an instruction to follow ("Rerun with NCCL_DEBUG=INFO ...").

#include <string>
#include <vector>

namespace rankscope::model {

struct VerifyStep {
    std::string command; // runnable as is in bash; empty for an instruction
    std::string note;    // where to run it or what it shows; may be empty

    bool operator==(const VerifyStep&) const = default;
};

// The step as one line of plain text: the command, then the note as a shell comment so
// the line still runs if pasted whole ("cmd  # note"), or the note alone.
std::string verifyStepLine(const VerifyStep& step);
std::vector<std::string> verifyStepLines(const std::vector<VerifyStep>& steps);

} // namespace rankscope::model
