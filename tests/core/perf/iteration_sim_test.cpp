// The iteration simulator on a hand-made iteration whose answers are worked out below,
// and its replay self-check on the bundled sample and the real traces.
#include "perf/iteration_sim.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "io/trace_loader.h"
#include "perf/prediction.h"
#include "test_support.h"

namespace opscope {
namespace {

// Step [0,100] µs on thread 1: aten::mm [8,27] launches K1 at 10 (call 5 µs) and K2 at
// 20; K1 runs [16,66] on stream 7, K2 queues behind it and runs [67,77]. The host then
// synchronises [30,78]: it waits for stream 7 (done at 77) and returns 1 µs later.
// Thread 2 launches a collective at 12 that runs [14,95] on stream 8, still running
// when the synchronisation returns, so it was not waited for.
const char* kStep = R"([
  {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100},
  {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":8,"dur":19},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":5,"args":{"correlation":1}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":20,"dur":5,"args":{"correlation":2}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaDeviceSynchronize","pid":1,"tid":1,"ts":30,"dur":48},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":2,"ts":12,"dur":2,"args":{"correlation":3}},
  {"ph":"X","cat":"kernel","name":"K1","pid":0,"tid":7,"ts":16,"dur":50,"args":{"correlation":1,"stream":7,"device":0}},
  {"ph":"X","cat":"kernel","name":"K2","pid":0,"tid":7,"ts":67,"dur":10,"args":{"correlation":2,"stream":7,"device":0}},
  {"ph":"X","cat":"kernel","name":"ncclKernel_AllReduce","pid":0,"tid":8,"ts":14,"dur":81,"args":{"correlation":3,"stream":8,"device":0}}
])";

OverheadModel fixtureOverheads(double t2) {
  OverheadModel m;
  m.t2["aten::mm"] = {t2, 0, 1, {}};
  m.t5["aten::mm"] = {5, 0, 1, {}};
  m.t3["aten::mm"] = {2, 0, 1, {}};
  m.t4["cudaLaunchKernel"] = {5, 0, 1, {}};
  return m;
}

