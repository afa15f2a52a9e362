#pragma once
// Occupancy of one kernel launch from what Kineto records with it ("registers per
// thread", "shared memory", "block", "blocks per SM", "est. achieved occupancy %") and
// the device's limits (deviceProperties): the CUDA occupancy calculator's theoretical
// occupancy, what the grid achieves of it, and which limit binds.
//
// Corner cases: a launch without "block" or "registers per thread" (ROCm traces, old
// Kineto) has no occupancy; a device without deviceProperties gets an A100-like SM with
// shared memory unknown (so shared memory never limits); Kineto rounds its achieved
// occupancy to whole percents (a one-block grid on 108 SMs reads 0), and reads 0 for
// kernels whose shared memory per block is past the 48 KiB default (the opt-in
// dynamic shared memory of CUTLASS GEMMs on the public recsys trace: 81,920 bytes, 37.9
// blocks per SM, "est. achieved occupancy %": 0), so achievedPct is computed from the
// shape and Kineto's figure is kept beside it.
#include <array>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "model/args.h"
#include "model/device_properties.h"

namespace opscope {

// The per-SM limits of one device.
struct SmLimits {
  int maxThreadsPerSm = 2048;
  int regsPerSm = 65536;
  int64_t smemPerSm = 0;  // bytes; 0 = unknown
  int warpSize = 32;
  int maxBlocksPerSm = 32;
  int numSms = 0;  // 0 = unknown
  int computeMajor = 0, computeMinor = 0;
};

// The trace's devices' limits by device id (a field a device lacks keeps SmLimits'
// default); empty without deviceProperties.
std::map<int64_t, SmLimits> smLimitsByDevice(const std::vector<DeviceProperties>& devices);

enum class OccupancyLimiter { Grid, Registers, SharedMemory, BlockSize };
const char* limiterName(OccupancyLimiter l);  // "grid", "registers", "shared memory", "block size"

struct KernelOccupancy {
  int blockThreads = 0;
  int regsPerThread = 0;
  int64_t sharedMemBytes = 0;
  double blocksPerSm = 0;                             // the grid's blocks over the SMs, as recorded
  double theoreticalPct = 0;                          // resident warps the resources allow, of the SM's warp slots
  double achievedPct = 0;                             // min(theoretical, the warps the grid puts on each SM)
  std::optional<double> recordedPct;                  // Kineto's "est. achieved occupancy %", when recorded
  OccupancyLimiter limiter = OccupancyLimiter::Grid;  // what caps achievedPct
};

// From a kernel's args; nothing when the launch shape is not recorded.
std::optional<KernelOccupancy> kernelOccupancy(const std::vector<NamedArg>& args, const SmLimits& sm);
// The args kernelOccupancy reads ("block", "registers per thread", "shared memory",
// "blocks per SM", "est. achieved occupancy %"): a read of many kernels' args may keep
// only these (Trace::argsOfEach's filter) and get the same occupancy.
bool isOccupancyArgKey(std::string_view key);

// The kernel's "grid" ([x, y, z] blocks); all zero when absent (ROCm traces record none)
// or not up to three positive numbers below 2^31 with a product below 2^40, so a damaged
// file never yields a grid whose product overflows.
std::array<int64_t, 3> launchGrid(const std::vector<NamedArg>& args);
// The kernel's "block" ([x, y, z] threads), checked the same way.
std::array<int64_t, 3> launchBlock(const std::vector<NamedArg>& args);

}  // namespace opscope
