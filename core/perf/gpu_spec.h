#pragma once
// GPU figures the performance models need, as presets (resources/gpu/gpu_specs.json,
// compiled in) or user files of the same shape, and the choice of a default from the
// trace's own deviceProperties.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/device_properties.h"

namespace opscope {

// Element types as the profiler's "Input type" names them.
enum class DType { F64, F32, F16, BF16, I64, I32, I16, I8, Bool, Unknown };
DType dtypeFromProfilerName(std::string_view name);  // "float", "c10::Half", "long int", ...
double dtypeBytes(DType t);                          // Unknown: 4

struct GpuSpec {
  std::string name;
  std::string source;              // where the figures come from (datasheet, measured)
  std::vector<std::string> match;  // deviceProperties name substrings that pick it
  int sms = 0;
  int warpSize = 32;
  double memoryGiB = 0;           // device memory; 0: unknown (then it does not help matching)
  std::string arch;               // "sm80", "gfx90a": matched against the trace's kernel names
  double dramGBs = 0, l2GBs = 0;  // 1e9 bytes/s
  double l2Bytes = 0, smemPerSmBytes = 0;
  double fp64 = 0, fp32 = 0, tf32 = 0, fp16 = 0, bf16 = 0;  // TFLOP/s, 0 = no such unit
  double fp8 = 0, int8 = 0, fp4 = 0;  // dense tensor-core TFLOP/s (TOPS for int8); 0 = none, or not listed
  double pcieGBs = 0, nvlinkGBs = 0;  // PCIe one direction; NVLink both directions added (the datasheet's)
  // Collectives (collective_models.h): the network per GPU, one direction (one NIC each:
  // 25 for HDR InfiniBand, 50 for NDR; 0 = unknown, then PCIe), GPUs sharing a node's
  // NVLink.
  double networkGBs = 0;
  int gpusPerNode = 8;
  double kernelFloorUs = 2;  // the shortest a kernel takes (launch to completion on an idle GPU)

  // Peak FLOP/s for t: a missing unit falls back to the next wider type, float to FP32
  // (PyTorch does not use TF32 for matmuls unless allowed).
  double peakFlops(DType t) const;
  // Bytes moved at DRAM bandwidth, in µs.
  double dramUs(double bytes) const { return dramGBs > 0 ? bytes / (dramGBs * 1e3) : 0; }
  // Whether a model's time is this preset's kernel floor (models floor at it: such a
  // time says how short a kernel can be, not how fast its work runs).
  bool atKernelFloor(double us) const { return us <= kernelFloorUs * (1 + 1e-9); }
};

// ASCII case-insensitive equality: how preset names are compared.
bool iequal(std::string_view a, std::string_view b);

struct GpuSpecSet {
  std::vector<GpuSpec> gpus;
  const GpuSpec* find(std::string_view name) const;  // exact name, case-insensitive
};

// The compiled-in presets.
const GpuSpecSet& builtinGpuSpecs();
// A spec file: {"gpus": [{...}]} as in resources/gpu/gpu_specs.json, or one GPU object.
// Missing figures are errors (a model would silently divide by zero); one line naming
// the GPU and field.
std::optional<GpuSpecSet> parseGpuSpecs(std::string_view json, std::string& error);
std::string gpuSpecJson(const GpuSpec& spec);  // one object, the file's shape

// The preset for the trace's devices (TraceMetadata::devices):
// the longest "match" substring of the first device's name at word boundaries (among
// equally long matches, the memory nearest its totalGlobalMem: an "A100-PG509-200" of
// 42.5 GB is the 40 GB A100), else a preset with the same SM count and warp size (the
// nearest memory again); nullopt when nothing fits. reason says which rule picked it,
// or why none did.
std::optional<GpuSpec> gpuForDeviceProperties(const GpuSpecSet& set, const std::vector<DeviceProperties>& devices,
                                              std::string& reason);

// The architecture the trace's GPU kernel names reveal ("sm80" from sm80_xmma_…,
// cutlass_80_…, ampere_…; "sm90" from sm90_…, hopper; "sm70" from volta_…), the one
// most kernels name; empty when none does.
std::string kernelArchitecture(const std::vector<std::string_view>& kernelNames);
// The architecture one kernel name reveals, by the same rules; empty when none.
std::string kernelNameArchitecture(std::string_view kernelName);
// 80 for "sm80", 100 for "sm100"; 0 for anything else (ROCm's "gfx90a", "").
int smVersion(std::string_view arch);

}  // namespace opscope
