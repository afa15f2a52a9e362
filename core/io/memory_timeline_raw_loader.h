#pragma once
// PyTorch's raw memory timeline (`profiler.export_memory_timeline("x.raw.json.gz")`, as in
// Holistic Trace Analysis' test data): a JSON array of [t_us, action, bytes, category]
// quadruples, one per change of a tensor's memory on one device. t is µs on the
// profiler's clock (ns in older exports, told apart by magnitude), -1 for memory that
// existed before profiling began; action is torch's
// Action (1 preexisting, 2 create, 3 increment version, 4 destroy); bytes are signed (a
// destroy or the old version of an incremented tensor is negative); category indexes
// Parameter, Optimizer state, Input, Temporary, Activation, Gradient, Autograd, Unknown
// (torch's _CATEGORY_TO_INDEX, HTA's memory_analysis.py).
//
// It becomes one counter series per category over time (the memory held by each, in
// MiB as the window's other memory tracks), plus their total, on a process "PyTorch memory": the timeline draws them as
// counter tracks and the summary counts them. Before this it was read as a Chrome trace
// whose 16,845 array elements were each "not an event object", and exited 0 with nothing.
#include <string_view>

#include "io/byte_source.h"
#include "io/load_result.h"

namespace opscope {

// The head (first bytes, decompressed) starts with "[[" and a number.
bool looksLikeMemoryTimelineRaw(std::string_view head);
LoadResult loadMemoryTimelineRaw(ByteSource& src);

}  // namespace opscope
