#include "analysis/overview.h"

#include <gtest/gtest.h>

#include "analysis/summary.h"
#include "io/trace_loader.h"
#include "model/interval_set.h"
#include "test_support.h"

namespace opscope {
namespace {

// Every part of the step-time breakdown has a value known by construction (µs):
//   data loading [0,10), kernel [10,30) on stream 7, nccl [20,50) on stream 20 (its
//   first 10 µs hidden under the kernel), memcpy [60,70), a launch [12,14) under the
//   kernel, a runtime call [75,78), the op [10,80), nothing in [80,100).
const char* kStep = R"json({"traceEvents":[
  {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100},
  {"ph":"X","cat":"user_annotation","name":"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__","pid":1,"tid":1,"ts":0,"dur":10},
  {"ph":"X","cat":"cpu_op","name":"aten::x","pid":1,"tid":1,"ts":10,"dur":70},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":12,"dur":2,"args":{"correlation":1}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaStreamSynchronize","pid":1,"tid":1,"ts":75,"dur":3},
  {"ph":"X","cat":"kernel","name":"sgemm_nn","pid":0,"tid":7,"ts":10,"dur":20,"args":{"correlation":1,"stream":7}},
  {"ph":"X","cat":"kernel","name":"ncclKernel_AllReduce_RING_LL_Sum_float","pid":0,"tid":20,"ts":20,"dur":30,"args":{"stream":20}},
  {"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":8,"ts":60,"dur":10,"args":{"stream":8}}
]})json";

