#include "analysis/overheads.h"

#include <gtest/gtest.h>

#include <cmath>

#include "analysis/op_index.h"
#include "analysis/overhead_model.h"
#include "analysis/sample_stats.h"
#include "io/trace_loader.h"
#include "op_fixture.h"
#include "test_support.h"

namespace opscope {
namespace {

// The samples, in order, each equal to its expected value (doubles made of µs).
::testing::AssertionResult samplesAre(const std::vector<double>& got, const std::vector<double>& want) {
  bool same = got.size() == want.size();
  for (size_t i = 0; same && i < got.size(); ++i) same = std::abs(got[i] - want[i]) < 1e-9;
  if (same) return ::testing::AssertionSuccess();
  std::string text;
  for (double v : got) text += std::to_string(v) + " ";
  return ::testing::AssertionFailure() << "samples are " << text;
}

OverheadOptions fixtureCosts() {
  OverheadOptions o;
  o.costs.cpuEvent = 1;
  o.costs.gpuEvent = 0.5;
  return o;
}

const OpOverheads* op(const Overheads& o, const std::string& name) {
  for (const auto& x : o.ops)
    if (x.name == name) return &x;
  return nullptr;
}

TEST(Overheads, EachTypeHasItsValueByConstruction) {
  auto t = test::loadOk(test::kOpFixture);
  ASSERT_TRUE(t);
  const Overheads o = computeOverheads(*t, fixtureCosts());
  EXPECT_EQ(o.topLevelOps, 4u);           // linear, relu, size, relu: sub-ops are not ops
  EXPECT_TRUE(samplesAre(o.t1, {2, 4}));  // the 310 µs gap is data loading
  const OpOverheads* linear = op(o, "aten::linear");
  ASSERT_TRUE(linear);
  EXPECT_EQ(linear->calls, 1u);
  EXPECT_EQ(linear->launches, 2u);
  EXPECT_TRUE(samplesAre(linear->t2, {4}));
  EXPECT_TRUE(samplesAre(linear->t3, {28}));
  EXPECT_TRUE(samplesAre(linear->t5, {6}));
  EXPECT_EQ(linear->launchSequence, (std::vector<std::string>{"cudaLaunchKernel", "cudaLaunchKernel"}));
  const OpOverheads* relu = op(o, "aten::relu");
  ASSERT_TRUE(relu);
  EXPECT_EQ(relu->calls, 2u);
  EXPECT_TRUE(samplesAre(relu->t2, {7, 5}));
  EXPECT_TRUE(samplesAre(relu->t3, {6, 11}));
  EXPECT_TRUE(samplesAre(relu->t5, {0, 0}));
  EXPECT_EQ(relu->launchSequence, std::vector<std::string>{"cudaLaunchKernel"});  // its first call's
  const OpOverheads* size = op(o, "aten::size");
  ASSERT_TRUE(size);
  EXPECT_TRUE(size->t2.empty());
  EXPECT_TRUE(samplesAre(size->t5, {5}));  // no launch: its CPU time
  ASSERT_EQ(o.t4.size(), 2u);
  EXPECT_EQ(o.t4[0].name, "cudaLaunchKernel");
  EXPECT_TRUE(samplesAre(o.t4[0].t4, {2.5, 2.5, 2.5}));
  EXPECT_EQ(o.t4[1].name, "cudaMemcpyAsync");
  EXPECT_TRUE(samplesAre(o.t4[1].t4, {2.5}));
}

TEST(Overheads, CostsAndGapLimitChangeTheSamples) {
  auto t = test::loadOk(test::kOpFixture);
  ASSERT_TRUE(t);
  OverheadOptions opt = fixtureCosts();
  opt.costs.cpuEvent = 0;
  opt.t1MaxGapUs = 1000;  // now the 310 µs gap counts
  const Overheads o = computeOverheads(*t, opt);
  EXPECT_TRUE(samplesAre(o.t1, {3, 5, 310}));
  EXPECT_TRUE(samplesAre(op(o, "aten::linear")->t3, {30}));
}

TEST(Overheads, WindowKeepsOpsStartingInside) {
  auto t = test::loadOk(test::kOpFixture);
  ASSERT_TRUE(t);
  OverheadOptions opt = fixtureCosts();
  opt.window = TimeWindow{60'000, 100'000};
  const Overheads o = computeOverheads(*t, opt);
  EXPECT_EQ(o.topLevelOps, 2u);        // relu, size
  EXPECT_TRUE(samplesAre(o.t1, {4}));  // relu's predecessor is outside
  EXPECT_EQ(op(o, "aten::linear"), nullptr);
}

TEST(Overheads, ProfilerCostsEstimatedFromTheTrace) {
  auto t = test::loadOk(test::kOpFixture);
  ASSERT_TRUE(t);
  const ProfilerCostEstimate e = estimateProfilerCosts(*t);
  // Sibling gaps in linear: 2, 3, 3, 10, 4 -> 10th percentile is the smallest.
  EXPECT_DOUBLE_EQ(e.costs.cpuEvent, 2);
  EXPECT_EQ(e.cpuEventSamples, 5u);
  EXPECT_DOUBLE_EQ(e.costs.launchLength, 4);  // every launch takes 4 µs
  EXPECT_EQ(e.launchSamples, 4u);
  EXPECT_DOUBLE_EQ(e.costs.gpuEvent, 0);  // not measurable in one trace: the user sets it
  EXPECT_NE(e.gpuEventMethod.find("not separable"), std::string::npos);
}

TEST(Overheads, AGivenOpIndexGivesWhatOneBuiltForTheCallGives) {
  // A prediction hands its op index to both (OverheadOptions::index): same figures.
  LoadResult r = loadTraceFile(OPSCOPE_SOURCE_DIR "/tests/data/pytorch_h100/h100_resnet50_train.pt.trace.json.gz");
  ASSERT_EQ(r.status, LoadStatus::Ok);
  const OpIndex index(*r.trace);
  const ProfilerCostEstimate alone = estimateProfilerCosts(*r.trace),
                             given = estimateProfilerCosts(*r.trace, {}, &index);
  EXPECT_EQ(given.costs.cpuEvent, alone.costs.cpuEvent);
  EXPECT_EQ(given.costs.launchLength, alone.costs.launchLength);
  EXPECT_EQ(given.cpuEventSamples, alone.cpuEventSamples);
  EXPECT_GT(alone.cpuEventSamples, 100u);
  OverheadOptions o;
  o.costs = alone.costs;
  const Overheads a = computeOverheads(*r.trace, o);
  o.index = &index;
  const Overheads b = computeOverheads(*r.trace, o);
  EXPECT_GT(a.topLevelOps, 100u);
  EXPECT_EQ(b.topLevelOps, a.topLevelOps);
  EXPECT_EQ(b.t1, a.t1);
  ASSERT_EQ(b.ops.size(), a.ops.size());
  for (size_t i = 0; i < a.ops.size(); ++i) {
    EXPECT_EQ(b.ops[i].name, a.ops[i].name) << i;
    EXPECT_EQ(b.ops[i].t2, a.ops[i].t2) << i;
    EXPECT_EQ(b.ops[i].t5, a.ops[i].t5) << i;
  }
  ASSERT_EQ(b.t4.size(), a.t4.size());
  ASSERT_FALSE(a.t4.empty());
  for (size_t i = 0; i < a.t4.size(); ++i) {
    EXPECT_EQ(b.t4[i].name, a.t4[i].name) << i;
    EXPECT_EQ(b.t4[i].t4, a.t4[i].t4) << i;
  }
}

TEST(Overheads, EstimateFallsBackToDefaultsWithoutSamples) {
  auto t = test::loadOk(R"({"traceEvents":[{"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":0,"dur":5}]})");
  ASSERT_TRUE(t);
  const ProfilerCostEstimate e = estimateProfilerCosts(*t);
  const ProfilerCosts defaults;
  EXPECT_DOUBLE_EQ(e.costs.cpuEvent, defaults.cpuEvent);
  EXPECT_DOUBLE_EQ(e.costs.launchLength, defaults.launchLength);
  EXPECT_NE(e.cpuEventMethod.find("default"), std::string::npos);
}

TEST(SampleStats, MatchesNumpy) {
  const std::vector<double> v{1, 2, 3, 4, 10};
  const SampleStats s = describe(v);
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.mean, 4);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(10.0));  // np.std: population
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.p90, 7.6);  // np.percentile(v, 90)
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 10);
  EXPECT_EQ(describe({}).count, 0u);
}

