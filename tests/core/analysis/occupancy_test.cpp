// Occupancy from a kernel's recorded launch shape: the occupancy calculator's cases by
// hand, and agreement with the estimate Kineto itself recorded on real traces.
#include "analysis/occupancy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "io/device_properties_json.h"
#include "io/trace_loader.h"
#include "test_support.h"

namespace opscope {
namespace {

NamedArg intArg(const std::string& key, int64_t v) {
  NamedArg a;
  a.key = key;
  a.type = ArgType::Int;
  a.i = v;
  return a;
}

NamedArg doubleArg(const std::string& key, double v) {
  NamedArg a;
  a.key = key;
  a.type = ArgType::Double;
  a.d = v;
  return a;
}

NamedArg jsonArg(const std::string& key, const std::string& text) {
  NamedArg a;
  a.key = key;
  a.type = ArgType::Json;
  a.text = text;
  return a;
}

// A100 as Kineto's deviceProperties describe it.
constexpr const char* kA100 =
    R"([{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "computeMajor": 8, "computeMinor": 0, "maxThreadsPerMultiprocessor": 2048,
        "regsPerMultiprocessor": 65536, "warpSize": 32, "sharedMemPerMultiprocessor": 167936, "numSms": 108}])";

std::vector<NamedArg> launch(int threads, int regs, int64_t smem, double blocksPerSm) {
  std::string block = "[";
  block += std::to_string(threads);
  block += ", 1, 1]";
  return {intArg("registers per thread", regs), intArg("shared memory", smem), doubleArg("blocks per SM", blocksPerSm),
          jsonArg("block", block)};
}

TEST(Occupancy, TheLimitThatBindsDecides) {
  const SmLimits sm = smLimitsByDevice(parseDeviceProperties(kA100)).at(0);
  EXPECT_EQ(sm.numSms, 108);
  EXPECT_EQ(sm.smemPerSm, 167936);

  // 256 threads, 32 registers, a full grid: 8 blocks by threads = 64 warps = 100 %.
  auto k = kernelOccupancy(launch(256, 32, 0, 100), sm);
  ASSERT_TRUE(k);
  EXPECT_DOUBLE_EQ(k->theoreticalPct, 100.0);
  EXPECT_DOUBLE_EQ(k->achievedPct, 100.0);

  // 128 registers: 128 × 32 = 4096 per warp, 8 warps a block → 2 blocks = 16 warps = 25 %.
  k = kernelOccupancy(launch(256, 128, 0, 100), sm);
  ASSERT_TRUE(k);
  EXPECT_EQ(k->limiter, OccupancyLimiter::Registers);
  EXPECT_DOUBLE_EQ(k->theoreticalPct, 25.0);

  // 80 KiB of shared memory (+1 KiB reserved from sm80 on): 2 blocks of 4 warps = 12.5 %.
  k = kernelOccupancy(launch(128, 32, 81920, 100), sm);
  ASSERT_TRUE(k);
  EXPECT_EQ(k->limiter, OccupancyLimiter::SharedMemory);
  EXPECT_DOUBLE_EQ(k->theoreticalPct, 12.5);

  // 32-thread blocks: the SM holds 32 blocks at most = 32 warps = 50 %.
  k = kernelOccupancy(launch(32, 16, 0, 100), sm);
  ASSERT_TRUE(k);
  EXPECT_EQ(k->limiter, OccupancyLimiter::BlockSize);
  EXPECT_DOUBLE_EQ(k->theoreticalPct, 50.0);

  // A grid of 27 blocks of 128 threads on 108 SMs: 0.25 blocks per SM = 1 warp of 64.
  k = kernelOccupancy(launch(128, 32, 0, 0.25), sm);
  ASSERT_TRUE(k);
  EXPECT_EQ(k->limiter, OccupancyLimiter::Grid);
  EXPECT_DOUBLE_EQ(k->achievedPct, 100.0 / 64);
  EXPECT_DOUBLE_EQ(k->theoreticalPct, 100.0);

  // Register allocation is per warp in units of 256: 33 registers × 32 = 1056 → 1280.
  k = kernelOccupancy(launch(1024, 33, 0, 100), sm);
  ASSERT_TRUE(k);
  EXPECT_EQ(k->limiter, OccupancyLimiter::Registers);  // 1280 × 32 warps = 40960 > 65536 / 2
  EXPECT_DOUBLE_EQ(k->theoreticalPct, 50.0);
}

