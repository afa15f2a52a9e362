// A prediction reads each op's args from the trace once, whatever the number of passes
// (its own run, the calibrated companion, calibration's fit) and models that look at
// them: with lazy args every read goes back to the file.
#include "perf/op_inputs.h"

#include <gtest/gtest.h>

#include <map>

#include "analysis/occupancy.h"
#include "perf/gpu_spec.h"
#include "perf/prediction.h"
#include "test_support.h"

namespace opscope {
namespace {

class CountingArgs : public LazyArgs {
 public:
  explicit CountingArgs(std::shared_ptr<const LazyArgs> inner) : inner_(std::move(inner)) {}
  std::vector<NamedArg> read(uint64_t offset, std::string* error) const override {
    ++reads[offset];
    return inner_->read(offset, error);
  }
  mutable std::map<uint64_t, int> reads;

 private:
  std::shared_ptr<const LazyArgs> inner_;
};

// The H100 ResNet-50 trace as plain JSON at a temporary path: its args stay in the file
// and are read back on demand.
std::string plainResnet50(const std::string& name) {
  return test::plainCopy(OPSCOPE_SOURCE_DIR "/tests/data/pytorch_h100/h100_resnet50_train.pt.trace.json.gz", name);
}

TEST(OpInputs, APredictionReadsEachOpsArgsOnce) {
  const std::string path = plainResnet50("resnet50.json");
  LoadResult r = loadTraceFile(path);
  ASSERT_EQ(r.status, LoadStatus::Ok);
  ASSERT_TRUE(r.trace->lazyArgs);
  auto counting = std::make_shared<CountingArgs>(r.trace->lazyArgs);
  r.trace->lazyArgs = counting;
  PredictionSetup setup;
  setup.gpu = *builtinGpuSpecs().find("H100-SXM");
  setup.withCalibratedRun = true;  // the companion run and calibration's two passes
  const PredictionResult p = runPrediction(*r.trace, setup);
  ASSERT_TRUE(p.calibratedRun);
  ASSERT_FALSE(counting->reads.empty());
  int most = 0;
  for (const auto& [offset, n] : counting->reads) most = std::max(most, n);
  EXPECT_EQ(most, 1) << "an event's args were read " << most << " times";
  // A what-if on the same trace shares them: nothing is read again.
  const size_t before = counting->reads.size();
  OpInputs shared(*r.trace);
  PredictionSetup h100 = setup, v100 = setup;
  v100.gpu = *builtinGpuSpecs().find("V100");
  runPrediction(*r.trace, h100, &shared);
  counting->reads.clear();
  const PredictionResult whatIf = runPrediction(*r.trace, v100, &shared);
  EXPECT_TRUE(counting->reads.empty()) << counting->reads.size() << " of " << before << " read again";
  EXPECT_FALSE(whatIf.ops.empty());
  std::remove(path.c_str());
}

TEST(OpInputs, OneOpIndexServesEveryPassAndEqualsItsOwn) {
  // The prediction's passes and simulations share the inputs' op index: built once, the
  // same as one built for the trace, and a simulation given it equals one that built its own.
  LoadResult r = loadTraceFile(OPSCOPE_SOURCE_DIR "/tests/data/pytorch_h100/h100_resnet50_train.pt.trace.json.gz");
  ASSERT_EQ(r.status, LoadStatus::Ok);
  const Trace& trace = *r.trace;
  OpInputs inputs(trace);
  const OpIndex& index = inputs.opIndex();
  EXPECT_EQ(&inputs.opIndex(), &index);
  const OpIndex own(trace);
  size_t tops = 0;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t)
    for (uint32_t i = 0; i < trace.slices(t).size(); ++i) {
      ASSERT_EQ(index.topOp(t, i), own.topOp(t, i)) << t << " " << i;
      ASSERT_EQ(index.isLaunch({t, i}), own.isLaunch({t, i})) << t << " " << i;
      tops += index.isTopOp(t, i);
    }
  EXPECT_GT(tops, 100u);
  SimOptions sim;
  sim.replay = true;
  const std::vector<IterationPrediction> alone = simulateIterations(trace, sim);
  sim.index = &index;
  const std::vector<IterationPrediction> given = simulateIterations(trace, sim);
  ASSERT_EQ(given.size(), alone.size());
  ASSERT_GE(alone.size(), 2u);
  for (size_t i = 0; i < alone.size(); ++i) EXPECT_EQ(given[i].predictedUs, alone[i].predictedUs) << i;
}

bool sameShapes(const OpShapes& a, const OpShapes& b) {
  return a.inputs == b.inputs && a.types == b.types && a.concrete == b.concrete && a.dimsText == b.dimsText;
}

TEST(OpInputs, InternedShapesAndLaunchesEqualEachEventsOwn) {
  // Every op's shapes and every kernel's grid and block, prefetched in one pass and
  // interned, equal what its own args give; and far fewer are held than asked for.
  const std::string path = plainResnet50("resnet50_interned.json");
  LoadResult r = loadTraceFile(path);
  ASSERT_EQ(r.status, LoadStatus::Ok);
  const Trace& trace = *r.trace;
  OpInputs inputs(trace);
  inputs.prefetch(std::nullopt);
  size_t ops = 0, withShapes = 0, kernels = 0, withGrid = 0;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t)
    for (uint32_t i = 0; i < trace.slices(t).size(); ++i) {
      const EventRef e{t, i};
      const std::vector<NamedArg> own = trace.args(e);
      if (trace.tracks[t].kind == TrackKind::Thread && isOpKind(trace.kind(e))) {
        ++ops;
        const OpShapes& s = inputs.shapes(e);
        ASSERT_TRUE(sameShapes(s, opShapesFromArgs(own))) << trace.name(e) << " at row " << i;
        withShapes += s.recorded();
      } else if (trace.kind(e) == SliceKind::Kernel) {
        ++kernels;
        const KernelLaunchDims& d = inputs.launch(e);
        ASSERT_EQ(d.grid, launchGrid(own)) << trace.name(e);
        ASSERT_EQ(d.block, launchBlock(own)) << trace.name(e);
        withGrid += d.grid[0] > 0;
      }
    }
  EXPECT_GT(withShapes, 1000u);
  EXPECT_GT(withGrid, 1000u);
  EXPECT_LT(inputs.distinctShapes() * 5, withShapes) << inputs.distinctShapes() << " distinct of " << ops;
  EXPECT_LT(inputs.distinctLaunches() * 5, withGrid) << inputs.distinctLaunches() << " distinct of " << kernels;
  // Full args lists only for the ops a model reads beyond shapes.
  EXPECT_LT(inputs.argsKept(), ops / 2);
  std::remove(path.c_str());
}

