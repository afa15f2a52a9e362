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
  // Threads that parse a regular JSON file's events in parallel (plain or gzip), each a
  // share of the bytes, merged into the model one pass would build: 0 picks
  // OPSCOPE_LOAD_THREADS when set, else every core (at most 32); 1 parses in one pass.
  unsigned threads = 0;
  // The least bytes of events a thread is given (smaller files load in one pass).
  uint64_t minPartBytes = uint64_t{16} << 20;
  // A gzip file's decompressed size when the caller knows it better than the last
  // member's trailer does (a cut download, bytes appended): where its parts' shares are
  // placed. 0: from the trailer. A wrong size costs speed, never a different model.
  uint64_t gzipSizeHint = 0;
  // A file read lazily keeps every op's shape args as it reads them (Trace::keptArgs),
  // so that the performance models need not read a million args objects back from the
  // file: predict, roofline and diff ask for it (a few MiB of interned texts on 1 GB).
  bool keepOpShapes = false;
  // The same for every kernel's "grid" and "block", which the op models read of every
  // kernel an op launched (16 bytes a kernel: 16 MiB on a 1 GB trace's million kernels).
  bool keepKernelLaunches = false;
  // What the op models read (perf/op_models.h): both of the above.
  void keepWhatOpModelsRead() { keepOpShapes = keepKernelLaunches = true; }
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
  // The parts of the file parsed in parallel and merged (LoadOptions::threads); 1: one pass.
  unsigned parts = 1;
  std::string error;             // one line: what, and where (byte offset, line)
  std::unique_ptr<Trace> trace;  // set when status == Ok
};

}  // namespace opscope
