// Queue length per stream (HTA's definition): +1 when the launch call starts, -1 when
// its GPU event ends. Figures by hand on a small trace, and on a real H100 trace against
// a sweep written here over the raw JSON (correlation ids, not opscope's links).
#include "analysis/queue_length.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "report/analysis_catalog.h"
#include "test_support.h"

namespace opscope {
namespace {

// Three kernels launched back to back at 0, 1 and 2 µs, run 10-20, 20-30, 30-40 µs; a
// memcpy with no launch in the trace (launched before profiling began).
const char* kQueued = R"([
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":0,"dur":0.5,"args":{"correlation":1}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":1,"dur":0.5,"args":{"correlation":2}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":2,"dur":0.5,"args":{"correlation":3}},
  {"ph":"X","cat":"kernel","name":"a","pid":0,"tid":7,"ts":10,"dur":10,"args":{"stream":7,"correlation":1}},
  {"ph":"X","cat":"kernel","name":"b","pid":0,"tid":7,"ts":20,"dur":10,"args":{"stream":7,"correlation":2}},
  {"ph":"X","cat":"kernel","name":"c","pid":0,"tid":7,"ts":30,"dur":10,"args":{"stream":7,"correlation":3}},
  {"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD","pid":0,"tid":7,"ts":5,"dur":1,"args":{"stream":7,"correlation":99}}])";

TEST(QueueLength, DepthsMeanAndTimeAtEachDepthByHand) {
  auto t = test::loadOk(kQueued);
  ASSERT_TRUE(t);
  const QueueLengthReport r = queueLength(*t);
  ASSERT_EQ(r.streams.size(), 1u);
  const StreamQueue& q = r.streams[0];
  EXPECT_EQ(q.operations, 3u);
  EXPECT_EQ(q.withoutLaunch, 1u);
  EXPECT_EQ(q.maxDepth, 3);
  // 1 for [0,1), 2 for [1,2), 3 for [2,20), 2 for [20,30), 1 for [30,40): 87 / 40.
  EXPECT_DOUBLE_EQ(q.meanDepth, 87.0 / 40.0);
  ASSERT_EQ(q.timeAtDepth.size(), 4u);
  EXPECT_EQ(q.timeAtDepth[0], 0);
  EXPECT_EQ(q.timeAtDepth[1], 11'000);
  EXPECT_EQ(q.timeAtDepth[2], 11'000);
  EXPECT_EQ(q.timeAtDepth[3], 18'000);
  EXPECT_EQ(q.timeFull, 0);
  ASSERT_EQ(q.steps.size(), 5u);  // 1, 2, 3, 2, 1: the drain to 0 is the end of the trace
  EXPECT_EQ(q.steps[3].ts, 20'000);
  EXPECT_EQ(q.steps[3].depth, 2);
  // A window starts with the depth reached before it: 3 at 15 µs.
  const QueueLengthReport w = queueLength(*t, TimeWindow{15'000, 35'000});
  ASSERT_EQ(w.streams.size(), 1u);
  EXPECT_EQ(w.streams[0].steps.front().ts, 15'000);
  EXPECT_EQ(w.streams[0].steps.front().depth, 3);
  EXPECT_DOUBLE_EQ(w.streams[0].meanDepth, (3.0 * 5 + 2.0 * 10 + 1.0 * 5) / 20.0);
}

TEST(QueueLength, TheTimelineGetsACounterPerStream) {
  auto t = test::loadOk(kQueued);
  ASSERT_TRUE(t);
  const size_t before = t->counters.size();
  addQueueLengthCounters(*t);
  ASSERT_EQ(t->counters.size(), before + 1);
  const CounterSeries& c = t->counters.back();
  EXPECT_EQ(t->str(c.name), "stream 7 \xC2\xB7 queued launches");
  EXPECT_EQ(*std::max_element(c.value.begin(), c.value.end()), 3);
  // Past the point budget: the deepest queue of each bin.
  auto u = test::loadOk(kQueued);
  addQueueLengthCounters(*u, 4);
  EXPECT_EQ(u->counters.back().ts.size(), 5u);
  EXPECT_EQ(*std::max_element(u->counters.back().value.begin(), u->counters.back().value.end()), 3);
}

// The real H100 MLP trace against an independent sweep over its raw events.
TEST(QueueLength, AgreesWithASweepOverTheRawJsonOfARealTrace) {
  const std::string path = OPSCOPE_SOURCE_DIR "/tests/data/pytorch_h100/h100_mlp.pt.trace.json.gz";
  const auto raw = nlohmann::json::parse(test::gunzip(test::readFile(path)));
  std::map<int64_t, double> launchTs;  // correlation -> launch start (µs)
  struct Op {
    double start, end;
  };
  std::map<int64_t, std::vector<std::pair<double, int>>> changes;  // stream -> (µs, ±1)
  std::map<int64_t, uint64_t> operations;
  for (const auto& e : raw["traceEvents"]) {
    const std::string cat = e.value("cat", "");
    if ((cat == "cuda_runtime" || cat == "cuda_driver") && e.contains("args") && e["args"].contains("correlation"))
      launchTs[e["args"]["correlation"].get<int64_t>()] = e["ts"].get<double>();
  }
  for (const auto& e : raw["traceEvents"]) {
    const std::string cat = e.value("cat", "");
    if (cat != "kernel" && cat != "gpu_memcpy" && cat != "gpu_memset") continue;
    const auto& a = e["args"];
    const auto l = launchTs.find(a["correlation"].get<int64_t>());
    if (l == launchTs.end()) continue;
    const double end = e["ts"].get<double>() + e["dur"].get<double>();
    auto& c = changes[a["stream"].get<int64_t>()];
    c.emplace_back(std::min(l->second, end), +1);
    c.emplace_back(end, -1);
    ++operations[a["stream"].get<int64_t>()];
  }
  ASSERT_FALSE(changes.empty());
  auto t = loadTraceFile(path);
  ASSERT_EQ(t.status, LoadStatus::Ok);
  const QueueLengthReport r = queueLength(*t.trace);
  const double span = static_cast<double>(r.end - r.start) / 1000.0;  // µs
  size_t checked = 0;
  for (const StreamQueue& q : r.streams) {
    const int64_t stream = t.trace->tracks[q.track].stream;
    if (!changes.count(stream)) continue;
    auto c = changes[stream];
    std::sort(c.begin(), c.end());  // -1 before +1 at one instant
    int depth = 0, deepest = 0;
    double weighted = 0;
    for (size_t i = 0; i < c.size(); ++i) {
      depth += c[i].second;
      const double next = i + 1 < c.size() ? c[i + 1].first : c[i].first;
      if (next > c[i].first) deepest = std::max(deepest, depth);
      weighted += depth * (next - c[i].first);
    }
    EXPECT_EQ(q.operations, operations[stream]) << q.label;
    EXPECT_EQ(q.maxDepth, deepest) << q.label;
    EXPECT_NEAR(q.meanDepth, weighted / span, 1e-6 * std::max(1.0, weighted / span)) << q.label;
    ++checked;
  }
  EXPECT_EQ(checked, changes.size());
  // And through the catalog, as `opscope export --chart queue-length` writes it.
  const AnalysisKind* kind = findAnalysis("queue-length");
  ASSERT_TRUE(kind);
  const auto json = nlohmann::json::parse(kind->json(*computeAnalysis(*kind, *t.trace, {}), *t.trace, {}, "x"));
  EXPECT_EQ(json["streams"].size(), r.streams.size());
  EXPECT_EQ(json["streams"][0]["max_depth"], r.streams[0].maxDepth);
}

}  // namespace
}  // namespace opscope
