#pragma once
// Kernel launch statistics, as Holistic Trace Analysis' get_cuda_kernel_launch_stats
// defines them: every GPU event (kernel, memcpy, memset) paired with the runtime or
// driver call that launched it (by correlation id, the trace's launch links), with the
// call's CPU duration, the GPU event's duration and the launch delay; per kernel name
// and overall, and HTA's three outlier classes:
//   - short GPU events: the GPU ran for less time than the CPU took to launch it (and
//     the call was not itself an outlier): launch-bound work, fusion candidates;
//   - runtime outliers: calls longer than runtimeCutoff (50 µs: HTA's default);
//   - launch-delay outliers: GPU events starting more than delayCutoff (100 µs) after
//     their call ended (a queue ahead of them, or a stream waiting).
//
// Two delays are kept: `delay`, from the call's start to the GPU event's start (the
// issue's definition, never negative in a consistent trace), and HTA's `delayAfterCall`,
// from the call's end, clipped at 0 (a GPU event often starts while its call is still
// returning). HTA restricts the calls to cudaLaunchKernel(ExC), cudaMemcpyAsync and
// cudaMemsetAsync; here every linked launch counts (hipLaunchKernel, cuLaunchKernel,
// cudaGraphLaunch, whose GPU events are each a pair).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/sample_stats.h"
#include "hierarchy/iterations.h"
#include "model/trace.h"

namespace opscope {

struct LaunchPair {
  EventRef launch, gpu;
  TimeNs cpu = 0, gpuDur = 0;
  TimeNs delay = 0;           // gpu start - call start
  TimeNs delayAfterCall = 0;  // max(0, gpu start - call end): HTA's launch_delay
  bool shortGpu = false, runtimeOutlier = false, delayOutlier = false;
};

struct LaunchNameStats {
  std::string name;  // the GPU event's name
  uint64_t count = 0;
  TimeNs cpuTotal = 0, gpuTotal = 0, delayTotal = 0, delayAfterCallTotal = 0;
  TimeNs delayMax = 0;
  uint64_t shortGpu = 0, runtimeOutliers = 0, delayOutliers = 0;
};

struct LaunchStatsOptions {
  TimeNs runtimeCutoff = 50'000;  // ns
  TimeNs delayCutoff = 100'000;   // ns, on delayAfterCall as HTA measures it
};

struct LaunchStatsReport {
  LaunchStatsOptions options;
  std::vector<LaunchPair> pairs;  // by call start
  SampleStats cpuUs, gpuUs, delayUs, delayAfterCallUs;
  uint64_t shortGpu = 0, runtimeOutliers = 0, delayOutliers = 0;
  std::vector<LaunchNameStats> byName;  // total delay descending, then name
};

LaunchStatsReport launchStats(const Trace& trace, std::optional<TimeWindow> window = std::nullopt,
                              const LaunchStatsOptions& options = {});

}  // namespace opscope