TEST(Overview, StepBreakdownByPriorityAddsUpToWallTime) {
  auto t = test::loadOk(kStep);
  ASSERT_TRUE(t);
  OverviewOptions opt;
  opt.batchSize = 32;
  const Overview o = computeOverview(*t, opt);
  EXPECT_EQ(o.wall, 100'000);
  EXPECT_EQ(o.part(StepPart::DataLoading), 10'000);
  EXPECT_EQ(o.part(StepPart::Kernel), 20'000);
  EXPECT_EQ(o.part(StepPart::Communication), 20'000);
  EXPECT_EQ(o.part(StepPart::Memcpy), 10'000);
  EXPECT_EQ(o.part(StepPart::Memset), 0);
  EXPECT_EQ(o.part(StepPart::Runtime), 3'000);
  EXPECT_EQ(o.part(StepPart::Cpu), 17'000);
  EXPECT_EQ(o.part(StepPart::Idle), 20'000);
  TimeNs sum = 0;
  for (TimeNs v : o.breakdown) sum += v;
  EXPECT_EQ(sum, o.wall);
  // Devices: unions, not sums.
  EXPECT_EQ(o.gpuActive, 50'000);
  EXPECT_EQ(o.gpuIdle, 50'000);
  EXPECT_DOUBLE_EQ(o.gpuUtilisation, 0.5);
  ASSERT_EQ(o.streams.size(), 3u);
  EXPECT_EQ(o.streams[0].busy, 30'000);  // the nccl stream
  EXPECT_EQ(o.streams[1].busy, 20'000);
  EXPECT_EQ(o.streams[2].busy, 10'000);
  // Host runtime without data loading, and throughput from it.
  EXPECT_EQ(o.dataLoading, 10'000);
  EXPECT_EQ(o.hostRuntime, 90'000);
  EXPECT_EQ(o.iterations, 1u);
  ASSERT_TRUE(o.samplesPerSecond);
  EXPECT_NEAR(*o.samplesPerSecond, 32.0 / 90e-6, 1e-6);
  EXPECT_EQ(o.ops, 1u);
  EXPECT_EQ(o.launches, 2u);
  EXPECT_EQ(o.kernels, 2u);
  EXPECT_EQ(o.memcpys, 1u);
}

TEST(Overview, AWindowClipsWhatReachesIntoIt) {
  auto t = test::loadOk(kStep);
  ASSERT_TRUE(t);
  OverviewOptions opt;
  opt.window = TimeWindow{t->minTs + 25'000, t->minTs + 65'000};
  const Overview o = computeOverview(*t, opt);
  EXPECT_EQ(o.wall, 40'000);
  EXPECT_EQ(o.part(StepPart::Kernel), 5'000);          // [25,30)
  EXPECT_EQ(o.part(StepPart::Communication), 20'000);  // [30,50)
  EXPECT_EQ(o.part(StepPart::Memcpy), 5'000);          // [60,65)
  EXPECT_EQ(o.part(StepPart::Cpu), 10'000);            // [50,60)
  EXPECT_EQ(o.part(StepPart::Idle), 0);
  // Counted where they start: only the memcpy starts inside.
  EXPECT_EQ(o.kernels, 0u);
  EXPECT_EQ(o.memcpys, 1u);
  EXPECT_FALSE(o.samplesPerSecond);  // no batch size given
}

TEST(IntervalSet, UnionDifferenceAndClip) {
  const IntervalSet a = IntervalSet::fromUnsorted({{10, 20}, {0, 5}, {15, 30}, {40, 40}, {50, 60}});
  ASSERT_EQ(a.intervals().size(), 3u);
  EXPECT_EQ(a.length(), 5 + 20 + 10);
  const IntervalSet b = IntervalSet::fromUnsorted({{3, 12}, {25, 55}});
  EXPECT_EQ(a.lengthOutside(b), 3 + 13 + 5);  // [0,3) [12,25) [55,60)
  EXPECT_EQ(a.lengthInside(b), 2 + 2 + 5 + 5);
  EXPECT_EQ(a.unite(b).length(), 60 - 0 - 0);  // [0,60)
  EXPECT_EQ(a.clip(4, 52).length(), 1 + 20 + 2);
  EXPECT_EQ(IntervalSet().lengthOutside(a), 0);
  EXPECT_EQ(a.lengthOutside(IntervalSet()), a.length());
}

TEST(Overview, RealTracesHoldTheInvariantsAndMatchTheSummary) {
  for (const char* name :
       {"recsys_rank0_cuda.json.gz", "alexnet_train_cuda.json.gz", "mi250_minitoy_train_rocm.json.gz"}) {
    const auto path = test::sharedTrace(name);
    if (!path) GTEST_SKIP() << "../shared/traces/" << name << " not present";
    LoadResult r = loadTraceFile(*path);
    ASSERT_EQ(r.status, LoadStatus::Ok) << name;
    const Trace& t = *r.trace;
    const Overview o = computeOverview(t);
    TimeNs sum = 0;
    for (TimeNs v : o.breakdown) {
      EXPECT_GE(v, 0) << name;
      sum += v;
    }
    EXPECT_EQ(sum, o.wall) << name;
    EXPECT_LE(o.gpuActive, o.wall) << name;
    // Per-stream busy time is the summary's busy_us (computed independently there).
    const Summary s = summarize(t);
    ASSERT_EQ(o.streams.size(), s.streams.size()) << name;
    for (size_t k = 0; k < s.streams.size(); ++k) EXPECT_EQ(o.streams[k].busy, s.streams[k].busy) << name;
    EXPECT_EQ(o.kernels, s.kernels) << name;
    // The GPU is busy at least as long as its busiest stream, at most their sum.
    TimeNs busiest = 0, total = 0;
    for (const auto& st : o.streams) {
      busiest = std::max(busiest, st.busy);
      total += st.busy;
    }
    EXPECT_GE(o.gpuActive, busiest) << name;
    EXPECT_LE(o.gpuActive, total) << name;
    // Per iteration too.
    for (const Iteration& it : t.iterations) {
      OverviewOptions opt;
      opt.window = TimeWindow{it.start, it.end};
      const Overview oi = computeOverview(t, opt);
      TimeNs si = 0;
      for (TimeNs v : oi.breakdown) si += v;
      EXPECT_EQ(si, it.end - it.start) << name;
      EXPECT_EQ(oi.iterations, 1u) << name;
    }
  }
}

// Utilisation over the span each figure names: the profiler's envelope ("Trace" span,
// [0,200) µs) holds warm-up and flush; activity runs [50,150); kernels [60,80) and [100,120).
TEST(Overview, UtilisationIsOverTheActiveSpanWithTheEnvelopeAndGpuSpanFiguresBeside) {
  auto t = test::loadOk(R"json({"traceEvents":[
    {"ph":"X","cat":"Trace","name":"PyTorch Profiler (0)","pid":"Spans","tid":"PyTorch Profiler","ts":0,"dur":200},
    {"ph":"X","cat":"cpu_op","name":"aten::a","pid":1,"tid":1,"ts":50,"dur":100},
    {"ph":"X","cat":"kernel","name":"k1","pid":0,"tid":7,"ts":60,"dur":20,"args":{"stream":7}},
    {"ph":"X","cat":"kernel","name":"k2","pid":0,"tid":7,"ts":100,"dur":20,"args":{"stream":7}}
  ]})json");
  ASSERT_TRUE(t);
  const Overview o = computeOverview(*t);
  EXPECT_EQ(o.wall, 200'000);
  EXPECT_EQ(o.activeSpan(), 100'000);
  EXPECT_EQ(o.gpuSpan(), 60'000);
  EXPECT_DOUBLE_EQ(o.gpuUtilisation, 0.4);
  EXPECT_DOUBLE_EQ(o.gpuUtilisationEnvelope, 0.2);
  EXPECT_DOUBLE_EQ(o.gpuUtilisationGpuSpan, 40.0 / 60.0);
  ASSERT_EQ(o.streams.size(), 1u);
  EXPECT_DOUBLE_EQ(o.streams[0].utilisation, 0.4);
}

// HTA's sampled rank 0 (tests/data/hta): HTA's temporal breakdown reports 44.8 % over the
// GPU's active span; over the trace's wall, the profiler envelope included, it is 16.3 %.
TEST(Overview, UtilisationOnHtasSampledRankMatchesHtasActiveSpanFigure) {
  LoadResult r = loadTraceFile(OPSCOPE_SOURCE_DIR "/tests/data/hta/ranks/sampled_rank-0.json.gz");
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const Overview o = computeOverview(*r.trace);
  EXPECT_NEAR(100 * o.gpuUtilisationGpuSpan, 44.8, 0.05);
  EXPECT_NEAR(100 * o.gpuUtilisationEnvelope, 16.3, 0.05);
  EXPECT_NEAR(100 * o.gpuUtilisation, 44.5, 0.05);  // first op to last activity: a little wider
  EXPECT_LT(o.activeSpan(), o.wall / 2);
}

}  // namespace
}  // namespace opscope
