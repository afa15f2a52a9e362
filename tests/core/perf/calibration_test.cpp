// Calibrating a preset to the trace: statistics known by construction, and the public
// recommendation-model trace, fitted on its first iteration and checked on the others.
#include "perf/calibration.h"

#include <gtest/gtest.h>

#include <cmath>

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

TEST(Calibration, EachModelsShareOfItsDatasheetPrediction) {
  GpuSpec g;
  g.kernelFloorUs = 2;
  g.dramGBs = 2000;
  std::vector<OpRow> rows;
  // 20 convolutions predicted 10 µs taking 25, 10 predicted 20 taking 40: 400 of 900 µs.
  for (int i = 0; i < 20; ++i) rows.push_back(row(25, 10, "convolution roofline (tf32)"));
  for (int i = 0; i < 10; ++i) rows.push_back(row(40, 20, "convolution roofline (tf32)"));
  // Not counted: under 4x the floor, sampled out, plain memory-bound (the DRAM share
  // covers it), sums of sub-ops (their parts are counted themselves).
  rows.push_back(row(100, 7, "convolution roofline (tf32)"));
  rows.push_back(row(1, 10, "convolution roofline (tf32)"));
  for (int i = 0; i < 25; ++i) rows.push_back(row(30, 10, "memory-bound"));
  for (int i = 0; i < 25; ++i) rows.push_back(row(30, 10, "sum of sub-ops"));
  // 19 batch norms: too few, the datasheet stays; 20 GEMMs slower than measured: at most 1.
  for (int i = 0; i < 19; ++i) rows.push_back(row(30, 10, "memory-bound (batch norm)"));
  for (int i = 0; i < 20; ++i) rows.push_back(row(10, 20, "gemm roofline"));
  Calibration c;
  fitModelEfficiencies(rows, g, c);
  ASSERT_EQ(c.modelEfficiency.size(), 2u);
  EXPECT_DOUBLE_EQ(c.modelEfficiency.at("convolution roofline (tf32)"), 400.0 / 900.0);
  EXPECT_EQ(c.modelSamples.at("convolution roofline (tf32)"), 30u);
  EXPECT_DOUBLE_EQ(c.modelEfficiency.at("gemm roofline"), 1.0);

  // OpModels divides that model's predictions by the share, never below the floor.
  OpModels models(*builtinGpuSpecs().find("H100-SXM"));
  OpShapes mm;
  mm.dimsText = "x";
  mm.inputs = {{{4096, 4096}}, {{4096, 4096}}};
  mm.types = {DType::BF16, DType::BF16};
  const double datasheet = models.own("aten::mm", mm)->us;
  models.setModelEfficiency({{"gemm roofline", 0.5}});
  EXPECT_NEAR(models.own("aten::mm", mm)->us, 2 * datasheet, 1e-9);
  mm.inputs = {{{1, 1}}, {{1, 1}}};  // at the floor: stays there
  EXPECT_DOUBLE_EQ(models.own("aten::mm", mm)->us, models.gpu().kernelFloorUs);
}

// ResNet-50 on an H100 (PyTorch 2.11, tests/data/pytorch_h100): the convolution, batch
// norm and pooling models price 99 % of its GPU time at the datasheet's peaks, which no
// cuDNN kernel reaches (every iteration predicted too fast). Fitted on the first
// iteration, each of the other two is within 10 %; the convolutions' share is what
// cuDNN's TF32 kernels achieve, well under the peak. A what-if GPU carries the main
// GPU's calibration instead of refitting it to times measured on another GPU. Rooflines
// only (--rooflines): the H100's built-in convolution table is checked in
// conv_microbench_test.cpp.
TEST(Calibration, ResNet50OnAnH100OutOfSampleAndCarriedToAWhatIfGpu) {
  LoadResult r = loadTraceFile(OPSCOPE_SOURCE_DIR "/tests/data/pytorch_h100/h100_resnet50_train.pt.trace.json.gz");
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  PredictionSetup setup;
  setup.gpu = *builtinGpuSpecs().find("H100-SXM");
  setup.builtinMicrobench = false;
  const PredictionResult plain = runPrediction(*r.trace, setup);
  EXPECT_GE(plain.coverage, 0.9);
  ASSERT_EQ(plain.iterations.size(), 3u);
  for (const IterationPrediction& it : plain.iterations) EXPECT_LT(it.predictedUs, it.measuredUs);
  setup.calibrate = true;
  const PredictionResult cal = runPrediction(*r.trace, setup);
  ASSERT_TRUE(cal.calibration);
  ASSERT_TRUE(cal.calibration->modelEfficiency.contains("convolution roofline (tf32)"));
  // The share of the convolution roofline cuDNN's kernels reach: well below 1 (their
  // tiles and pipelines, which no datasheet gives), above what the bare roofline left
  // before layout transposes, sm80-on-Hopper and grids were priced (0.2-0.6 then).
  const double conv = cal.calibration->modelEfficiency.at("convolution roofline (tf32)");
  EXPECT_GT(conv, 0.5);
  EXPECT_LT(conv, 0.8);
  ASSERT_EQ(cal.iterations.size(), 3u);
  for (size_t i = 1; i < 3; ++i) EXPECT_LT(std::abs(cal.iterations[i].errorPct()), 10.0) << i;
  EXPECT_LT(cal.opError.gmaePct, plain.opError.gmaePct);

  PredictionSetup whatIf = setup;
  whatIf.gpu = *builtinGpuSpecs().find("V100");
  whatIf.calibrate = false;
  whatIf.carriedCalibration = cal.calibration;
  const PredictionResult v100 = runPrediction(*r.trace, whatIf);
  ASSERT_TRUE(v100.calibration);
  EXPECT_EQ(v100.calibration->modelEfficiency, cal.calibration->modelEfficiency);
  // V100 has no TF32: its convolutions run at the FP32 peak, 12.2 against 495 TFLOP/s.
  EXPECT_GT(v100.iterations[1].predictedUs, 1.5 * cal.iterations[1].predictedUs);
}

