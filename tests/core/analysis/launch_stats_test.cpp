// Kernel launch statistics: figures by hand on a small trace; on a real trace (HTA's
// NCCL test rank) against a join written here over the raw JSON (runtime calls and GPU
// events by correlation id, not opscope's links) and against the figures HTA itself
// computes (get_cuda_kernel_launch_stats, include_last_profiler_step=True, HTA f4d0062).
#include "analysis/launch_stats.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "io/trace_loader.h"
#include "test_support.h"

namespace opscope {
namespace {

// A 3 µs call whose 1 µs kernel starts 2 µs after it ends (short GPU event); a 60 µs call
// (runtime outlier); a kernel starting 150 µs after its call ended (delay outlier); a
// memcpy launched by cudaMemcpyAsync; a kernel with no launch in the trace.
const char* kLaunches = R"([
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":0,"dur":3,"args":{"correlation":1}},
  {"ph":"X","cat":"kernel","name":"tiny","pid":0,"tid":7,"ts":5,"dur":1,"args":{"stream":7,"correlation":1}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":60,"args":{"correlation":2}},
  {"ph":"X","cat":"kernel","name":"slow_call","pid":0,"tid":7,"ts":20,"dur":40,"args":{"stream":7,"correlation":2}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":100,"dur":5,"args":{"correlation":3}},
  {"ph":"X","cat":"kernel","name":"late","pid":0,"tid":7,"ts":255,"dur":20,"args":{"stream":7,"correlation":3}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":1,"ts":300,"dur":4,"args":{"correlation":4}},
  {"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD","pid":0,"tid":7,"ts":302,"dur":10,"args":{"stream":7,"correlation":4}},
  {"ph":"X","cat":"kernel","name":"orphan","pid":0,"tid":7,"ts":400,"dur":10,"args":{"stream":7,"correlation":99}}])";

TEST(LaunchStats, PairsDelaysAndHtasClassesByHand) {
  auto t = test::loadOk(kLaunches);
  ASSERT_TRUE(t);
  const LaunchStatsReport r = launchStats(*t);
  ASSERT_EQ(r.pairs.size(), 4u);  // the orphan kernel has no launch
  const LaunchPair& tiny = r.pairs[0];
  EXPECT_EQ(tiny.cpu, 3000);
  EXPECT_EQ(tiny.gpuDur, 1000);
  EXPECT_EQ(tiny.delay, 5000);
  EXPECT_EQ(tiny.delayAfterCall, 2000);
  EXPECT_TRUE(tiny.shortGpu);
  EXPECT_FALSE(tiny.runtimeOutlier || tiny.delayOutlier);
  const LaunchPair& slow = r.pairs[1];
  EXPECT_TRUE(slow.runtimeOutlier);
  EXPECT_FALSE(slow.shortGpu);        // an outlier call is not also a short kernel (HTA)
  EXPECT_EQ(slow.delayAfterCall, 0);  // started while its call was still running: clipped
  EXPECT_EQ(slow.delay, 10'000);
  EXPECT_TRUE(r.pairs[2].delayOutlier);  // 255 - 105 = 150 µs > 100
  EXPECT_EQ(t->name(r.pairs[3].launch), "cudaMemcpyAsync");
  EXPECT_EQ(r.shortGpu, 1u);
  EXPECT_EQ(r.runtimeOutliers, 1u);
  EXPECT_EQ(r.delayOutliers, 1u);
  EXPECT_DOUBLE_EQ(r.delayUs.mean, (5 + 10 + 155 + 2) / 4.0);
  ASSERT_EQ(r.byName.size(), 4u);
  EXPECT_EQ(r.byName[0].name, "late");  // the most total delay first
  // A window keeps the launches whose call starts in it.
  const LaunchStatsReport w = launchStats(*t, TimeWindow{t->minTs + 50'000, t->minTs + 350'000});
  EXPECT_EQ(w.pairs.size(), 2u);
}

TEST(LaunchStats, AgreesWithARawJoinAndWithHtaOnARealTrace) {
  const std::string path = OPSCOPE_SOURCE_DIR "/tests/data/hta/ranks/sampled_rank-0.json.gz";
  LoadResult lr = loadTraceFile(path);
  ASSERT_EQ(lr.status, LoadStatus::Ok) << lr.error;
  const LaunchStatsReport r = launchStats(*lr.trace);
  // The join, over the file's own events.
  const auto json = nlohmann::json::parse(test::gunzip(test::readFile(path)));
  std::map<int64_t, std::pair<double, double>> calls;  // correlation -> (ts, dur)
  for (const auto& e : json["traceEvents"])
    if (e.value("cat", "") == "cuda_runtime" && e.contains("args") && e["args"].contains("correlation"))
      calls[e["args"]["correlation"].get<int64_t>()] = {e["ts"].get<double>(), e["dur"].get<double>()};
  uint64_t pairs = 0, shortGpu = 0, runtime = 0, late = 0;
  double delaySum = 0;
  for (const auto& e : json["traceEvents"]) {
    const std::string cat = e.value("cat", "");
    if (cat != "kernel" && cat != "gpu_memcpy" && cat != "gpu_memset") continue;
    const auto it = calls.find(e["args"].value("correlation", int64_t{-1}));
    if (it == calls.end()) continue;
    const auto [ts, dur] = it->second;
    const double gpu = e["dur"].get<double>(), after = std::max(0.0, e["ts"].get<double>() - ts - dur);
    ++pairs;
    runtime += dur > 50;
    shortGpu += dur <= 50 && gpu < dur;
    late += after > 100;
    delaySum += after;
  }
  EXPECT_EQ(r.pairs.size(), pairs);
  EXPECT_EQ(r.shortGpu, shortGpu);
  EXPECT_EQ(r.runtimeOutliers, runtime);
  EXPECT_EQ(r.delayOutliers, late);
  EXPECT_NEAR(r.delayAfterCallUs.mean, delaySum / static_cast<double>(pairs), 1e-9);
  // HTA's own figures for this file.
  EXPECT_EQ(r.pairs.size(), 1204u);
  EXPECT_EQ(r.shortGpu, 280u);
  EXPECT_EQ(r.runtimeOutliers, 2u);
  EXPECT_EQ(r.delayOutliers, 937u);
  EXPECT_NEAR(r.delayAfterCallUs.mean, 17059.549833887042, 1e-6);
  EXPECT_NEAR(r.cpuUs.mean, 9.177740863787376, 1e-9);
  EXPECT_NEAR(r.gpuUs.mean, 504.8538205980066, 1e-9);
}

}  // namespace
}  // namespace opscope
