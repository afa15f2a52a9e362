#pragma once
// `opscope critical-path` output. Times in µs; ts_us from the trace's first timestamp.
// JSON (keys only ever added):
//   {"file", "window": {"kind": "trace"|"iteration"|"annotation", "label", "iteration"
//    (0-based, null unless kind is iteration), "start_us", "end_us"},
//    "iteration_us": window start to when its work is over (host end or the last GPU
//    event launched in it), "length_us": the path's first to last node, "start_us",
//    "end_us", "weighted_us": HTA's longest-path length (zero-weight waits and gaps left
//    out), "by_category": {cpu_op, runtime, kernel, communication, memcpy, sync_wait,
//    launch_delay, kernel_gap, idle: µs} (sums to length_us), "share_pct": the same as
//    percent of length_us, "ops": [{"name", "count", "time_us"}] and "kernels": [...]
//    (GPU events: kernels, memcpys, memsets) on the path, most time first, "segments":
//    [{"ts_us", "dur_us", "category", "edge", "name", "track"}] in path order (name and
//    track null for waits and gaps), "graph": {"nodes", "edges", "path_nodes",
//    "path_events"}, "warnings": [text]}
#include <string>

#include "analysis/critical_path.h"
#include "text/text_sink.h"

namespace opscope {

std::string criticalPathJson(const CriticalPath& path, const Trace& trace, const std::string& file);
// The same bytes, written a piece at a time (a segment at a time).
void writeCriticalPathJson(const CriticalPath& path, const Trace& trace, const std::string& file,
                           const TextSink& write);
// ts_us,dur_us,category,edge,name,track: one line per segment.
std::string criticalPathCsv(const CriticalPath& path, const Trace& trace);
std::string criticalPathText(const CriticalPath& path, const Trace& trace, const std::string& file, size_t top = 15);

// Ops (CPU) or GPU events on the path with the time the path spends in each, by name.
struct CriticalPathEntry {
  std::string name;
  uint64_t count = 0;
  TimeNs time = 0;
};
std::vector<CriticalPathEntry> criticalPathEntries(const CriticalPath& path, const Trace& trace, bool gpu);
std::vector<std::string> criticalPathWarnings(const CriticalPath& path);

}  // namespace opscope
