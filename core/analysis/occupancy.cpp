#include "analysis/occupancy.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace opscope {

namespace {

// Resident blocks per SM the hardware allows at most, by compute capability (CUDA
// programming guide, "Technical Specifications per Compute Capability").
int maxBlocksFor(int major, int minor) {
  if (major == 7 && minor == 5) return 16;
  if (major == 8 && (minor == 6 || minor == 7)) return 16;
  if (major == 8 && minor == 9) return 24;
  if (major == 3) return 16;
  return 32;
}

const NamedArg* findArg(const std::vector<NamedArg>& args, std::string_view key) {
  for (const NamedArg& a : args)
    if (a.key == key) return &a;
  return nullptr;
}

std::optional<double> number(const NamedArg* a) {
  if (!a) return std::nullopt;
  if (a->type == ArgType::Int) return static_cast<double>(a->i);
  if (a->type == ArgType::Double && std::isfinite(a->d)) return a->d;
  return std::nullopt;
}

// Threads in a block from "block": [x, y, z]; 0 when absent or not three sane numbers.
int64_t blockThreads(const NamedArg* a) {
  if (!a || a->type != ArgType::Json) return 0;
  const nlohmann::json j = nlohmann::json::parse(a->text, nullptr, false);
  if (!j.is_array() || j.empty() || j.size() > 3) return 0;
  int64_t n = 1;
  for (const auto& v : j) {
    if (!v.is_number_integer() || v.get<int64_t>() <= 0 || v.get<int64_t>() > 1024) return 0;
    n *= v.get<int64_t>();
  }
  return n <= 1024 ? n : 0;
}

}  // namespace

std::map<int64_t, SmLimits> smLimitsByDevice(const std::vector<DeviceProperties>& devices) {
  std::map<int64_t, SmLimits> out;
  // A limit must be positive and sane (below 2^30) to replace the default.
  auto limit = [](const std::optional<int64_t>& v, int fallback) {
    return v && *v > 0 && *v < (1 << 30) ? static_cast<int>(*v) : fallback;
  };
  for (const DeviceProperties& d : devices) {
    SmLimits s;
    s.maxThreadsPerSm = limit(d.maxThreadsPerMultiprocessor, s.maxThreadsPerSm);
    s.regsPerSm = limit(d.regsPerMultiprocessor, s.regsPerSm);
    s.smemPerSm = limit(d.sharedMemPerMultiprocessor, 0);
    s.warpSize = limit(d.warpSize, s.warpSize);
    s.numSms = limit(d.numSms, 0);
    s.computeMajor = limit(d.computeMajor, 0);
    s.computeMinor =
        d.computeMinor && *d.computeMinor >= 0 && *d.computeMinor < 100 ? static_cast<int>(*d.computeMinor) : 0;
    s.maxBlocksPerSm = maxBlocksFor(s.computeMajor, s.computeMinor);
    out[d.id] = s;
  }
  return out;
}

const char* limiterName(OccupancyLimiter l) {
  switch (l) {
    case OccupancyLimiter::Grid:
      return "grid";
    case OccupancyLimiter::Registers:
      return "registers";
    case OccupancyLimiter::SharedMemory:
      return "shared memory";
    case OccupancyLimiter::BlockSize:
      return "block size";
  }
  return "grid";
}

bool isOccupancyArgKey(std::string_view key) {
  return key == "block" || key == "registers per thread" || key == "shared memory" || key == "blocks per SM" ||
         key == "est. achieved occupancy %";
}

