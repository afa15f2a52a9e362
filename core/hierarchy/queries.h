#pragma once
// Drill-down questions over a finalized trace: from a kernel to its launch and op
// chain, from an op to every GPU event it caused (its children's included).
#include <optional>
#include <vector>

#include "model/trace.h"

namespace opscope {

std::optional<EventRef> launchOf(const Trace& trace, EventRef gpuEvent);
// GPU events started by one launch (several for a CUDA graph launch).
std::vector<EventRef> gpuEventsOfLaunch(const Trace& trace, EventRef launch);
// !gpuEventsOfLaunch(trace, launch).empty(), without the list.
bool hasGpuEvents(const Trace& trace, EventRef launch);
// gpuEventsOfLaunch for launches asked in ascending order (by track, then row): a step
// along launchToGpu from the last one asked (a galloping search) instead of a search
// over all of it; the lists are gpuEventsOfLaunch's. Asked out of order, it searches
// from the start again, so the answer is the same, only slower.
class GpuEventsInLaunchOrder {
 public:
  explicit GpuEventsInLaunchOrder(const Trace& trace) : links_(trace.links.launchToGpu) {}
  std::vector<EventRef> of(EventRef launch);

 private:
  const PodColumn<LaunchLinks::Pair>& links_;
  size_t at_ = 0;  // the first pair of the last launch asked, or after it
};
// A launch that returned only after the GPU work it started had finished (a copy from
// pageable memory, a cudaMemcpyAsync to pageable host memory): its length is a wait on
// the GPU, not the cost of a launch. False for a launch without GPU events.
bool isBlockingLaunch(const Trace& trace, EventRef launch, const std::vector<EventRef>& gpu);
// Innermost cpu_op enclosing ref on its thread (ref itself excluded); when the thread
// has none (legacy traces may record launches apart from their ops), the cpu_op whose
// External id equals ref's.
std::optional<EventRef> enclosingOp(const Trace& trace, EventRef ref);
// ref's ancestors from the outermost down to its parent.
std::vector<EventRef> ancestors(const Trace& trace, EventRef ref);
// Launches inside op's subtree (op included when it is a launch itself).
std::vector<EventRef> launchesOf(const Trace& trace, EventRef op);
// All GPU events caused by op or its descendants, through their launches.
std::vector<EventRef> gpuEventsOf(const Trace& trace, EventRef op);
// !gpuEventsOf(trace, op).empty(), without the list.
bool causesGpuWork(const Trace& trace, EventRef op);
// Direct children of a slice (CPU tracks).
std::vector<EventRef> childrenOf(const Trace& trace, EventRef ref);

}  // namespace opscope
