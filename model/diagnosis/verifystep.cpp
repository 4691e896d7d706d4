#include "model/diagnosis/verifystep.h"

namespace rankscope::model {

std::string verifyStepLine(const VerifyStep& step)
{
    if (step.command.empty())
        return step.note;
    if (step.note.empty())
        return step.command;
    return step.command + "   # " + step.note;
}

std::vector<std::string> verifyStepLines(const std::vector<VerifyStep>& steps)
{
    std::vector<std::string> lines;
    lines.reserve(steps.size());
    for (const auto& step : steps)
        lines.push_back(verifyStepLine(step));
    return lines;
}

} // namespace rankscope::model
