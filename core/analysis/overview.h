#pragma once
// The overview page of a trace or of one iteration: wall time, host runtime without
// data loading, device activity per stream (unions, never sums), GPU utilisation and
// idle time, counts, throughput for a batch size, and the step-time breakdown by
// priority whose parts add up to the wall time.
//
// Where this differs from the DLRM notebook (../shared/seeds/pm_dlrm_trace_breakdown_
// and_overheads): device time is the union of GPU intervals per stream and over all
// streams (the notebook sums kernel durations, counting overlapped kernels twice);
// data-loading time is the union of the loader's annotations (nested or repeated
// annotations are not counted twice); communication kernels (class "nccl" in the kernel
// class table) are their own part instead of compute.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "analysis/kernel_classes.h"
#include "hierarchy/iterations.h"
#include "model/trace.h"

namespace opscope {

// In priority order: at any instant the step belongs to the first part active then.
enum class StepPart : uint8_t {
  Kernel,  // compute kernels on any stream
  Memcpy,
  Memset,
  Communication,  // collective kernels (nccl / rccl); host collectives (gloo; c10d and
                  // record_param_comms in a trace without device activity)
  Runtime,        // CUDA / HIP runtime and driver calls on the host
  DataLoading,    // host time inside data-loader annotations
  Cpu,            // host ops (cpu_op / Operator)
  Idle,           // none of the above
  Count_
};
const char* stepPartName(StepPart p);

struct StreamActivity {
  uint32_t track = 0;
  std::string label;
  uint64_t events = 0;
  TimeNs busy = 0;         // union of its GPU events in the window
  double utilisation = 0;  // busy / the overview's activeSpan()
};

struct Overview {
  TimeNs start = 0, end = 0, wall = 0;
  // False for a CPU-only job: no device stream in the trace. Its breakdown is then over
  // host time only, and the device figures below are zero, not measurements.
  bool hasDevice = true;
  std::string deviceKind = "GPU";  // what to call the device in figures (TraceMetadata)
  TimeNs dataLoading = 0;          // union of data-loader annotations
  TimeNs hostRuntime = 0;          // wall - dataLoading
  TimeNs gpuActive = 0;            // union of all GPU events
  TimeNs gpuIdle = 0;              // wall - gpuActive
  // The span from the first to the last recorded activity in the window: every slice but the
  // profiler's own envelope ("PyTorch Profiler (0)", kind TraceSpan), which opens before the first
  // op and closes after the last and so would count the profiler's warm-up and flush as idle.
  // activeStart == activeEnd (span 0) when nothing but the envelope is in the window.
  TimeNs activeStart = 0, activeEnd = 0;
  TimeNs activeSpan() const { return activeEnd - activeStart; }
  // The span from the first device event's start to the last one's end (HTA's "active" span of
  // its temporal breakdown); 0 without device events.
  TimeNs gpuStart = 0, gpuEnd = 0;
  TimeNs gpuSpan() const { return gpuEnd - gpuStart; }
  double gpuUtilisation = 0;            // gpuActive / activeSpan()
  double gpuUtilisationEnvelope = 0;    // gpuActive / wall (the window, envelope included)
  double gpuUtilisationGpuSpan = 0;     // gpuActive / gpuSpan() (HTA's figure)
  std::vector<StreamActivity> streams;  // busy descending
  uint64_t ops = 0, launches = 0, kernels = 0, memcpys = 0, memsets = 0, iterations = 0;
  std::optional<double> samplesPerSecond;                                 // iterations * batch / hostRuntime
  std::array<TimeNs, static_cast<size_t>(StepPart::Count_)> breakdown{};  // sums to wall
  TimeNs part(StepPart p) const { return breakdown[static_cast<size_t>(p)]; }
};

struct OverviewOptions {
  std::optional<TimeWindow> window;  // default: the whole trace
  std::optional<uint64_t> batchSize;
  // Host slices whose name contains this are data loading ("enumerate(DataLoader)#...").
  std::string dataLoaderMarker = "DataLoader";
  const KernelClassifier* classifier = nullptr;  // default: the built-in table
};

Overview computeOverview(const Trace& trace, const OverviewOptions& options = {});

}  // namespace opscope
