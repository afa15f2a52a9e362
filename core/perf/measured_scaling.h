#pragma once
// A what-if for GPU work no model prices (ops recorded without input shapes): each event's
// measured time on the GPU it ran on, scaled by the ratio of the roof it is bound by on
// the two GPUs. The class comes from the kernel's name (analysis/kernel_classes.h): GEMM,
// convolution and attention kernels are held to the compute peak of the type their name
// carries (bf16, fp16, tf32, fp32, fp8, int8; fp32 when it names none), collectives to the
// link (NVLink where both GPUs have it, else PCIe), everything else (element-wise,
// reductions, norms, copies within the device, layout kernels) and memsets to DRAM
// bandwidth, copies between host and device to PCIe. Never below the target's kernel
// floor. (A GPU-bound ResNet-50 recorded without record_shapes was predicted the same on
// a V100 and an H100: nothing was modelled.)
#include <string_view>

#include "model/ids.h"
#include "perf/gpu_spec.h"

namespace opscope {

// The time (ns) an event of this name and kind that took dur on `from` takes on `to`.
TimeNs scaledToGpu(const GpuSpec& from, const GpuSpec& to, std::string_view name, SliceKind kind, TimeNs dur);

// What scaledToGpu holds the event to: "fp32", "bf16", ... (compute), "dram", "pcie", "link".
const char* scalingRoof(std::string_view name, SliceKind kind);

}  // namespace opscope
