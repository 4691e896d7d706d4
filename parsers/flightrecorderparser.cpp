#include "parsers/flightrecorderparser.h"

namespace rankscope::parsers {

void parseFlightRecorderPickle(std::string_view, model::ParsedSource& out)
{
    out.issues.add("flight_recorder_not_read",
        out.source.path + ": Flight Recorder pickle dump found; this version lists it but does not read it yet");
}

void parseFlightRecorderJson(std::string_view, model::ParsedSource& out)
{
    out.issues.add("flight_recorder_not_read",
        out.source.path + ": Flight Recorder JSON dump found; this version lists it but does not read it yet");
}

bool looksLikeFlightRecorderJson(std::string_view)
{
    return false;
}

} // namespace rankscope::parsers