// T4 is a launch's own cost: a copy that returned only after its GPU copy had finished
// (pageable memory) is a wait, kept apart, and the model's T4 median is that of the
// non-blocking launches.
TEST(Overheads, BlockingLaunchesAreNotLaunchCosts) {
  // aten::copy_ [0,400]: three cudaMemcpyAsync. The first two return before their copies
  // end (6 and 8 µs); the third, 300 µs, returns after its copy [110,390] ended.
  const std::string json = R"json([
    {"ph":"X","cat":"cpu_op","name":"aten::copy_","pid":1,"tid":1,"ts":0,"dur":400},
    {"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":1,"ts":10,"dur":6,"args":{"correlation":1}},
    {"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":1,"ts":20,"dur":8,"args":{"correlation":2}},
    {"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":1,"ts":95,"dur":300,"args":{"correlation":3}},
    {"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pinned -> Device)","pid":0,"tid":7,"ts":18,"dur":30,"args":{"correlation":1,"stream":7,"device":0}},
    {"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pinned -> Device)","pid":0,"tid":7,"ts":48,"dur":30,"args":{"correlation":2,"stream":7,"device":0}},
    {"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":7,"ts":110,"dur":280,"args":{"correlation":3,"stream":7,"device":0}}
  ])json";
  auto t = test::loadOk(json);
  ASSERT_TRUE(t);
  OverheadOptions o;
  o.costs.cpuEvent = 0;
  o.costs.gpuEvent = 0;
  const Overheads ov = computeOverheads(*t, o);
  ASSERT_EQ(ov.t4.size(), 1u);
  EXPECT_TRUE(samplesAre(ov.t4[0].t4, {6, 8}));
  EXPECT_TRUE(samplesAre(ov.t4[0].blocking, {300}));
  const OverheadModel m = overheadModel(ov);
  ASSERT_TRUE(m.t4.at("cudaMemcpyAsync").median);
  EXPECT_DOUBLE_EQ(*m.t4.at("cudaMemcpyAsync").median, 7);
  EXPECT_DOUBLE_EQ(m.t4.at("cudaMemcpyAsync").mean, 7);
  EXPECT_EQ(m.t4.at("cudaMemcpyAsync").count, 2u);
}

