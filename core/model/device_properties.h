#pragma once
// The trace's devices as the profiler described them (Kineto's top-level
// "deviceProperties" array, Nsight's TARGET_INFO_GPU), parsed once by the loader into
// these fields: the summary, occupancy, the advice and the GPU presets read them, never
// the JSON again. A field the file did not give (or gave as another type) is unset.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace opscope {

struct DeviceProperties {
  int64_t id = 0;                        // the entry's "id", else its position among the entries
  std::string name;                      // "" when absent
  std::optional<double> totalGlobalMem;  // bytes
  std::optional<int64_t> numSms, warpSize, computeMajor, computeMinor;
  std::optional<int64_t> maxThreadsPerBlock, maxThreadsPerMultiprocessor;
  std::optional<int64_t> regsPerBlock, regsPerMultiprocessor;
  std::optional<int64_t> sharedMemPerBlock, sharedMemPerMultiprocessor, sharedMemPerBlockOptin;
};

}  // namespace opscope
