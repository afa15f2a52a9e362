#pragma once
// Two runs side by side: host work (ops, record_function annotations other than
// ProfilerStep#N, runtime and driver calls) matched by name and recorded input shapes,
// GPU work (kernels, memcpys, memsets) by name, each row with its count and total time on either
// side. A row present on one side only has count 0 and total 0 on the other. A trace
// diffed with itself gives every delta 0.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "hierarchy/iterations.h"
#include "model/trace.h"

namespace opscope {

struct DiffRow {
  std::string name;
  std::string shape;  // ops: the "Input Dims" arg as recorded ("" when not recorded)
  size_t countA = 0, countB = 0;
  TimeNs totalA = 0, totalB = 0;  // scaled per iteration when DiffOptions::perIteration
  TimeNs delta() const { return totalB - totalA; }
};

struct DiffOptions {
  // The part of each trace compared (an iteration range); unset: the whole trace. An op
  // counts when it starts inside; a GPU event when its launch does (its own start when
  // it has no launch), so work the GPU finishes after the range still counts.
  std::optional<TimeWindow> windowA, windowB;
  // Totals divided by each side's number of iterations in its range, so runs profiled
  // for different numbers of steps compare (counts stay as measured).
  bool perIteration = false;
};

struct TraceDiff {
  std::vector<DiffRow> ops;                            // by |delta| descending, then name, then shape
  std::vector<DiffRow> kernels;                        // the same order
  std::vector<TimeNs> iterationWallA, iterationWallB;  // iterations starting in the range: start to GPU drain
};

// Op time is inclusive (an op's own duration); an op nested in an op of the same name
// (aten::to inside aten::to) is not counted twice.
TraceDiff diffTraces(const Trace& a, const Trace& b, const DiffOptions& options = {});

}  // namespace opscope