TEST(OverheadModel, NotebookShapeRoundTrips) {
  auto t = test::loadOk(test::kOpFixture);
  ASSERT_TRUE(t);
  const OverheadModel m = overheadModel(computeOverheads(*t, fixtureCosts()));
  EXPECT_DOUBLE_EQ(m.t1.mean, 3);
  EXPECT_DOUBLE_EQ(m.t1.std, 1);
  EXPECT_EQ(m.t1.count, 2u);
  ASSERT_TRUE(m.t2.count("aten::relu"));
  EXPECT_DOUBLE_EQ(m.t2.at("aten::relu").mean, 6);
  EXPECT_FALSE(m.t2.count("aten::size"));  // no launch, no T2
  EXPECT_DOUBLE_EQ(m.t5.at("aten::size").mean, 5);
  const std::string json = overheadModelJson(m);
  // The notebook's shape: pairs, not objects.
  EXPECT_NE(json.find("\"t1\": [\n  3.0,\n  1.0\n ]"), std::string::npos) << json;
  std::string error;
  auto back = parseOverheadModel(json, error);
  ASSERT_TRUE(back) << error;
  EXPECT_DOUBLE_EQ(back->t1.mean, 3);
  EXPECT_EQ(back->t1.count, 2u);
  EXPECT_EQ(back->t2.size(), m.t2.size());
  EXPECT_DOUBLE_EQ(back->t3.at("aten::linear").mean, 28);
  EXPECT_EQ(back->t4.at("cudaLaunchKernel").count, 3u);
  EXPECT_EQ(back->launches.at("aten::linear").size(), 2u);
  // T4's median travels in "medians", beside the notebook's pairs.
  ASSERT_TRUE(m.t4.at("cudaLaunchKernel").median);
  ASSERT_TRUE(back->t4.at("cudaLaunchKernel").median);
  EXPECT_DOUBLE_EQ(*back->t4.at("cudaLaunchKernel").median, *m.t4.at("cudaLaunchKernel").median);
  EXPECT_NE(json.find("\"medians\""), std::string::npos);
  ASSERT_TRUE(back->costs);
  EXPECT_DOUBLE_EQ(back->costs->gpuEvent, 0.5);
}

TEST(OverheadModel, ReadsTheNotebooksOwnFile) {
  // What json.dump(o) writes in the notebook: tuples as lists, no counts, no costs.
  const std::string notebook =
      R"({"t1": [21.3, 20.1], "t2": {"aten::linear": [12.5, 3.0]}, "t3": {"aten::linear": [8.0, 1.0]},)"
      R"( "t4": {"cudaLaunchKernel": [4.0, 0.0]}, "t5": {"aten::relu": [0, 0]},)"
      R"( "launches": {"aten::linear": ["cudaLaunchKernel", "cudaLaunchKernel"]}})";
  std::string error;
  auto m = parseOverheadModel(notebook, error);
  ASSERT_TRUE(m) << error;
  EXPECT_DOUBLE_EQ(m->t1.mean, 21.3);
  EXPECT_DOUBLE_EQ(m->t2.at("aten::linear").std, 3.0);
  EXPECT_FALSE(m->t4.at("cudaLaunchKernel").median);  // the notebook has means only
  EXPECT_FALSE(m->costs);
}

TEST(OverheadModel, BadFilesGiveOneLineNamingTheField) {
  std::string error;
  EXPECT_FALSE(parseOverheadModel("{\"t1\": [1, 2], \"t2\": ", error));
  EXPECT_NE(error.find("byte"), std::string::npos) << error;
  EXPECT_FALSE(parseOverheadModel(R"({"t2": {}})", error));
  EXPECT_NE(error.find("t1"), std::string::npos) << error;
  EXPECT_FALSE(parseOverheadModel(R"({"t1": [1, 2], "t2": {"aten::mm": [1]}, "t3": {}, "t4": {}, "t5": {}})", error));
  EXPECT_NE(error.find("t2[\"aten::mm\"]"), std::string::npos) << error;
  EXPECT_FALSE(
      parseOverheadModel(R"({"t1": [1, 2], "t2": {}, "t3": {}, "t4": {}, "t5": {}, "launches": {"a": [1]}})", error));
  EXPECT_NE(error.find("launches"), std::string::npos) << error;
  EXPECT_FALSE(parseOverheadModel(
      R"({"t1": [1, 2], "t2": {}, "t3": {}, "t4": {}, "t5": {}, "profiler_costs": {"cpu_event_overhead_us": "x"}})",
      error));
  EXPECT_NE(error.find("cpu_event_overhead_us"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace opscope