TEST(OpInputs, SharedBetweenThreadsAnswersAsEachEventsOwnArgs) {
  // shareBetweenThreads reads the whole trace, here on two threads (the threshold
  // lowered to this trace's size), each over half the file's bytes: every op's shapes,
  // every kernel's launch and every kept args list equal the event's own args; and what
  // is asked afterwards that no prefetch covers (a runtime call's args) still reads.
  const std::string path = plainResnet50("resnet50_shared.json");
  LoadResult r = loadTraceFile(path);
  ASSERT_EQ(r.status, LoadStatus::Ok);
  ASSERT_TRUE(r.trace->lazyArgs);
  const Trace& trace = *r.trace;
  OpInputs inputs(trace);
  inputs.setParallelPrefetchFrom(1);
  inputs.shareBetweenThreads();
  size_t ops = 0, kernels = 0, kept = 0, runtime = 0;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t)
    for (uint32_t i = 0; i < trace.slices(t).size(); ++i) {
      const EventRef e{t, i};
      const std::vector<NamedArg> own = trace.args(e);
      if (trace.tracks[t].kind == TrackKind::Thread && isOpKind(trace.kind(e))) {
        ++ops;
        ASSERT_TRUE(sameShapes(inputs.shapes(e), opShapesFromArgs(own))) << trace.name(e) << " at row " << i;
        if (argsKeptFor(trace.name(e))) {
          ++kept;
          ASSERT_EQ(inputs.args(e).size(), own.size()) << trace.name(e);
        }
      } else if (trace.kind(e) == SliceKind::Kernel) {
        ++kernels;
        ASSERT_EQ(inputs.launch(e).grid, launchGrid(own)) << trace.name(e);
        ASSERT_EQ(inputs.launch(e).block, launchBlock(own)) << trace.name(e);
      } else if (trace.kind(e) == SliceKind::Runtime && runtime < 50) {
        ++runtime;
        const std::vector<NamedArg>& late = inputs.args(e);
        ASSERT_EQ(late.size(), own.size()) << trace.name(e);
        for (size_t k = 0; k < own.size(); ++k) EXPECT_EQ(late[k].text, own[k].text) << trace.name(e);
      }
    }
  EXPECT_GT(ops, 5000u);
  EXPECT_GT(kernels, 2000u);
  EXPECT_GT(kept, 100u);
  EXPECT_EQ(runtime, 50u);
  std::remove(path.c_str());
}

