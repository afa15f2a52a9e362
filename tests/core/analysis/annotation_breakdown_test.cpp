// GPU user-annotation breakdown on a real trace (TraceLens' MI300X ResNet step with
// DDP and NCCL annotations): per name, counts and totals against sums written here over
// the raw JSON, the GPU events inside against a containment check over the raw events,
// and HTA's own figures for the file (get_gpu_user_annotation_breakdown with
// include_last_profiler_step=True, HTA f4d0062; HTA floors each span to whole µs).
#include "analysis/annotation_breakdown.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "io/trace_loader.h"
#include "test_support.h"

namespace opscope {
namespace {

TEST(AnnotationBreakdown, AgreesWithTheRawJsonAndWithHtaOnARealTrace) {
  const std::string path = OPSCOPE_SOURCE_DIR "/tests/data/tracelens/mi300_resnet_act_checkpoint.json.gz";
  LoadResult lr = loadTraceFile(path);
  ASSERT_EQ(lr.status, LoadStatus::Ok) << lr.error;
  const AnnotationBreakdown b = annotationBreakdown(*lr.trace);
  const auto json = nlohmann::json::parse(test::gunzip(test::readFile(path)));
  struct Want {
    uint64_t count = 0, events = 0;
    double us = 0;
  };
  std::map<std::string, Want> want;
  std::vector<const nlohmann::json*> gpu;
  for (const auto& e : json["traceEvents"]) {
    const std::string cat = e.value("cat", "");
    if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") gpu.push_back(&e);
  }
  for (const auto& e : json["traceEvents"]) {
    if (e.value("cat", "") != "gpu_user_annotation") continue;
    Want& w = want[e["name"]];
    ++w.count;
    w.us += e["dur"].get<double>();
    const double s = e["ts"].get<double>(), end = s + e["dur"].get<double>();
    for (const auto* g : gpu)
      if ((*g)["pid"] == e["pid"] && (*g)["tid"] == e["tid"] && (*g)["ts"].get<double>() >= s &&
          (*g)["ts"].get<double>() < end)
        ++w.events;
  }
  ASSERT_EQ(b.rows.size(), want.size());
  for (const AnnotationRow& r : b.rows) {
    SCOPED_TRACE(r.name);
    ASSERT_TRUE(want.count(r.name));
    EXPECT_EQ(r.durUs.count, want[r.name].count);
    EXPECT_NEAR(static_cast<double>(r.total) / 1000, want[r.name].us, 1e-6);
    EXPECT_EQ(r.gpuEvents, want[r.name].events);
  }
  // HTA: counts equal; its whole-µs sums are at most 2 µs per instance below.
  const std::map<std::string, std::pair<uint64_t, double>> hta = {{"DistributedDataParallel.forward", {3, 6658}},
                                                                  {"Optimizer.step#SGD.step", {3, 88}},
                                                                  {"nccl:all_reduce", {6, 47132}},
                                                                  {"nccl:broadcast", {6, 59}}};
  for (const AnnotationRow& r : b.rows) {
    if (!hta.count(r.name)) continue;
    const auto [count, us] = hta.at(r.name);
    EXPECT_EQ(r.durUs.count, count) << r.name;
    const double mine = static_cast<double>(r.total) / 1000;
    EXPECT_GE(mine, us) << r.name;
    EXPECT_LE(mine - us, 2.0 * static_cast<double>(count)) << r.name;
  }
  EXPECT_EQ(b.rows[0].name, "nccl:all_reduce");  // the most time first
  // DDP's forward holds the step's compute kernels; the GPU time inside is within it.
  const auto ddp = std::find_if(b.rows.begin(), b.rows.end(),
                                [](const AnnotationRow& r) { return r.name == "DistributedDataParallel.forward"; });
  ASSERT_NE(ddp, b.rows.end());
  EXPECT_GT(ddp->gpuEvents, 100u);
  EXPECT_LE(ddp->gpuEventTime, ddp->total);
  EXPECT_FALSE(ddp->kernels.empty());
}

TEST(AnnotationBreakdown, NoSpansNoRows) {
  auto t = test::loadOk(R"([{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1,"dur":2,"args":{"stream":7}}])");
  ASSERT_TRUE(t);
  EXPECT_TRUE(annotationBreakdown(*t).rows.empty());
}

}  // namespace
}  // namespace opscope
