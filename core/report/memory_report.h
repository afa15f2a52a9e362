#pragma once
// `opscope export --chart memory` data. JSON: {"file", "devices": [{"device", "label",
// "relative_allocated", "events", "allocs", "frees", "peak_allocated_bytes",
// "peak_us" (from the trace start), "peak_reserved_bytes" (null when not recorded),
// "samples": [[t_us, allocated_bytes, reserved_bytes|null], ...],
// "live_at_peak": [{"addr", "bytes", "alloc_us", "free_us"|null, "op"|null}] (largest
// first, at most 50; empty when the trace records no addresses),
// "unmatched_frees", "by_op": [{"name", "self_increase_bytes", "self_alloc_bytes",
// "self_allocs", "increase_bytes", "alloc_bytes", "allocs"}] (most allocated first)}]}. CSV:
// device,t_us,allocated_bytes,reserved_bytes (reserved empty when not recorded).
#include <string>

#include "analysis/memory_timeline.h"

namespace opscope {

std::string memoryJson(const MemoryTimeline& m, const Trace& trace, const std::string& path);
std::string memoryCsv(const MemoryTimeline& m, const Trace& trace);

}  // namespace opscope