TEST(Occupancy, NothingWithoutTheLaunchShape) {
  const SmLimits sm;
  EXPECT_FALSE(kernelOccupancy({}, sm));
  EXPECT_FALSE(kernelOccupancy({intArg("registers per thread", 32)}, sm));  // no block
  EXPECT_FALSE(kernelOccupancy({jsonArg("block", "[128, 1, 1]")}, sm));     // no registers
  EXPECT_FALSE(kernelOccupancy({intArg("registers per thread", 32), jsonArg("block", "[0, 1, 1]")}, sm));
  EXPECT_FALSE(
      kernelOccupancy({intArg("registers per thread", 32), jsonArg("block", "[64, 64, 1]")}, sm));  // 4096 threads
  EXPECT_FALSE(kernelOccupancy({intArg("registers per thread", 32), jsonArg("block", "not json")}, sm));
  EXPECT_TRUE(smLimitsByDevice(parseDeviceProperties("")).empty());
  EXPECT_TRUE(smLimitsByDevice(parseDeviceProperties("{broken")).empty());
  // Without deviceProperties: an SM of 2048 threads and 65536 registers, shared memory unknown.
  const auto k = kernelOccupancy(launch(128, 32, 1 << 20, 100), sm);
  ASSERT_TRUE(k);
  EXPECT_DOUBLE_EQ(k->theoreticalPct, 100.0);
}

TEST(Occupancy, LaunchGridFromArgs) {
  using G = std::array<int64_t, 3>;
  EXPECT_EQ(launchGrid({jsonArg("grid", "[98, 2, 64]")}), (G{98, 2, 64}));
  EXPECT_EQ(launchGrid({intArg("blocks per SM", 3), jsonArg("grid", "[64, 1, 1]")}), (G{64, 1, 1}));
  EXPECT_EQ(launchGrid({jsonArg("grid", "[7, 2]")}), (G{7, 2, 1}));  // missing dims are 1
  // Not recorded (ROCm) or not a grid: all zero, never a product that overflows.
  EXPECT_EQ(launchGrid({}), (G{0, 0, 0}));
  EXPECT_EQ(launchGrid({jsonArg("grid", "[0, 1, 1]")}), (G{0, 0, 0}));
  EXPECT_EQ(launchGrid({jsonArg("grid", "[4294967296, 4294967296, 4294967296]")}), (G{0, 0, 0}));
  EXPECT_EQ(launchGrid({jsonArg("grid", "[2147483647, 2147483647, 2147483647]")}), (G{0, 0, 0}));
  EXPECT_EQ(launchGrid({jsonArg("grid", "[1, 1, 1, 1]")}), (G{0, 0, 0}));
  EXPECT_EQ(launchGrid({jsonArg("grid", "[1.5, 1, 1]")}), (G{0, 0, 0}));
  EXPECT_EQ(launchGrid({jsonArg("grid", "{broken")}), (G{0, 0, 0}));
  EXPECT_EQ(launchGrid({intArg("grid", 64)}), (G{0, 0, 0}));
}

