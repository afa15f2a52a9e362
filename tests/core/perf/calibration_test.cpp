// Calibrating a preset to the trace: statistics known by construction, and the public
// recommendation-model trace, fitted on its first iteration and checked on the others.
#include "perf/calibration.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "io/trace_loader.h"
#include "perf/prediction.h"
#include "test_support.h"

namespace opscope {
namespace {

OpRow row(double measuredUs, double predictedUs, const std::string& model, uint64_t events = 1) {
  OpRow r;
  r.measuredGpu = static_cast<TimeNs>(measuredUs * 1000);
  r.predictedUs = predictedUs;
  r.model = model;
  r.gpuEvents = events;
  return r;
}

TEST(Calibration, FloorAndBandwidthFromTheirOwnOps) {
  GpuSpec g;
  g.kernelFloorUs = 2;
  g.dramGBs = 2000;
  std::vector<OpRow> rows;
  // 21 ops at the floor measured 4, 5 or 6 µs (median 5); one more with two events and
  // one sampled out (1 µs) do not count.
  for (int i = 0; i < 21; ++i) rows.push_back(row(4 + i % 3, 2, "memory-bound"));
  rows.push_back(row(50, 2, "memory-bound", 2));
  rows.push_back(row(1, 2, "memory-bound"));
  // 20 bandwidth-bound ops predicted at 10 µs (5× the floor) that take 25: 40 % of the
  // datasheet bandwidth; a GEMM and an op predicted under 4× the floor do not count.
  for (int i = 0; i < 20; ++i) rows.push_back(row(25, 10, "memory-bound"));
  rows.push_back(row(100, 10, "gemm roofline"));
  rows.push_back(row(100, 7, "memory-bound"));
  const Calibration c = fitCalibration(rows, g, TimeWindow{0, 1});
  EXPECT_EQ(c.floorSamples, 21u);
  EXPECT_DOUBLE_EQ(c.kernelFloorUs, 5);
  EXPECT_EQ(c.bandwidthSamples, 20u);
  EXPECT_DOUBLE_EQ(c.dramEfficiency, 0.4);
  const GpuSpec cal = calibrated(g, c);
  EXPECT_DOUBLE_EQ(cal.kernelFloorUs, 5);
  EXPECT_DOUBLE_EQ(cal.dramGBs, 800);

  // Too few samples: the datasheet stays.
  rows.resize(19);
  const Calibration few = fitCalibration(rows, g, TimeWindow{0, 1});
  EXPECT_EQ(few.floorSamples, 0u);
  EXPECT_DOUBLE_EQ(few.kernelFloorUs, 2);
  EXPECT_DOUBLE_EQ(few.dramEfficiency, 1);
}

// recsys: most of its modelled ops are tiny kernels the datasheet floor (2 µs) puts at
// half their time. Fitted on iteration 0, the floor is what they measure, and the
// other four iterations' errors fall far below the uncalibrated ones.
TEST(Calibration, OnThePublicRecommendationTrace) {
  const auto path = test::sharedTrace("recsys_rank0_cuda.json.gz");
  if (!path) GTEST_SKIP() << "../shared/traces not present";
  LoadResult r = loadTraceFile(*path);
  ASSERT_EQ(r.status, LoadStatus::Ok);
  PredictionSetup setup;
  setup.gpu = *builtinGpuSpecs().find("A100-SXM4-80GB");
  const PredictionResult plain = runPrediction(*r.trace, setup);
  setup.calibrate = true;
  const PredictionResult cal = runPrediction(*r.trace, setup);
  ASSERT_TRUE(cal.calibration);
  EXPECT_GE(cal.calibration->floorSamples, kMinCalibrationSamples);
  EXPECT_GT(cal.calibration->kernelFloorUs, 3.0);
  EXPECT_LT(cal.calibration->kernelFloorUs, 6.0);
  EXPECT_EQ(cal.calibration->fittedOn.start, r.trace->iterations[0].start);
  // Out of sample: the first iteration's ops are not in the figures.
  EXPECT_LT(cal.opError.count, plain.opError.count);
  EXPECT_LT(cal.opError.gmaePct, plain.opError.gmaePct / 4) << plain.opError.gmaePct << " -> " << cal.opError.gmaePct;
  EXPECT_LT(cal.iterationErrorPctMean, 10.0);
}

TEST(Calibration, NeedsTwoIterations) {
  const std::string sample = OPSCOPE_SOURCE_DIR "/resources/sample/sample.pt.trace.json.gz";
  LoadResult r = loadTraceFile(sample);
  ASSERT_EQ(r.status, LoadStatus::Ok);
  r.trace->iterations.resize(1);
  PredictionSetup setup;
  setup.gpu = builtinGpuSpecs().gpus.front();
  setup.calibrate = true;
  const PredictionResult p = runPrediction(*r.trace, setup);
  EXPECT_FALSE(p.calibration);
  EXPECT_NE(p.calibrationNote.find("two iterations"), std::string::npos);
}

}  // namespace
}  // namespace opscope
