#pragma once
// What `opscope summary` reports: counts, GPU streams and their busy time, iterations,
// top kernels and top-level ops. Plain values; formatting lives in report/.
#include <optional>
#include <string>
#include <vector>

#include "hierarchy/iterations.h"
#include "model/trace.h"

namespace opscope {

struct StreamSummary {
  RawId pid, tid;  // as written in the file
  std::string pidText, tidText;
  std::string label;
  uint64_t events = 0;  // GPU events (kernel, memcpy, memset)
  TimeNs busy = 0;      // union of their intervals
  TimeNs first = 0, last = 0;
};

struct KernelTotal {
  std::string name;
  uint64_t count = 0;
  TimeNs total = 0;
};

struct OpTotal {
  std::string name;
  uint64_t count = 0;
  TimeNs cpu = 0;  // sum of the top-level ops' durations
  TimeNs gpu = 0;  // sum of durations of linked GPU events launched inside them
};

struct Summary {
  std::string format;
  uint64_t inputBytes = 0, jsonBytes = 0, eventsRead = 0, slices = 0;
  uint64_t processes = 0, threads = 0, gpuStreams = 0, counterSeries = 0, flows = 0, instants = 0;
  uint64_t cpuOps = 0, launches = 0, kernels = 0, memcpys = 0, memsets = 0, gpuEvents = 0, linkedGpuEvents = 0;
  TimeNs start = 0, wall = 0;
  std::vector<Iteration> iterations;  // ProfilerStep#N (the contract's "iterations")
  std::optional<double> iterationMeanNs;
  // Per entry of iterations: the later of its end and the end of the GPU work it
  // launched (iterationWallEnds); what a rank's iteration really costs.
  std::vector<TimeNs> iterationWallEnds;
  std::vector<Iteration> markerIterations;  // when SummaryOptions::iterationMarker is set
  std::string iterationMarker;
  std::optional<TimeWindow> window;
  std::vector<StreamSummary> streams;   // busy desc
  std::vector<KernelTotal> topKernels;  // total desc, then name
  std::vector<OpTotal> topOps;          // gpu desc, cpu desc, name
  std::vector<WarningEntry> warnings;
  std::optional<int64_t> rank, worldSize;
  std::string deviceName;          // deviceProperties[0].name when present
  std::string deviceKind = "GPU";  // "GPU", "MTIA", "HPU", ... (TraceMetadata::deviceKind)
};

struct SummaryOptions {
  size_t topN = 10;
  // Fallback iterations for traces without ProfilerStep (see findMarkerIterations).
  std::string iterationMarker;
  // Only slices starting inside [start, end) count (e.g. a window of iterations).
  std::optional<TimeWindow> window;
};

Summary summarize(const Trace& trace, const SummaryOptions& options = {});

// Outermost cpu_op slices of one thread track, by time containment among cpu_ops only
// (an op nested in a user_annotation is still top-level). Rows in start order.
std::vector<uint32_t> topLevelOps(const SliceColumns& s);

}  // namespace opscope