std::optional<KernelOccupancy> kernelOccupancy(const std::vector<NamedArg>& args, const SmLimits& sm) {
  const int64_t threads = blockThreads(findArg(args, "block"));
  const auto regs = number(findArg(args, "registers per thread"));
  if (threads <= 0 || !regs || *regs < 0 || *regs > 1024 || sm.warpSize <= 0 || sm.maxThreadsPerSm < sm.warpSize)
    return std::nullopt;
  KernelOccupancy k;
  k.blockThreads = static_cast<int>(threads);
  k.regsPerThread = static_cast<int>(*regs);
  const auto smem = number(findArg(args, "shared memory"));
  k.sharedMemBytes = smem && *smem > 0 && *smem < 1e12 ? static_cast<int64_t>(*smem) : 0;
  const auto bps = number(findArg(args, "blocks per SM"));
  k.blocksPerSm = bps && *bps >= 0 ? *bps : 0;

  const int64_t warpsPerBlock = (threads + sm.warpSize - 1) / sm.warpSize;
  const int64_t maxWarps = sm.maxThreadsPerSm / sm.warpSize;
  // Blocks per SM each resource allows. Registers are allocated per warp in units of
  // 256; from compute capability 8.0 the runtime reserves 1 KiB of shared memory per block.
  const int64_t byThreads = std::min<int64_t>(sm.maxBlocksPerSm, maxWarps / warpsPerBlock);
  const int64_t regsPerWarp = (static_cast<int64_t>(k.regsPerThread) * sm.warpSize + 255) / 256 * 256;
  const int64_t byRegs = regsPerWarp > 0 ? sm.regsPerSm / (regsPerWarp * warpsPerBlock) : byThreads;
  const int64_t smemPerBlock = k.sharedMemBytes + (sm.computeMajor >= 8 ? 1024 : 0);
  const int64_t bySmem = sm.smemPerSm > 0 && k.sharedMemBytes > 0 ? sm.smemPerSm / smemPerBlock : byThreads;
  int64_t blocks = byThreads;
  OccupancyLimiter resource = OccupancyLimiter::BlockSize;
  if (byRegs < blocks) blocks = byRegs, resource = OccupancyLimiter::Registers;
  if (bySmem < blocks) blocks = bySmem, resource = OccupancyLimiter::SharedMemory;
  const double theoreticalWarps = static_cast<double>(blocks * warpsPerBlock);
  const double gridWarps = k.blocksPerSm * static_cast<double>(warpsPerBlock);
  k.theoreticalPct = 100.0 * theoreticalWarps / static_cast<double>(maxWarps);
  k.limiter = bps && gridWarps < theoreticalWarps ? OccupancyLimiter::Grid : resource;
  k.achievedPct =
      100.0 * std::min(theoreticalWarps, bps ? gridWarps : theoreticalWarps) / static_cast<double>(maxWarps);
  const auto recorded = number(findArg(args, "est. achieved occupancy %"));
  if (recorded && *recorded >= 0 && *recorded <= 100) k.recordedPct = *recorded;
  return k;
}

namespace {

// [x, y, z] of a launch arg ("grid", "block"): all zero unless up to three positive
// numbers below 2^31 whose product stays below 2^40.
std::array<int64_t, 3> launchDims(const std::vector<NamedArg>& args, std::string_view key) {
  const NamedArg* a = findArg(args, key);
  if (!a || a->type != ArgType::Json) return {};
  const nlohmann::json j = nlohmann::json::parse(a->text, nullptr, false);
  if (!j.is_array() || j.empty() || j.size() > 3) return {};
  std::array<int64_t, 3> g{1, 1, 1};
  for (size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_number_integer() || j[i].get<int64_t>() <= 0 || j[i].get<int64_t>() >= (int64_t{1} << 31)) return {};
    g[i] = j[i].get<int64_t>();
  }
  // CUDA allows 2^31 - 1 × 65535 × 65535 blocks, whose product passes int64; no real
  // launch comes near 2^40.
  if (static_cast<double>(g[0]) * static_cast<double>(g[1]) * static_cast<double>(g[2]) > 0x1p40) return {};
  return g;
}

}  // namespace

std::array<int64_t, 3> launchGrid(const std::vector<NamedArg>& args) { return launchDims(args, "grid"); }
std::array<int64_t, 3> launchBlock(const std::vector<NamedArg>& args) { return launchDims(args, "block"); }

}  // namespace opscope
