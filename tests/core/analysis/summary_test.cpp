#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "analysis/summary.h"
#include "model/interval_union.h"
#include "report/summary_report.h"
#include "test_support.h"
#include "text/duration_text.h"

namespace opscope {
namespace {

using test::loadOk;

TEST(IntervalUnion, OverlapsAndGaps) {
  std::vector<std::pair<TimeNs, TimeNs>> iv{{10, 20}, {0, 5}, {15, 30}, {30, 31}, {40, 40}, {50, 45}};
  EXPECT_EQ(unionLength(iv), 5 + 20 + 1);
  std::vector<std::pair<TimeNs, TimeNs>> none;
  EXPECT_EQ(unionLength(none), 0);
}

// Two streams with a known overlap; top-level ops nested in an annotation and each
// other; a launch outside any op; a crossover op.
const char* kFixture = R"({"traceEvents":[
  {"ph":"X","cat":"user_annotation","name":"ProfilerStep#3","pid":1,"tid":1,"ts":0,"dur":100},
  {"ph":"X","cat":"user_annotation","name":"ProfilerStep#4","pid":1,"tid":1,"ts":100,"dur":50.5},
  {"ph":"X","cat":"gpu_user_annotation","name":"ProfilerStep#3","pid":0,"tid":7,"ts":1,"dur":99},
  {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":10,"dur":40},
  {"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":1,"tid":1,"ts":12,"dur":30},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":14,"dur":5,"args":{"correlation":1}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":20,"dur":5,"args":{"correlation":2}},
  {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":60,"dur":20},
  {"ph":"X","cat":"cuda_driver","name":"cuLaunchKernel","pid":1,"tid":1,"ts":61,"dur":2,"args":{"correlation":3}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaMemsetAsync","pid":1,"tid":1,"ts":90,"dur":2,"args":{"correlation":4}},
  {"ph":"X","cat":"cpu_op","name":"aten::copy_","pid":1,"tid":2,"ts":0,"dur":7},
  {"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":20,"dur":10.1,"args":{"correlation":1,"stream":7}},
  {"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":25,"dur":10,"args":{"correlation":2,"stream":7}},
  {"ph":"X","cat":"kernel","name":"relu","pid":0,"tid":7,"ts":65,"dur":5,"args":{"correlation":3,"stream":7}},
  {"ph":"X","cat":"gpu_memset","name":"Memset","pid":0,"tid":20,"ts":91,"dur":3,"args":{"correlation":4,"stream":20}},
  {"ph":"X","cat":"kernel","name":"nccl","pid":0,"tid":20,"ts":28,"dur":20,"args":{"correlation":77,"stream":20}}
]})";

TEST(Summary, ContractFiguresByConstruction) {
  auto t = loadOk(kFixture);
  ASSERT_TRUE(t);
  const Summary s = summarize(*t);
  EXPECT_EQ(s.kernels, 4u);
  EXPECT_EQ(s.gpuEvents, 5u);
  EXPECT_EQ(s.linkedGpuEvents, 4u);  // nccl's correlation 77 has no launch
  ASSERT_EQ(s.iterations.size(), 2u);
  EXPECT_DOUBLE_EQ(*s.iterationMeanNs, (100000.0 + 50500.0) / 2);
  ASSERT_EQ(s.streams.size(), 2u);
  // stream 7: [20,30.1) U [25,35) U [65,70) = 15 + 5 µs; stream 20: [28,48) U [91,94) = 23 µs.
  EXPECT_EQ(s.streams[0].tid.num, 20);
  EXPECT_EQ(s.streams[0].busy, 23000);
  EXPECT_EQ(s.streams[1].busy, 20000);
  EXPECT_EQ(s.streams[1].events, 3u);
  ASSERT_GE(s.topKernels.size(), 2u);
  // gemm 10.1 + 10 = 20.1 µs beats nccl's single 20 µs.
  EXPECT_EQ(s.topKernels[0].name, "gemm");
  EXPECT_EQ(s.topKernels[0].total, 20100);
  EXPECT_EQ(s.topKernels[0].count, 2u);
  EXPECT_EQ(s.topKernels[1].name, "nccl");
  EXPECT_EQ(s.topKernels[1].total, 20000);
  ASSERT_EQ(s.topOps.size(), 2u);
  EXPECT_EQ(s.topOps[0].name, "aten::linear");
  EXPECT_EQ(s.topOps[0].count, 2u);  // aten::addmm is nested, not top-level
  EXPECT_EQ(s.topOps[0].cpu, 60000);
  EXPECT_EQ(s.topOps[0].gpu, 10100 + 10000 + 5000);
  EXPECT_EQ(s.topOps[1].name, "aten::copy_");
  EXPECT_EQ(s.topOps[1].gpu, 0);
}

TEST(Summary, JsonHasContractKeysAndExactMicroseconds) {
  auto t = loadOk(kFixture);
  ASSERT_TRUE(t);
  const auto j = nlohmann::json::parse(summaryJson(summarize(*t), "fixture.json"));
  for (const char* key : {"kernels", "gpu_events", "linked_gpu_events", "iterations", "iteration_us_mean", "streams",
                          "top_kernels", "top_ops"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["iterations"], 2);
  EXPECT_EQ(j["iteration_us_mean"].get<double>(), 75.25);
  EXPECT_EQ(j["streams"][0]["pid"], 0);
  EXPECT_EQ(j["streams"][0]["tid"], 20);
  EXPECT_EQ(j["streams"][0]["busy_us"].get<double>(), 23.0);
  EXPECT_EQ(j["top_kernels"][0]["total_us"].get<double>(), 20.1);
  EXPECT_EQ(j["top_ops"][0]["gpu_us"].get<double>(), 25.1);
  // Printed text, not only the parsed value, must be exact: 20.1, never 20.099999999999998.
  EXPECT_NE(summaryJson(summarize(*t), "f").find("\"total_us\": 20.1\n"), std::string::npos);
}

TEST(Summary, NoIterationsGivesNullMean) {
  auto t = loadOk(R"([{"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":0,"dur":1}])");
  ASSERT_TRUE(t);
  const auto j = nlohmann::json::parse(summaryJson(summarize(*t), "f"));
  EXPECT_TRUE(j["iteration_us_mean"].is_null());
  EXPECT_EQ(j["streams"].size(), 0u);
}

TEST(Summary, StringPidsStayStrings) {
  auto t = loadOk(R"([{"ph":"X","cat":"kernel","name":"k","pid":"GPU 0","tid":"stream 7","ts":0,"dur":1}])");
  ASSERT_TRUE(t);
  const auto j = nlohmann::json::parse(summaryJson(summarize(*t), "f"));
  EXPECT_EQ(j["streams"][0]["pid"], "GPU 0");
  EXPECT_EQ(j["streams"][0]["tid"], "stream 7");
}

TEST(Summary, TopLevelOpsIgnoreOtherCategoriesAndCountCrossoversOnce) {
  auto t = loadOk(R"([
    {"ph":"X","cat":"python_function","name":"py","pid":1,"tid":1,"ts":0,"dur":100},
    {"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":10},
    {"ph":"X","cat":"cpu_op","name":"b","pid":1,"tid":1,"ts":5,"dur":10},
    {"ph":"X","cat":"cpu_op","name":"c","pid":1,"tid":1,"ts":6,"dur":2}])");
  ASSERT_TRUE(t);
  const auto tops = topLevelOps(t->tracks[0].slices);
  std::vector<std::string> names;
  for (uint32_t r : tops) names.emplace_back(t->str(t->tracks[0].slices.name[r]));
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b"}));
}

TEST(Summary, TextReportIsReadable) {
  auto t = loadOk(kFixture);
  ASSERT_TRUE(t);
  const std::string text = summaryText(summarize(*t), "fixture.json");
  EXPECT_NE(text.find("GPU 0 \xC2\xB7 stream 20"), std::string::npos) << text;
  EXPECT_NE(text.find("2 iterations (ProfilerStep#3..4)"), std::string::npos) << text;
  EXPECT_NE(text.find("4 of 5 GPU events linked"), std::string::npos) << text;
}

TEST(FormatDuration, AdaptiveUnits) {
  EXPECT_EQ(reportDuration(999), "999 ns");
  EXPECT_EQ(reportDuration(1500), "1.500 \xC2\xB5s");
  EXPECT_EQ(reportDuration(2500000), "2.500 ms");
  EXPECT_EQ(reportDuration(3000000000LL), "3.000 s");
}

}  // namespace
}  // namespace opscope

