// Kineto traces of other devices than CUDA/ROCm GPUs, of CPU-only jobs, and of CUPTI's
// range profiler: real files from HTA's test data (tests/data/hta, README there) and
// small inline traces for the backends no public file covers. Expected figures are
// computed from the raw JSON independently of opscope (README / comments).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "analysis/overview.h"
#include "analysis/summary.h"
#include "hierarchy/queries.h"
#include "io/trace_loader.h"
#include "report/analysis_report.h"
#include "report/summary_report.h"
#include "test_support.h"

namespace opscope {
namespace {

const std::string kHta = OPSCOPE_SOURCE_DIR "/tests/data/hta/";

std::unique_ptr<Trace> loadFile(const std::string& path) {
  LoadResult r = loadTraceFile(path);
  EXPECT_EQ(r.status, LoadStatus::Ok) << r.error;
  return std::move(r.trace);
}

TEST(DeviceKinds, MtiaDeviceEventsAreDeviceStreams) {
  auto t = loadFile(kHta + "mtia_inference.json.gz");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->meta.deviceKind, "MTIA");
  const Summary s = summarize(*t);
  // 1313 mtia_ccp_events on 12 threads named "Stream N" (one per stream arg).
  EXPECT_EQ(s.gpuStreams, 12u);
  EXPECT_EQ(s.kernels, 1313u);
  EXPECT_GT(s.launches, 0u);  // mtia_runtime calls
  // The device side carries no correlation arg: ac2g flows link it to the launches.
  EXPECT_GE(s.linkedGpuEvents, 900u);
  for (const Track& tr : t->tracks) {
    const std::string label = t->trackLabel(static_cast<uint32_t>(&tr - t->tracks.data()));
    if (tr.kind == TrackKind::GpuStream) {
      EXPECT_EQ(label.rfind("MTIA 17 \xC2\xB7 stream 1", 0), 0u) << label;
    } else if (std::string(t->str(tr.name)).rfind("Stream ", 0) ==
               0)  // "Stream 101 Submission Queue": runtime, not ops
    {
      for (SliceKind k : tr.slices.kind) EXPECT_NE(k, SliceKind::CpuOp) << label;
    }
  }
  const Overview o = computeOverview(*t);
  EXPECT_TRUE(o.hasDevice);
  EXPECT_GT(o.gpuUtilisation, 0.2);
  const auto j = nlohmann::json::parse(summaryJson(s, "mtia"));
  EXPECT_EQ(j["device_kind"], "MTIA");
  // Launch flows that lost an end are informational, not a problem.
  EXPECT_GT(t->diagnostics.count(WarningKind::DanglingLaunchFlow), 0u);
  EXPECT_EQ(t->diagnostics.count(WarningKind::DanglingFlow), 0u);
}

TEST(DeviceKinds, CpuOnlyJobCountsGlooCollectivesAsCommunication) {
  auto t = loadFile(kHta + "cpu_only_gloo.json.gz");
  ASSERT_TRUE(t);
  const Overview o = computeOverview(*t);
  EXPECT_FALSE(o.hasDevice);
  EXPECT_EQ(o.gpuActive, 0);
  // No device: the JSON names none (it said "GPU").
  EXPECT_EQ(nlohmann::json::parse(overviewJson(o, *t, "x"))["device_kind"], nullptr);
  EXPECT_EQ(nlohmann::json::parse(summaryJson(summarize(*t), "x"))["device_kind"], nullptr);
  // The union of the gloo:all_reduce spans of both threads: 1,102,980.645 µs.
  EXPECT_NEAR(static_cast<double>(o.part(StepPart::Communication)), 1102980.645e3, 1e3);
  TimeNs sum = 0;
  for (TimeNs p : o.breakdown) sum += p;
  EXPECT_EQ(sum, o.wall);
}

TEST(DeviceKinds, CuptiRangeProfilerRangesAreDeviceActivityWithTheirMetrics) {
  auto t = loadFile(kHta + "cupti_range_profiler.json.gz");
  ASSERT_TRUE(t);
  const Summary s = summarize(*t);
  ASSERT_EQ(s.streams.size(), 1u);
  EXPECT_EQ(s.streams[0].label, "GPU 0 \xC2\xB7 CUPTI range profiler");
  EXPECT_EQ(s.kernels, 77u);
  EXPECT_EQ(s.streams[0].busy, 9'350'187'000);  // 77 ranges, back to back
  const auto ranges = test::slicesNamed(*t, "__missing__");
  ASSERT_FALSE(ranges.empty());
  bool metric = false;
  for (const NamedArg& a : t->args(ranges.front()))
    metric |= a.key == "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";
  EXPECT_TRUE(metric);
}

TEST(DeviceKinds, OtherBackendsNameTheirDevice) {
  struct Case {
    const char* runtime;
    const char* device;
    const char* kind;
  };
  for (const Case& c : {Case{"xpu_runtime", "kernel", "XPU"}, Case{"cuda_runtime", "hpu_op", "HPU"},
                        Case{"privateuse1_runtime", "kernel", "device"}, Case{"mlu_runtime", "kernel", "MLU"}}) {
    SCOPED_TRACE(c.kind);
    auto t = test::loadOk(
        std::string(R"({"traceEvents":[
      {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":50},
      {"ph":"X","cat":")") +
        c.runtime + R"(","name":"launch","pid":1,"tid":1,"ts":5,"dur":5,"args":{"correlation":3}},
      {"ph":"X","cat":")" +
        c.device + R"(","name":"gemm","pid":2,"tid":9,"ts":20,"dur":30,"args":{"correlation":3,"device":2,"stream":9}}
    ]})");
    ASSERT_TRUE(t);
    EXPECT_EQ(t->meta.deviceKind, c.kind);
    const EventRef k = test::only(*t, "gemm");
    EXPECT_EQ(t->tracks[k.track].kind, TrackKind::GpuStream);
    EXPECT_EQ(t->trackLabel(k.track), std::string(c.kind) + " 2 \xC2\xB7 stream 9");
    ASSERT_TRUE(launchOf(*t, k));
    EXPECT_EQ(computeOverview(*t).gpuActive, 30'000);  // µs in the file, ns in the model
  }
}

TEST(DeviceKinds, KinetoLaunchFlowsWithoutTheirOtherEndAreNotProblems) {
  auto t = test::loadOk(R"({"traceEvents":[
    {"ph":"X","cat":"cuda_runtime","name":"cudaEventQuery","pid":1,"tid":1,"ts":0,"dur":5,"args":{"correlation":1}},
    {"ph":"f","id":7,"pid":0,"tid":7,"ts":20,"cat":"ac2g","name":"ac2g","bp":"e"},
    {"ph":"f","id":8,"pid":1,"tid":1,"ts":20,"cat":"fwdbwd","name":"fwdbwd","bp":"e"}
  ]})");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->diagnostics.count(WarningKind::DanglingLaunchFlow), 1u);
  EXPECT_EQ(t->diagnostics.count(WarningKind::DanglingFlow), 1u);  // another flow kind: a problem
  EXPECT_EQ(t->diagnostics.problems(), 1u);
  EXPECT_EQ(t->diagnostics.oneLine(), "1 dangling flow");
}

TEST(DeviceKinds, RealCudaTracesRaiseNoWarningForTheirLaunchFlows) {
  const auto path = test::sharedTrace("recsys_rank0_cuda.json.gz");
  if (!path) GTEST_SKIP() << "../shared/traces not present";
  auto t = loadFile(*path);
  ASSERT_TRUE(t);
  EXPECT_GT(t->diagnostics.count(WarningKind::DanglingLaunchFlow), 1000u);
  EXPECT_EQ(t->diagnostics.count(WarningKind::DanglingFlow), 0u);
  EXPECT_EQ(t->meta.deviceKind, "GPU");
}

}  // namespace
}  // namespace opscope
