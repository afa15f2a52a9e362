#pragma once
// Device memory over time from Kineto's "[memory]" events (profile_memory=True): per
// device the allocated and reserved bytes after every event, the peak, and (when the
// trace records addresses) each allocation with its lifetime and the op that made it,
// so the live allocations at any time are known.
//
// Allocated bytes are the allocator's own "Total Allocated" when the trace records it;
// older traces carry only each event's Bytes, and allocated is then their running sum
// from the start of the trace (relativeAllocated: memory allocated before profiling
// began is not in it, and the curve may dip below 0).
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/trace.h"

namespace opscope {

struct MemoryAllocation {
  uint64_t addr = 0;
  int64_t bytes = 0;
  TimeNs alloc = 0;
  TimeNs free = std::numeric_limits<TimeNs>::max();  // max: still live at the end of the trace
  std::optional<EventRef> op;                        // the innermost CPU op on the allocating thread at alloc time
  bool liveAt(TimeNs t) const { return alloc <= t && t < free; }
};

// What the ops did to one device's memory (TensorBoard's memory view "by operator"):
// self counts the events whose innermost enclosing op is this one, total those anywhere
// inside it (an op nested in one of its own name counted once). increase = allocated
// minus freed bytes.
struct OpMemory {
  int64_t selfIncrease = 0, selfAllocBytes = 0;
  size_t selfAllocs = 0;
  int64_t increase = 0, allocBytes = 0;
  size_t allocs = 0;
};

struct DeviceMemory {
  int32_t device = -1;
  uint8_t deviceType = 0;
  std::string label;               // "GPU 0", "CPU"
  std::vector<TimeNs> ts;          // one sample per event, by time
  std::vector<int64_t> allocated;  // after that event
  std::vector<int64_t> reserved;   // -1 where the trace does not record it
  bool relativeAllocated = false;
  int64_t peakAllocated = 0;
  TimeNs peakTs = 0;
  int64_t peakReserved = -1;
  size_t allocs = 0, frees = 0;
  // Matched by address (a free closes the latest open allocation at its address);
  // empty when the trace records no addresses. By allocation time.
  std::vector<MemoryAllocation> allocations;
  size_t unmatchedFrees = 0;             // frees of memory allocated before the trace began
  std::map<std::string, OpMemory> byOp;  // by op name
};

struct MemoryTimeline {
  std::vector<DeviceMemory> devices;  // GPUs by number, then the host
};

MemoryTimeline memoryTimeline(const Trace& trace);

// The timeline's counter tracks: per device "Memory allocated (MiB)" and, when recorded,
// "Memory reserved (MiB)", on the process of the device's first event (the GPU's
// allocations are made by the host process that owns it). Samples beyond maxSamples per
// series keep each bucket's largest value, so the peak survives the thinning.
void addMemoryCounters(Trace& trace, const MemoryTimeline& m, size_t maxSamples = 20000);
// Whether a counter series is one addMemoryCounters made (the timeline marks their peak).
bool isMemoryCounterName(std::string_view name);

// The allocations live at t, largest first.
std::vector<const MemoryAllocation*> liveAllocations(const DeviceMemory& d, TimeNs t);

// The innermost CPU op on track that contains t, if any.
std::optional<EventRef> enclosingOp(const Trace& trace, uint32_t track, TimeNs t);

}  // namespace opscope
