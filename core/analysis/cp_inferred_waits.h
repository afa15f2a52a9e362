#pragma once
// The waits a trace without sync events leaves implicit, inferred for the critical path
// (critical_path.cpp) from timing alone. With Kineto's cuda_sync events (or Nsight's
// synchronisation table) the path uses those instead and none of this runs.
#include <cstdint>
#include <utility>
#include <vector>

#include "analysis/blocking_calls.h"
#include "model/ids.h"

namespace opscope {

// A GPU event of the path's graph: where it ran and its index there (an opaque id).
struct GpuWork {
  int64_t device = kNoId, stream = kNoId;
  TimeNs start = 0, end = 0;
  uint32_t id = 0;
};

// Waits between streams: a GPU event that starts after its stream idled for more than
// kStreamWaitGap, within kStreamWaitGap of the end of work on another stream of its device
// that was running while it idled, waited for that work (the usual cause is a
// cudaStreamWaitEvent on a collective's stream, as DDP does); the latest such end is taken.
// Returns (waiting id, waited-for id). Without it the path sat in 36 ms of "kernel gap" on
// TraceLens' MI300X DDP step while the collective the compute stream waited for ran.
inline constexpr TimeNs kStreamWaitGap = 50'000;
std::vector<std::pair<uint32_t, uint32_t>> inferStreamWaits(std::vector<GpuWork> work);

// A blocking call with no sync event of its own; device kNoId (a host thread): any device.
struct BlockingCall {
  int64_t device = kNoId;
  TimeNs start = 0, end = 0;
  uint32_t id = 0;
  CallWaits waits = CallWaits::Nothing;
};

// A device synchronize waits for the last GPU event of each stream that ends while it
// blocks; a stream or event synchronize or a synchronous copy for the one GPU event that
// ends last while it blocks (the trace does not say which stream it named: the work
// finishing as it returns is what released it). Only events ending inside the call count:
// one that ended before the call began was not waited for, and an edge from it would put
// the host's own time before the call on the path as waiting. (On TraceLens' MI300X DDP
// step, without cuda_sync events, the path ended at 48.9 ms although the final
// hipDeviceSynchronize ran to 86.98 ms.)
struct InferredCallWaits {
  std::vector<std::pair<uint32_t, uint32_t>> edges;  // (GPU work id, call id)
  size_t callsTied = 0;                              // calls with at least one edge
};
InferredCallWaits inferCallWaits(const std::vector<GpuWork>& work, const std::vector<BlockingCall>& calls);

}  // namespace opscope