TEST(IterationSim, ReplayGivesBackTheMeasuredStep) {
  auto t = test::loadOk(kStep);
  ASSERT_TRUE(t);
  ASSERT_EQ(t->iterations.size(), 1u);
  const std::vector<IterationPrediction> r = simulateIterations(*t, SimOptions{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_DOUBLE_EQ(r[0].measuredUs, 100);
  EXPECT_NEAR(r[0].predictedUs, 100, 1e-9);
  EXPECT_EQ(r[0].launches, 3u);
  EXPECT_EQ(r[0].syncs, 1u);
  EXPECT_EQ(r[0].gpuEvents, 3u);
  EXPECT_NEAR(r[0].gpuActiveMeasuredUs, 81, 1e-9);  // [14,95] covers both kernels of stream 7
  EXPECT_NEAR(r[0].gpuActivePredictedUs, 81, 1e-9);
}

TEST(IterationSim, PredictScalesKernelsAndUsesTheOverheads) {
  auto t = test::loadOk(kStep);
  ASSERT_TRUE(t);
  const EventRef mm = test::only(*t, "aten::mm");
  std::vector<OpRow> ops(1);
  ops[0].op = mm;
  ops[0].measuredGpu = 60'000;
  ops[0].predictedUs = 120;  // the model says twice as long
  ops[0].model = "test";
  const OverheadModel overheads = fixtureOverheads(2);  // the measured values
  SimOptions o;
  o.replay = false;
  o.overheads = &overheads;
  o.ops = &ops;
  std::vector<IterationPrediction> r = simulateIterations(*t, o);
  ASSERT_EQ(r.size(), 1u);
  // K1 [16,116], K2 queued 1 µs after it [117,137]; the sync returns at 138 and the
  // step's last 22 µs follow: 160. The collective keeps its measured time.
  EXPECT_NEAR(r[0].predictedUs, 160, 1e-9);
  EXPECT_NEAR(r[0].gpuActivePredictedUs, 102 + 20, 1e-9);
  EXPECT_NEAR(r[0].modelledGpuUs, 60, 1e-9);
  EXPECT_NEAR(r[0].measuredGpuUs, 141, 1e-9);

  // A T2 5 µs longer issues both launches 5 µs later: K1 [21,121], K2 [122,142], 165.
  const OverheadModel slower = fixtureOverheads(7);
  o.overheads = &slower;
  r = simulateIterations(*t, o);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_NEAR(r[0].predictedUs, 165, 1e-9);
}

// T4 in prediction is the launch's median cost, not its mean: one 400 µs first launch
// (module loading) must not make every launch slow. A blocking copy waits for its copy.
TEST(IterationSim, PredictUsesTheMedianLaunchCostAndBlockingCopiesWait) {
  // Step [0,400] µs: aten::copy_ [2,350] makes a blocking cudaMemcpyAsync [5,305] whose
  // copy runs [20,300] on stream 7; aten::add [352,360] launches K at 354 (3 µs), K runs
  // [360,370]; the step ends at 400.
  const char* step = R"json([
    {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":400},
    {"ph":"X","cat":"cpu_op","name":"aten::copy_","pid":1,"tid":1,"ts":2,"dur":348},
    {"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":1,"ts":5,"dur":300,"args":{"correlation":1}},
    {"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":352,"dur":8},
    {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":354,"dur":3,"args":{"correlation":2}},
    {"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":7,"ts":20,"dur":280,"args":{"correlation":1,"stream":7,"device":0}},
    {"ph":"X","cat":"kernel","name":"K","pid":0,"tid":7,"ts":360,"dur":10,"args":{"correlation":2,"stream":7,"device":0}}
  ])json";
  auto t = test::loadOk(step);
  ASSERT_TRUE(t);
  // The copy is scaled to half its time by a model of aten::copy_.
  std::vector<OpRow> ops(1);
  ops[0].op = test::only(*t, "aten::copy_");
  ops[0].measuredGpu = 280'000;
  ops[0].predictedUs = 140;
  ops[0].model = "test";
  OverheadModel m;
  m.t2["aten::copy_"] = {3, 0, 1, {}};
  m.t3["aten::copy_"] = {45, 0, 1, {}};
  m.t2["aten::add"] = {2, 0, 1, {}};
  m.t3["aten::add"] = {3, 0, 1, {}};
  m.t4["cudaLaunchKernel"] = {100, 150, 20, 3.0};  // mean inflated by one slow first launch
  m.t4["cudaMemcpyAsync"] = {500, 0, 1, 500.0};    // must not apply: this copy blocks
  SimOptions o;
  o.replay = false;
  o.overheads = &m;
  o.ops = &ops;
  const std::vector<IterationPrediction> r = simulateIterations(*t, o);
  ASSERT_EQ(r.size(), 1u);
  // The copy call is issued at 5 (2 µs measured before the op, T2 3), its copy starts
  // 15 µs later as measured, at 20, and takes 140: the call waits until 160 and returns
  // 5 µs later (its own time after the copy, as measured) at 165. Then T3 45, the
  // measured 2 µs gap (no T1 statistic) and T2 2: the launch is issued at 214, costs
  // T4's median 3 (not the mean 100, not the copy's 500), K runs [220, 230] (6 µs
  // launch-to-start as measured). The thread's tail: T3 3 + the measured 40 µs from
  // aten::add's end to the step's end: 217 + 43 = 260.
  EXPECT_NEAR(r[0].predictedUs, 260, 1e-9);
  EXPECT_EQ(r[0].syncs, 1u);  // the blocking copy counts as a wait
  EXPECT_EQ(r[0].launches, 1u);
}

// A GPU-bound iteration ends when its GPU work does, measured and predicted, so the
// prediction follows the kernel models: twice the kernel time, twice the iteration.
TEST(IterationSim, AGpuBoundIterationEndsAtTheGpuDrain) {
  // Step [0,100]: aten::mm [5,20] launches K at 10 (2 µs); K runs [20,500], long after
  // the host has left the step.
  const char* step = R"json([
    {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100},
    {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":5,"dur":15},
    {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":2,"args":{"correlation":1}},
    {"ph":"X","cat":"kernel","name":"K","pid":0,"tid":7,"ts":20,"dur":480,"args":{"correlation":1,"stream":7,"device":0}}
  ])json";
  auto t = test::loadOk(step);
  ASSERT_TRUE(t);
  std::vector<IterationPrediction> r = simulateIterations(*t, SimOptions{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_DOUBLE_EQ(r[0].stepUs, 100);
  EXPECT_DOUBLE_EQ(r[0].measuredUs, 500);   // to the drain
  EXPECT_DOUBLE_EQ(r[0].predictedUs, 500);  // the replay gives it back

  std::vector<OpRow> ops(1);
  ops[0].op = test::only(*t, "aten::mm");
  ops[0].measuredGpu = 480'000;
  ops[0].model = "test";
  OverheadModel m;  // empty: host pieces as measured
  SimOptions o;
  o.replay = false;
  o.overheads = &m;
  o.ops = &ops;
  for (const double factor : {0.5, 1.0, 2.0}) {
    ops[0].predictedUs = 480 * factor;
    r = simulateIterations(*t, o);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_NEAR(r[0].predictedUs, 20 + 480 * factor, 1e-9) << factor;  // K starts at 20 as measured
  }
  // --kernels measured ignores the models: the measured kernel, the modelled host.
  o.measuredKernels = true;
  r = simulateIterations(*t, o);
  EXPECT_NEAR(r[0].predictedUs, 500, 1e-9);
}

// Launches queue at most kLaunchQueueDepth events per stream: past that a launch waits
// until the oldest queued event starts, and the host's later work waits with it.
TEST(IterationSim, AFullLaunchQueueHoldsTheHost) {
  // 1100 launches 1 µs apart (each 0.5 µs) of 100 µs kernels run back to back from 20;
  // then a 200,000 µs host op, and the step ends 100 µs after it.
  std::string events =
      R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":201300},
    {"ph":"X","cat":"cpu_op","name":"aten::item","pid":1,"tid":1,"ts":1200,"dur":200000})";
  for (int j = 0; j < 1100; ++j) {
    const std::string c = std::to_string(j + 1);
    events += R"(,{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" + std::to_string(j) +
              R"(,"dur":0.5,"args":{"correlation":)" + c + "}}";
    events += R"(,{"ph":"X","cat":"kernel","name":"K","pid":0,"tid":7,"ts":)" + std::to_string(20 + 100 * j) +
              R"(,"dur":100,"args":{"correlation":)" + c + R"(,"stream":7,"device":0}})";
  }
  auto t = test::loadOk("[" + events + "]");
  ASSERT_TRUE(t);
  // The replay keeps the measured launch lengths, which hold any such wait already.
  std::vector<IterationPrediction> r = simulateIterations(*t, SimOptions{});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_NEAR(r[0].predictedUs, 201300, 1e-6);
  OverheadModel m;
  m.t4["cudaLaunchKernel"] = {0.5, 0, 1100, 0.5};
  SimOptions o;
  o.replay = false;
  o.overheads = &m;
  r = simulateIterations(*t, o);
  ASSERT_EQ(r.size(), 1u);
  // Kernel j starts at 20 + 100 j. Launch 1099 finds 1024 events queued from the 75th
  // on, so it waits for kernel 75's start at 7520 and returns at 7520.5; the host then
  // does what followed its last launch as measured (200,200.5 µs): 207,721.
  static_assert(kLaunchQueueDepth == 1024);
  EXPECT_NEAR(r[0].predictedUs, 207721, 1e-6);
}

// The notebook's T3 runs from an op's last launch to its end, so an op that ends in a
// synchronisation (aten::item) has the wait in its T3; the simulation makes the wait
// itself and keeps the measured time after it instead of adding T3 on top.
TEST(IterationSim, AnOpEndingInASyncIsNotChargedItsWaitTwice) {
  // aten::item [0,300]: launches K at 5 (3 µs), K runs [10,280]; cudaStreamSynchronize
  // [12,285] waits for it.
  const char* step = R"json([
    {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":300},
    {"ph":"X","cat":"cpu_op","name":"aten::item","pid":1,"tid":1,"ts":0,"dur":300},
    {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":5,"dur":3,"args":{"correlation":1}},
    {"ph":"X","cat":"cuda_runtime","name":"cudaStreamSynchronize","pid":1,"tid":1,"ts":12,"dur":273},
    {"ph":"X","cat":"kernel","name":"K","pid":0,"tid":7,"ts":10,"dur":270,"args":{"correlation":1,"stream":7,"device":0}}
  ])json";
  auto t = test::loadOk(step);
  ASSERT_TRUE(t);
  OverheadModel m;
  m.t2["aten::item"] = {5, 0, 1, {}};
  m.t3["aten::item"] = {292, 0, 1, {}};  // what the notebook's T3 measures here: 300 - 8
  m.t4["cudaLaunchKernel"] = {3, 0, 1, 3.0};
  SimOptions o;
  o.replay = false;
  o.overheads = &m;
  const std::vector<IterationPrediction> r = simulateIterations(*t, o);
  ASSERT_EQ(r.size(), 1u);
  // Launch at 5 (T2), returns 8; the sync 4 µs later as measured, waits for K to 280,
  // returns 5 µs later; the op's measured 15 µs after the sync: 300, not 300 + 292.
  EXPECT_NEAR(r[0].predictedUs, 300, 1e-9);
  EXPECT_EQ(r[0].syncs, 1u);
}

// The overhead statistics are net of the profiler's cost of recording each host event
// (T2, T3 and T5 less their sub-events' cost, T1 and T4 less one event's): a prediction,
// compared with the profiled iteration, gets back the cost of the events each piece
// recorded. Step [0,100] µs: aten::linear [10,40] records aten::t, aten::transpose and
// aten::as_strided before its launch at 20 (3 µs) and aten::view after it; aten::relu
// [50,60] records nothing and launches nothing. CPU event cost 2 µs, GPU event cost 1.
TEST(IterationSim, PredictGivesBackTheProfilersCostOfTheEventsEachPieceRecorded) {
  const char* step = R"json([
    {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100},
    {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":10,"dur":30},
    {"ph":"X","cat":"cpu_op","name":"aten::t","pid":1,"tid":1,"ts":11,"dur":6},
    {"ph":"X","cat":"cpu_op","name":"aten::transpose","pid":1,"tid":1,"ts":12,"dur":4},
    {"ph":"X","cat":"cpu_op","name":"aten::as_strided","pid":1,"tid":1,"ts":13,"dur":2},
    {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":20,"dur":3,"args":{"correlation":1}},
    {"ph":"X","cat":"cpu_op","name":"aten::view","pid":1,"tid":1,"ts":30,"dur":2},
    {"ph":"X","cat":"cpu_op","name":"aten::relu","pid":1,"tid":1,"ts":50,"dur":10},
    {"ph":"X","cat":"kernel","name":"K","pid":0,"tid":7,"ts":25,"dur":5,"args":{"correlation":1,"stream":7,"device":0}}
  ])json";
  auto t = test::loadOk(step);
  ASSERT_TRUE(t);
  OverheadModel m;
  m.t1 = {4, 0, 1, {}};
  m.t2["aten::linear"] = {1, 0, 1, {}};
  m.t3["aten::linear"] = {5, 0, 1, {}};
  m.t5["aten::relu"] = {3, 0, 1, {}};
  m.t4["cudaLaunchKernel"] = {2, 0, 1, 2.0};
  SimOptions o;
  o.replay = false;
  o.overheads = &m;
  // Without the costs (the notebook's files carry none): 10 µs measured before the op,
  // T2 1, T4 2, T3 5 to the op's end at 18, T1 4, relu's T5 3 at 25 and the measured
  // 40 µs to the step's end: 65. The kernel, 5 µs after its launch, ends at 21.
  std::vector<IterationPrediction> r = simulateIterations(*t, o);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_NEAR(r[0].predictedUs, 65, 1e-9);
  // With them: T2 1 + 3 sub-events × 2, T4 2 + 2 + 1, T3 5 + 1 sub-event × 2, T1 4 + 2
  // and relu's T5 3 + 0: 10 + 7 + 5 + 7 + 6 + 3 + 40 = 78.
  m.costs = ProfilerCosts{2, 1, 3};
  r = simulateIterations(*t, o);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_NEAR(r[0].predictedUs, 78, 1e-9);
}

// Rows counted as the statistics count them, in row order: aten::addmm starts with the
// first launch but is longer, so it is ordered (and counted) before it; the driver call
// nested in that launch and aten::view are the sub-events between the two launches.
// Step [0,200]: aten::linear [10,100] records aten::t [11,13] and aten::addmm [20,40]
// before cudaLaunchKernel [20,25] (cuLaunchKernel [21,24] inside it), aten::view [50,52],
// then cudaLaunchKernel [60,63]. CPU event cost 1.5 µs, GPU event cost 0.5.
TEST(IterationSim, TheProfilersCostFollowsTheRowsBetweenLaunches) {
  const char* step = R"json([
    {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":200},
    {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":10,"dur":90},
    {"ph":"X","cat":"cpu_op","name":"aten::t","pid":1,"tid":1,"ts":11,"dur":2},
    {"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":1,"tid":1,"ts":20,"dur":20},
    {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":20,"dur":5,"args":{"correlation":1}},
    {"ph":"X","cat":"cuda_driver","name":"cuLaunchKernel","pid":1,"tid":1,"ts":21,"dur":3},
    {"ph":"X","cat":"cpu_op","name":"aten::view","pid":1,"tid":1,"ts":50,"dur":2},
    {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":60,"dur":3,"args":{"correlation":2}},
    {"ph":"X","cat":"kernel","name":"K1","pid":0,"tid":7,"ts":30,"dur":10,"args":{"correlation":1,"stream":7,"device":0}},
    {"ph":"X","cat":"kernel","name":"K2","pid":0,"tid":7,"ts":70,"dur":10,"args":{"correlation":2,"stream":7,"device":0}}
  ])json";
  auto t = test::loadOk(step);
  ASSERT_TRUE(t);
  OverheadModel m;
  m.t2["aten::linear"] = {1, 0, 1, {}};
  m.t5["aten::linear"] = {2, 0, 1, {}};
  m.t3["aten::linear"] = {3, 0, 1, {}};
  m.t4["cudaLaunchKernel"] = {2, 0, 2, 2.0};
  m.costs = ProfilerCosts{1.5, 0.5, 3};
  SimOptions o;
  o.replay = false;
  o.overheads = &m;
  const std::vector<IterationPrediction> r = simulateIterations(*t, o);
  ASSERT_EQ(r.size(), 1u);
  // 10 µs measured before the op; T2 1 + 2 × 1.5 (aten::t, aten::addmm); T4 2 + 1.5 + 0.5;
  // T5 2 + 2 × 1.5 (cuLaunchKernel, aten::view); T4 4; T3 3 + 0; the measured 100 µs from
  // the op's end to the step's: 10 + 4 + 4 + 5 + 4 + 3 + 100 = 130 (the kernels end by 44).
  EXPECT_NEAR(r[0].predictedUs, 130, 1e-9);
  EXPECT_EQ(r[0].launches, 2u);
}

// One profiled iteration each (TraceLens' inference traces): the host model, priced by
// the trace's own statistics, must give back the measured iteration (measured kernel
// times isolate the host). Net of the profiler's costs the MI300X BERT and ViT steps came
// out 12.1 and 14.4 % short (their ops record 5-7 sub-events each at 0.7 µs).
TEST(IterationSim, TheHostModelGivesBackSingleIterationTracesWithTheirProfilerCosts) {
  for (const char* name :
       {"mi300_gaunernst_bert-small-uncased__1016001.json.gz", "mi300_Falconsai_nsfw_image_detection__1016002.json.gz",
        "h100_gaunernst_bert-small-uncased__1016001.json.gz", "h100_Falconsai_nsfw_image_detection__1016002.json.gz"}) {
    const std::string path = std::string(OPSCOPE_SOURCE_DIR "/tests/data/tracelens/") + name;
    LoadResult loaded = loadTraceFile(path);
    ASSERT_EQ(loaded.status, LoadStatus::Ok) << path << ": " << loaded.error;
    PredictionSetup setup;
    setup.gpu = builtinGpuSpecs().gpus.front();
    setup.measuredKernels = true;
    const PredictionResult r = runPrediction(*loaded.trace, setup);
    ASSERT_EQ(r.iterations.size(), 1u) << name;
    EXPECT_LE(std::abs(r.iterations[0].errorPct()), 2.0)
        << name << ": " << r.iterations[0].measuredUs << " vs " << r.iterations[0].predictedUs;
  }
}

TEST(IterationSim, SynchronisingCalls) {
  EXPECT_TRUE(isSynchronizingCall("cudaDeviceSynchronize"));
  EXPECT_TRUE(isSynchronizingCall("cudaStreamSynchronize"));
  EXPECT_TRUE(isSynchronizingCall("hipDeviceSynchronize"));
  EXPECT_TRUE(isSynchronizingCall("cudaMemcpy"));
  EXPECT_FALSE(isSynchronizingCall("cudaMemcpyAsync"));
  EXPECT_FALSE(isSynchronizingCall("cudaLaunchKernel"));
}

// A stream running behind its host: the work launched before the iteration holds the
// stream until it is done, also what starts after the step ends and what has no launch
// in the trace. Step 2 [100,200] launches Z at 120 on stream 8; ahead of it in stream 8
// are X (launched at 10, runs [150,250]), Y (launched at 20, runs [250,330], after the
// step's end) and U (no launch: launched before the profiler began, runs [120,140]); a
// GPU annotation span over stream 8 [100,900] is no stream work. Z ran [340,350], so
// iteration 2 measures 100 -> 350.
TEST(IterationSim, TheBacklogOfEarlierLaunchesHoldsTheStream) {
  const char* trace = R"json([
    {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100},
    {"ph":"X","cat":"user_annotation","name":"ProfilerStep#2","pid":1,"tid":1,"ts":100,"dur":100},
    {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":2,"args":{"correlation":1}},
    {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":20,"dur":2,"args":{"correlation":2}},
    {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":120,"dur":2,"args":{"correlation":3}},
    {"ph":"X","cat":"kernel","name":"U","pid":0,"tid":8,"ts":120,"dur":20,"args":{"stream":8,"device":0}},
    {"ph":"X","cat":"kernel","name":"X","pid":0,"tid":8,"ts":150,"dur":100,"args":{"correlation":1,"stream":8,"device":0}},
    {"ph":"X","cat":"kernel","name":"Y","pid":0,"tid":8,"ts":250,"dur":80,"args":{"correlation":2,"stream":8,"device":0}},
    {"ph":"X","cat":"kernel","name":"Z","pid":0,"tid":8,"ts":340,"dur":10,"args":{"correlation":3,"stream":8,"device":0}},
    {"ph":"X","cat":"gpu_user_annotation","name":"span","pid":0,"tid":8,"ts":100,"dur":800,"args":{"stream":8,"device":0}}
  ])json";
  auto t = test::loadOk(trace);
  ASSERT_TRUE(t);
  std::vector<IterationPrediction> r = simulateIterations(*t, SimOptions{});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1].number, 2);
  EXPECT_DOUBLE_EQ(r[1].measuredUs, 250);
  EXPECT_DOUBLE_EQ(r[1].predictedUs, 250);  // Z behind Y (ends 330) and its 10 µs gap
  // Predicted shorter, Z still starts behind the backlog: the backlog is the state the
  // iteration starts in, not the op priced.
  std::vector<OpRow> ops;
  OverheadModel m;
  SimOptions o;
  o.replay = false;
  o.overheads = &m;
  o.ops = &ops;
  r = simulateIterations(*t, o);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_DOUBLE_EQ(r[1].predictedUs, 250);
}

// Replaying the measured times of path's trace: every iteration within pct; the result.
PredictionResult expectReplayWithin(const std::string& path, double pct) {
  LoadResult loaded = loadTraceFile(path);
  EXPECT_EQ(loaded.status, LoadStatus::Ok) << path << ": " << loaded.error;
  if (loaded.status != LoadStatus::Ok) return {};
  PredictionSetup setup;
  setup.gpu = builtinGpuSpecs().gpus.front();
  setup.replay = true;
  PredictionResult r = runPrediction(*loaded.trace, setup);
  EXPECT_FALSE(r.iterations.empty()) << path;
  for (const IterationPrediction& i : r.iterations)
    EXPECT_LE(std::abs(i.errorPct()), pct)
        << path << " iteration " << i.index << ": " << i.measuredUs << " vs " << i.predictedUs;
  return r;
}

// The self-check the issue asks for: replaying measured times reproduces every
// iteration within 5 %.
void expectReplayWithin5Percent(const std::string& path) {
  EXPECT_LE(expectReplayWithin(path, 5.0).iterationErrorPctMean, 5.0);
}

TEST(IterationSim, ReplaySelfCheckOnTheSample) {
  expectReplayWithin5Percent(OPSCOPE_SOURCE_DIR "/resources/sample/sample.pt.trace.json.gz");
}

TEST(IterationSim, ReplaySelfCheckOnRealTraces) {
  bool any = false;
  for (const char* name : {"recsys_rank0_cuda.json.gz", "mi250_minitoy_train_rocm.json.gz"}) {
    const auto path = test::sharedTrace(name);
    if (!path) continue;
    any = true;
    expectReplayWithin5Percent(*path);
  }
  if (!any) GTEST_SKIP() << "../shared/traces not present";
}

// Every real trace of tests/data replays exactly (0.5 % for rounding): an MI300X DDP
// step whose all-reduces queue 30 ms behind their launches (TraceLens'
// mi300_resnet_act_checkpoint) replayed 39 % short while the backlog launched before an
// iteration but starting after its end was not counted.
TEST(IterationSim, ReplayGivesBackEveryIterationOfTheTracesInTestData) {
  size_t traces = 0;
  for (const char* dir : {"tracelens", "pytorch_h100", "pytorch_h200"})
    for (const auto& e : std::filesystem::directory_iterator(std::string(OPSCOPE_SOURCE_DIR "/tests/data/") + dir)) {
      const std::string path = e.path().string();
      if (!path.ends_with(".json.gz") || path.find("_et.") != std::string::npos) continue;
      expectReplayWithin(path, 0.5);
      ++traces;
    }
  EXPECT_GE(traces, 30u);
}

TEST(IterationSim, PredictOnTheSampleReportsEveryOp) {
  LoadResult loaded = loadTraceFile(OPSCOPE_SOURCE_DIR "/resources/sample/sample.pt.trace.json.gz");
  ASSERT_EQ(loaded.status, LoadStatus::Ok);
  PredictionSetup setup;
  std::string source;
  setup.gpu = defaultGpu(*loaded.trace, builtinGpuSpecs(), source);
  EXPECT_EQ(setup.gpu.name, "A100-SXM4-80GB");
  const PredictionResult r = runPrediction(*loaded.trace, setup);
  ASSERT_FALSE(r.ops.empty());
  ASSERT_EQ(r.iterations.size(), loaded.trace->iterations.size());
  uint64_t modelled = 0;
  for (const OpRow& row : r.ops) {
    EXPECT_EQ(row.predictedUs.has_value(), row.model != "no model");
    if (row.predictedUs) {
      EXPECT_GT(*row.predictedUs, 0);
      ++modelled;
    }
  }
  EXPECT_EQ(r.opError.count, modelled);
  EXPECT_GT(r.coverage, 0.5);  // linear layers and their backward hold most GPU time
  for (const IterationPrediction& i : r.iterations) EXPECT_GT(i.predictedUs, 0);
}

}  // namespace
}  // namespace opscope