// A datasheet run carries its calibrated companion: the same prediction as --calibrate
// (fitted on the first iteration, errors over the others), and on a what-if GPU the
// shares fitted on the trace's own GPU, never the what-if's models fitted to times
// another GPU measured. Rooflines only, where the datasheet alone is > 10 % off.
TEST(Calibration, EveryDatasheetRunCarriesItsOutOfSampleCalibratedCompanion) {
  LoadResult r = loadTraceFile(OPSCOPE_SOURCE_DIR "/tests/data/pytorch_h100/h100_resnet50_train.pt.trace.json.gz");
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const GpuSpec h100 = *builtinGpuSpecs().find("H100-SXM");
  PredictionSetup setup;
  setup.gpu = h100;
  setup.builtinMicrobench = false;
  setup.withCalibratedRun = true;
  const PredictionResult plain = runPrediction(*r.trace, setup);
  EXPECT_FALSE(plain.calibration);
  ASSERT_TRUE(plain.calibratedRun);
  setup.withCalibratedRun = false;
  setup.calibrate = true;
  const PredictionResult cal = runPrediction(*r.trace, setup);
  ASSERT_TRUE(cal.calibration && cal.iterationErrorPctMeanOutOfSample);
  const CalibratedRun& cr = *plain.calibratedRun;
  EXPECT_FALSE(cr.carried);
  EXPECT_EQ(cr.calibration.modelEfficiency, cal.calibration->modelEfficiency);
  ASSERT_EQ(cr.iterations.size(), cal.iterations.size());
  for (size_t i = 0; i < cr.iterations.size(); ++i)
    EXPECT_DOUBLE_EQ(cr.iterations[i].predictedUs, cal.iterations[i].predictedUs);
  // Out of sample means iterations 1 and 2 only, by hand.
  const double outside = (std::abs(cal.iterations[1].errorPct()) + std::abs(cal.iterations[2].errorPct())) / 2;
  ASSERT_TRUE(cr.errorPctMeanOutOfSample);
  EXPECT_NEAR(*cr.errorPctMeanOutOfSample, outside, 1e-9);
  EXPECT_NEAR(*cal.iterationErrorPctMeanOutOfSample, outside, 1e-9);
  EXPECT_LT(*cr.errorPctMeanOutOfSample, 10.0);
  EXPECT_GT(plain.iterationErrorPctMean, 10.0);  // what the datasheet alone gives: the reason to show both
  EXPECT_EQ(cr.opError.count, cal.opError.count);
  EXPECT_LT(cr.opError.count, plain.opError.count);  // the fitting iteration's ops are left out

  PredictionSetup whatIf;
  whatIf.builtinMicrobench = false;
  whatIf.gpu = *builtinGpuSpecs().find("V100");
  whatIf.withCalibratedRun = true;
  whatIf.calibrationGpu = h100;
  const PredictionResult v100 = runPrediction(*r.trace, whatIf);
  ASSERT_TRUE(v100.calibratedRun);
  EXPECT_TRUE(v100.calibratedRun->carried);
  EXPECT_EQ(v100.calibratedRun->calibration.modelEfficiency, cal.calibration->modelEfficiency);
  // Fitted on the V100's own models instead, the shares would differ (its FP32
  // convolutions priced against H100 times): the carried ones are the H100's.
  whatIf.withCalibratedRun = false;
  whatIf.calibrationGpu.reset();
  whatIf.calibrate = true;
  const PredictionResult refitted = runPrediction(*r.trace, whatIf);
  ASSERT_TRUE(refitted.calibration);
  EXPECT_NE(refitted.calibration->modelEfficiency, cal.calibration->modelEfficiency);
  EXPECT_GT(v100.calibratedRun->iterations[1].predictedUs, refitted.iterations[1].predictedUs);
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
  setup.calibrate = false;
  setup.withCalibratedRun = true;
  EXPECT_FALSE(runPrediction(*r.trace, setup).calibratedRun);  // nothing to check it on
}

}  // namespace
}  // namespace opscope
