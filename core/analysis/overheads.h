#pragma once
// The five CPU-side overhead types of the DLRM performance model (Lin et al., HiPC
// 2022; ../shared/seeds/pm_dlrm_trace_breakdown_and_overheads), in µs, per sample:
//   T1  gap between two consecutive top-level ops under the same parent (Python
//       frames of with_stack traces are looked through: the parent is the nearest
//       enclosing slice that is not a python_function), minus one CPU event cost;
//       gaps of t1MaxGapUs or more are data loading and skipped
//   T2  op start -> its first launch, minus the cost of the sub-events before it
//   T3  its last launch's end -> op end, minus the cost of the sub-events after it
//   T4  a launch call itself, minus one CPU and one GPU event cost, per launch name;
//       launches that returned only after their GPU work finished (blocking copies)
//       are waits, kept apart (LaunchOverheads::blocking), so a few 300 µs pageable
//       copies do not become every cudaMemcpyAsync's launch cost
//   T5  between consecutive launches of an op, minus the cost of the sub-events in
//       between; an op with one launch gives one 0; an op without launches gives its
//       whole duration minus the cost of all its sub-events
// An op is a top-level cpu_op (see OpIndex); its sub-events are every slice below it
// on its thread; a launch is a runtime/driver call that started a GPU event.
//
// Where this differs from the notebook: T4 is each launch's measured duration (the
// notebook writes the constant KERNEL_LAUNCH_LENGTH for every launch, so its T4 has no
// spread); launches are every call that started GPU work, found by correlation (not
// the names cudaLaunchKernel / cudaMemcpyAsync, so HIP, cuLaunchKernel, memsets and
// graph launches count); ops on every thread count (autograd's backward thread too),
// T1 pairs never span two threads; aten::to without launches is not skipped; negative
// T1 gaps (overlapping slices) are not samples. Values are not clamped at zero, so a
// cost set too high shows as negative samples instead of hiding in the mean.
#include <optional>
#include <string>
#include <vector>

#include "hierarchy/iterations.h"
#include "model/trace.h"

namespace opscope {

class OpIndex;

// The profiler's own cost per recorded event, in µs (the notebook's constants).
struct ProfilerCosts {
  double cpuEvent = 2.0;       // CPU_EVENT_OVERHEAD: recording one host event
  double gpuEvent = 4.0;       // GPU_EVENT_OVERHEAD: recording one GPU activity
  double launchLength = 10.0;  // KERNEL_LAUNCH_LENGTH: a launch call as recorded
};

// Costs estimated from a trace, with how each was found (shown next to the values).
struct ProfilerCostEstimate {
  ProfilerCosts costs;
  std::string cpuEventMethod, gpuEventMethod, launchLengthMethod;
  uint64_t cpuEventSamples = 0, launchSamples = 0;
};
// cpuEvent: 10th percentile of the gaps between consecutive sibling sub-events inside
// ops (two back-to-back recorded calls are at least one recording apart; 0 when the
// trace's clock does not resolve it); launchLength: median launch duration; gpuEvent:
// 0, since one trace cannot separate CUPTI's cost from the launch's own (the user sets
// it). Fields without samples keep the defaults.
// index: the trace's op index when the caller has one; nullptr: built for this call.
ProfilerCostEstimate estimateProfilerCosts(const Trace& trace, std::optional<TimeWindow> window = std::nullopt,
                                           const OpIndex* index = nullptr);

struct OpOverheads {
  std::string name;
  uint64_t calls = 0;
  uint64_t callsWithLaunches = 0;
  uint64_t launches = 0;
  std::vector<double> t2, t3, t5;
  std::vector<std::string> launchSequence;  // launch names of its first call with launches
};

struct LaunchOverheads {
  std::string name;              // cudaLaunchKernel, cudaMemcpyAsync, hipLaunchKernel, ...
  std::vector<double> t4;        // non-blocking launches only
  std::vector<double> blocking;  // lengths of the blocking ones (isBlockingLaunch): waits, not T4
};

struct Overheads {
  ProfilerCosts costs;
  double t1MaxGapUs = 200;
  std::vector<double> t1;
  std::vector<LaunchOverheads> t4;  // by sample count descending
  std::vector<OpOverheads> ops;     // by calls descending, then name
  uint64_t topLevelOps = 0;
};

struct OverheadOptions {
  std::optional<TimeWindow> window;  // ops starting inside; default the whole trace
  ProfilerCosts costs;
  double t1MaxGapUs = 200;         // the notebook's "skip data-loading gaps"
  const OpIndex* index = nullptr;  // the trace's op index when the caller has one
};

Overheads computeOverheads(const Trace& trace, const OverheadOptions& options = {});

// The overheads of a window with the profiler's costs they subtract: each cost given
// (its method then reads "given") or estimated from the trace (estimateProfilerCosts).
struct OverheadsWithCosts {
  Overheads overheads;
  ProfilerCostEstimate estimate;
};
struct CostOverrides {
  std::optional<double> cpuEventUs, gpuEventUs, launchLengthUs;
  double t1MaxGapUs = 200;
};
OverheadsWithCosts computeOverheadsWithCosts(const Trace& trace, std::optional<TimeWindow> window,
                                             const CostOverrides& given);

}  // namespace opscope
