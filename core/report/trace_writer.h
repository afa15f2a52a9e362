#pragma once
// A loaded trace written back as Chrome / Kineto JSON (`opscope export --trace OUT`),
// which Perfetto, chrome://tracing and opscope itself open: every process and thread
// with its name and sort index, every slice (ph X on threads and GPU streams, b/e pairs
// on an async track's id, in lanes of ids of their own where its slices overlap without
// nesting, which viewers cannot pair; the JSON loader folds them back) with its args as
// the file typed them, counters, flows, instants and the
// allocator's [memory] events, and the metadata the analyses read (deviceProperties,
// distributedInfo, schemaVersion). Times are µs with three decimals, exact to the ns.
//
// Marks: with a critical path, every slice on it carries "critical": 1 in its args and
// consecutive path events are joined by flow arrows of category "critical_path", as
// Holistic Trace Analysis' overlaid traces have them. Counter series added to the trace
// before writing (queue length, memory bandwidth) become counter tracks. A merged
// session of ranks is written as one file, one process per rank's process: their labels
// start "rank N" (which the JSON loader reads back as the process's rank) and each rank's
// pids move to a range of their own (rank 0's kept), so no two ranks share a track.
//
// Round trip: loading the written file gives the same slices, names, args, GPU streams,
// launch links and iterations (tests/core/report/trace_writer_test.cpp compares the
// summaries); the text of args that were JSON objects or arrays is kept as written.
#include <string>

#include "analysis/critical_path.h"
#include "model/trace.h"
#include "text/text_sink.h"

namespace opscope {

struct TraceWriteOptions {
  const CriticalPath* criticalPath = nullptr;  // marks its events; nullptr: no marks
};

// The file a piece at a time (a megabyte or so each), then the whole as one string.
void writeChromeTrace(const Trace& trace, const TraceWriteOptions& options, const TextSink& write);
std::string chromeTraceJson(const Trace& trace, const TraceWriteOptions& options = {});

}  // namespace opscope