namespace opscope {
namespace {

TEST(Summary, WindowKeepsOnlyEventsStartingInside) {
  auto t = test::loadOk(kFixture);
  ASSERT_TRUE(t);
  SummaryOptions o;
  o.window = iterationWindow(t->iterations, 0, 1);  // ProfilerStep#3: [0, 100) µs
  ASSERT_TRUE(o.window);
  const Summary s = summarize(*t, o);
  EXPECT_EQ(s.wall, 100000);
  EXPECT_EQ(s.iterations.size(), 1u);
  EXPECT_EQ(s.gpuEvents, 5u);  // every GPU event of the fixture starts before 100 µs
  o.window = TimeWindow{50000, 100000};
  const Summary late = summarize(*t, o);
  EXPECT_EQ(late.kernels, 1u);  // relu at 65 µs
  ASSERT_EQ(late.topOps.size(), 1u);
  EXPECT_EQ(late.topOps[0].count, 1u);
  EXPECT_EQ(late.topOps[0].gpu, 5000);
  const auto j = nlohmann::json::parse(summaryJson(late, "f"));
  EXPECT_EQ(j["window_us"]["end"].get<double>(), 100.0);
}

TEST(Summary, MarkerIterationsAreReportedBesideTheContract) {
  auto t = test::loadOk(R"([
    {"ph":"X","cat":"Operator","name":"## forward ##","pid":1,"tid":1,"ts":0,"dur":5},
    {"ph":"X","cat":"Operator","name":"## forward ##","pid":1,"tid":1,"ts":10,"dur":5}])");
  ASSERT_TRUE(t);
  SummaryOptions o;
  o.iterationMarker = "## forward ##";
  const Summary s = summarize(*t, o);
  EXPECT_TRUE(s.iterations.empty()) << "the contract's iterations stay ProfilerStep only";
  ASSERT_EQ(s.markerIterations.size(), 2u);
  const auto j = nlohmann::json::parse(summaryJson(s, "f"));
  EXPECT_EQ(j["iterations"], 0);
  EXPECT_EQ(j["marker_iterations"].size(), 2u);
  EXPECT_NE(summaryText(s, "f").find("2 iterations delimited by \"## forward ##\""), std::string::npos);
}

}  // namespace
}  // namespace opscope
