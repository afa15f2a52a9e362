#pragma once
// One Chrome trace event as the tokenizer found it: its fields as text views into the
// read window (valid until the window moves), not yet interpreted. The event parser
// (chrome_event_parser.h) turns it into the model.
#include <cstdint>
#include <string_view>
#include <vector>

#include "io/args_text.h"

namespace opscope {

struct RawIdText {
  bool present = false;
  bool isString = false;
  std::string_view text;  // an object's raw text: the id of flows and counters, as written
  bool fromId2 = false;   // read from "id2" (a plain "id" wins over it)
  // Async ids: 0 a plain string or number "id", or an id2 "global", which names one track
  // across the trace's processes (the Trace Event Format, catapult and Perfetto alike);
  // 'l' an id2 "local", or an id or id2 of another form, per process.
  char scope = 0;
  // An id2 object's "global" (else "local") value: the async id, in place of `text`.
  bool hasAsync = false;
  bool asyncIsString = false;
  std::string_view async;
};

// One event's fields as text views into the window (or scratch).
struct RawEvent {
  const char* at = nullptr;
  std::string_view ph, name, cat, ts, dur, bp, scope;
  bool hasPh = false, hasName = false, hasTs = false, hasDur = false;
  bool tsIsString = false, durIsString = false, nameNotString = false;
  RawIdText pid, tid, id;
  std::vector<RawArg> args;
  const char* argsAt = nullptr;      // the args object's '{', when there is one
  uint64_t controlCharsBefore = 0;   // the scanner's count of control characters before
  uint64_t controlCharsAfter = 0;    // and after the event: any in between is warned about
  uint64_t escapedBreaksBefore = 0;  // the same for escaped \n \r \t, warned about in names only
  uint64_t escapedBreaksAfter = 0;

  void reset(const char* start, uint64_t controlChars, uint64_t escapedBreaks) {
    at = start;
    controlCharsBefore = controlCharsAfter = controlChars;
    escapedBreaksBefore = escapedBreaksAfter = escapedBreaks;
    ph = name = cat = ts = dur = bp = scope = {};
    hasPh = hasName = hasTs = hasDur = false;
    tsIsString = durIsString = nameNotString = false;
    pid = tid = id = {};
    args.clear();
    argsAt = nullptr;
  }
};

}  // namespace opscope
