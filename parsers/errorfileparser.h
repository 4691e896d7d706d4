#pragma once
// torchrun error.json ([formats 5.3]), written by @record → ErrorHandler.record_exception
// in the failed worker, re-written by the agent with "errorCode" on re-raise:
//
//   {"message": {"message": "RuntimeError: boom",
//                "extraInfo": {"py_callstack": "Traceback (most recent call last):\n…",
//                              "timestamp": "1686774970"},
//                "errorCode": 1}}
//     → LauncherErrorFile event: detail = "RuntimeError", text = "boom", code = errorCode (0
//       when absent), time = timestamp (UTC epoch, second precision), evidence = line 1,
//       offset 0, Error
//     + PythonTraceback record read from py_callstack by a PythonErrorParser, with the CUDA /
//       signal events it finds there (its PythonException duplicates the event above and is
//       dropped).
//   {"message": "<str>", "timestamp": 1686774970}   (the "new" format) → the same event.
//
// Malformed JSON, or JSON that is not an error file, becomes import issue "bad_error_file"
// naming the file and the reason; no exception leaves parseErrorFile.

#include "model/parsedsource.h"

#include <string_view>

namespace rankscope::parsers {

// Parses the whole file.
void parseErrorFile(std::string_view bytes, model::ParsedSource& out);

// True when the bytes look like an error.json (cheap content check for detection): a JSON
// object that mentions "message".
bool looksLikeErrorFile(std::string_view head);

} // namespace rankscope::parsers
