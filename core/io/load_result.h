#pragma once
// What every importer returns, and the progress/cancel hook the GUI's worker uses.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "model/trace.h"

namespace opscope {

struct LoadProgress {
  uint64_t bytesDone = 0;   // bytes of the file consumed (compressed bytes for .gz)
  uint64_t bytesTotal = 0;  // file size
  uint64_t events = 0;      // events read so far
};

struct LoadOptions {
  // Called about every few MiB from the loading thread; return false to cancel.
  std::function<bool(const LoadProgress&)> progress;
  // Skip the hierarchy pass (nesting, launch links, flows, iterations). Tests only.
  bool skipHierarchy = false;
  // Encode every slice's args while loading even when the file could serve them later
  // (plain files are lazy by default: Trace::args reads them back by offset).
  bool eagerArgs = false;
};

enum class LoadStatus : uint8_t {
  Ok = 0,
  IoError,       // cannot open or read the file
  InvalidInput,  // not a trace, or malformed beyond recovery
  Cancelled,
};

// Wall time of each loading phase, for benchmarks and `--timing`.
struct LoadTimings {
  double parseSeconds = 0;      // reading, decompressing, tokenizing, building columns
  double hierarchySeconds = 0;  // nesting, launch links, flows, iterations
};

struct LoadResult {
  LoadStatus status = LoadStatus::Ok;
  LoadTimings timings;
  // The most bytes of input the loader held at once (its read windows): bounded by the
  // largest single event, never by the file (tests check that whitespace and skipped
  // values do not accumulate).
  uint64_t peakWindowBytes = 0;
  std::string error;             // one line: what, and where (byte offset, line)
  std::unique_ptr<Trace> trace;  // set when status == Ok
};

}  // namespace opscope