// Kineto records its own estimate with each kernel; ours, from the same shape, must
// agree within its rounding wherever Kineto's is valid (shared memory within the 48 KiB
// default: past it Kineto reads 0, see occupancy.h).
TEST(Occupancy, AgreesWithKinetosEstimateOnRealTraces) {
  size_t compared = 0;
  for (const char* name : {"recsys_rank0_cuda.json.gz", "alexnet_train_cuda.json.gz", "simple_add_kineto.json.gz"}) {
    const auto path = test::sharedTrace(name);
    if (!path) GTEST_SKIP() << "../shared/traces/" << name << " not present";
    LoadResult r = loadTraceFile(*path);
    ASSERT_EQ(r.status, LoadStatus::Ok) << name;
    const Trace& t = *r.trace;
    const auto devices = smLimitsByDevice(t.meta.devices);
    ASSERT_FALSE(devices.empty()) << name;
    size_t here = 0;
    for (uint32_t tr = 0; tr < t.tracks.size(); ++tr) {
      if (t.tracks[tr].kind != TrackKind::GpuStream) continue;
      const SmLimits sm = devices.count(t.tracks[tr].device) ? devices.at(t.tracks[tr].device) : SmLimits{};
      for (uint32_t i = 0; i < t.tracks[tr].slices.size(); ++i) {
        if (t.tracks[tr].slices.kind[i] != SliceKind::Kernel) continue;
        const auto k = kernelOccupancy(t.args(EventRef{tr, i}), sm);
        if (!k || !k->recordedPct || k->sharedMemBytes > 48 * 1024) continue;
        EXPECT_LE(std::abs(k->achievedPct - *k->recordedPct), 1.0)
            << name << ": " << t.name(EventRef{tr, i}) << " computed " << k->achievedPct << " recorded "
            << *k->recordedPct;
        ++here;
      }
    }
    EXPECT_GT(here, 0u) << name;
    compared += here;
  }
  EXPECT_GT(compared, 5000u);
}

// A read that keeps only the keys isOccupancyArgKey names (what advise's one pass over
// the file keeps) gives every kernel of real traces other tools wrote the occupancy of
// all its args.
TEST(Occupancy, TheKeysItReadsGiveTheOccupancyOfAllTheArgs) {
  size_t compared = 0;
  for (const char* f : {"tests/data/pytorch_h100/h100_resnet50_train.pt.trace.json.gz",
                        "tests/data/tracelens/h100_Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
                        "tests/data/tb_plugin/resnet50_memory.pt.trace.json.gz"}) {
    SCOPED_TRACE(f);
    LoadResult r = loadTraceFile(OPSCOPE_SOURCE_DIR "/" + std::string(f));
    ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
    const Trace& t = *r.trace;
    const auto devices = smLimitsByDevice(t.meta.devices);
    for (uint32_t tr = 0; tr < t.tracks.size(); ++tr) {
      if (t.tracks[tr].kind != TrackKind::GpuStream) continue;
      const SmLimits sm = devices.count(t.tracks[tr].device) ? devices.at(t.tracks[tr].device) : SmLimits{};
      for (uint32_t i = 0; i < t.tracks[tr].slices.size(); ++i) {
        if (t.tracks[tr].slices.kind[i] != SliceKind::Kernel) continue;
        std::vector<NamedArg> args = t.args(EventRef{tr, i});
        const auto all = kernelOccupancy(args, sm);
        std::erase_if(args, [](const NamedArg& a) { return !isOccupancyArgKey(a.key); });
        const auto kept = kernelOccupancy(args, sm);
        ASSERT_EQ(all.has_value(), kept.has_value()) << t.name(EventRef{tr, i});
        if (!all) continue;
        EXPECT_EQ(all->blockThreads, kept->blockThreads);
        EXPECT_EQ(all->regsPerThread, kept->regsPerThread);
        EXPECT_EQ(all->sharedMemBytes, kept->sharedMemBytes);
        EXPECT_EQ(all->blocksPerSm, kept->blocksPerSm);
        EXPECT_EQ(all->theoreticalPct, kept->theoreticalPct);
        EXPECT_EQ(all->achievedPct, kept->achievedPct);
        EXPECT_EQ(all->recordedPct, kept->recordedPct);
        ASSERT_EQ(all->limiter, kept->limiter) << t.name(EventRef{tr, i});
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 5000u);
}

}  // namespace
}  // namespace opscope
