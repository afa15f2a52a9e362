#pragma once
// Device time per stream as a tree (the notebook's device_runtime_breakdown): stream ->
// the ops that launched its GPU events, outermost first -> ... -> GPU event names. An
// op node's time is the device time of everything launched inside it; its share is of
// its stream's device time. GPU events whose launch is unknown sit under a
// "(no launching op)" node of their stream.
//
// Host context counted as a level: cpu_ops and user annotations (module names,
// ProfilerStep#N, merged over N as in the op tree); python functions are skipped, they
// would repeat the Python stack above every op.
#include <cstdint>
#include <optional>
#include <vector>

#include "hierarchy/iterations.h"
#include "model/trace.h"

namespace opscope {

enum class BreakdownKind : uint8_t { Stream, Op, Unattributed, Gpu };

struct BreakdownNode {
  uint32_t parent = UINT32_MAX;  // UINT32_MAX for stream roots
  BreakdownKind kind = BreakdownKind::Op;
  bool allSteps = false;                 // ProfilerStep#N merged over N (name is the first step's)
  SliceKind gpuKind = SliceKind::Other;  // Gpu nodes: kernel, memcpy or memset
  StringId name = 0;                     // 0 for Stream and Unattributed
  uint32_t stream = 0;                   // track of the stream
  uint64_t count = 0;                    // GPU events below
  TimeNs time = 0;                       // their summed durations
  double share = 0;                      // time / its stream root's time
  // Invariant: the GPU events below this node are events[firstEvent, endEvent):
  // events are laid out in the tree's depth-first order (children by time descending).
  uint32_t firstEvent = 0, endEvent = 0;
  std::vector<uint32_t> children;  // by time descending
};

struct DeviceBreakdown {
  std::vector<BreakdownNode> nodes;  // a parent precedes its children
  std::vector<uint32_t> roots;       // one per stream, by time descending
  std::vector<uint64_t> events;      // packed EventRefs, see BreakdownNode
  TimeNs total = 0;                  // all streams
};

// GPU events starting inside window when one is given.
DeviceBreakdown deviceBreakdown(const Trace& trace, std::optional<TimeWindow> window = std::nullopt);

// "ProfilerStep#*" for merged steps, "(no launching op)", "GPU 0 · stream 7", else the name.
std::string breakdownLabel(const Trace& trace, const BreakdownNode& node);

}  // namespace opscope