TEST(OpInputs, TheCalibratedCompanionOnItsThreadEqualsARunOfItsOwn) {
  // runPrediction runs its calibrated companion on a second thread over shared inputs;
  // its iterations and op errors equal a calibrated prediction run alone, one thread.
  const std::string path = plainResnet50("resnet50_companion.json");
  LoadResult r = loadTraceFile(path);
  ASSERT_EQ(r.status, LoadStatus::Ok);
  PredictionSetup setup;
  setup.gpu = *builtinGpuSpecs().find("H100-SXM");
  setup.withCalibratedRun = true;
  const PredictionResult p = runPrediction(*r.trace, setup);
  ASSERT_TRUE(p.calibratedRun);
  PredictionSetup alone = setup;
  alone.withCalibratedRun = false;
  alone.calibrate = true;
  const PredictionResult c = runPrediction(*r.trace, alone);
  ASSERT_TRUE(c.calibration);
  ASSERT_EQ(p.calibratedRun->iterations.size(), c.iterations.size());
  ASSERT_FALSE(c.iterations.empty());
  for (size_t i = 0; i < c.iterations.size(); ++i) {
    EXPECT_EQ(p.calibratedRun->iterations[i].predictedUs, c.iterations[i].predictedUs) << i;
    EXPECT_EQ(p.calibratedRun->iterations[i].gpuActivePredictedUs, c.iterations[i].gpuActivePredictedUs) << i;
  }
  EXPECT_EQ(p.calibratedRun->errorPctMean, c.iterationErrorPctMean);
  EXPECT_EQ(p.calibratedRun->opError.count, c.opError.count);
  EXPECT_EQ(p.calibratedRun->opError.gmaePct, c.opError.gmaePct);
  EXPECT_EQ(p.calibratedRun->calibration.kernelFloorUs, c.calibration->kernelFloorUs);
  std::remove(path.c_str());
}

TEST(OpInputs, ARunBesideItsCompanionEqualsARunWithout) {
  // The companion measures the trace's host overheads once for both runs and hands them
  // to the run it accompanies, which waits for them after pricing its ops: that run's
  // iterations and self-check equal those of a run without a companion.
  const std::string path = plainResnet50("resnet50_companion_main.json");
  LoadResult r = loadTraceFile(path);
  ASSERT_EQ(r.status, LoadStatus::Ok);
  PredictionSetup setup;
  setup.gpu = *builtinGpuSpecs().find("H100-SXM");
  setup.withCalibratedRun = true;
  const PredictionResult p = runPrediction(*r.trace, setup);
  ASSERT_TRUE(p.calibratedRun);
  setup.withCalibratedRun = false;
  const PredictionResult alone = runPrediction(*r.trace, setup);
  EXPECT_EQ(p.setup.overheadsSource, "this trace");
  ASSERT_EQ(p.iterations.size(), alone.iterations.size());
  ASSERT_EQ(p.selfCheck.size(), alone.selfCheck.size());
  ASSERT_FALSE(alone.selfCheck.empty());
  for (size_t i = 0; i < p.iterations.size(); ++i) {
    EXPECT_EQ(p.iterations[i].predictedUs, alone.iterations[i].predictedUs) << i;
    EXPECT_EQ(p.iterations[i].gpuActivePredictedUs, alone.iterations[i].gpuActivePredictedUs) << i;
    EXPECT_EQ(p.selfCheck[i].predictedUs, alone.selfCheck[i].predictedUs) << i;
  }
  EXPECT_EQ(p.selfCheckErrorPctMean, alone.selfCheckErrorPctMean);
  // Overheads given by the caller are the ones both runs use.
  setup.overheads = OverheadModel{};
  setup.withCalibratedRun = true;
  const PredictionResult given = runPrediction(*r.trace, setup);
  setup.withCalibratedRun = false;
  const PredictionResult givenAlone = runPrediction(*r.trace, setup);
  ASSERT_EQ(given.iterations.size(), givenAlone.iterations.size());
  for (size_t i = 0; i < given.iterations.size(); ++i)
    EXPECT_EQ(given.iterations[i].predictedUs, givenAlone.iterations[i].predictedUs) << i;
  std::remove(path.c_str());
}

}  // namespace
}  // namespace opscope
