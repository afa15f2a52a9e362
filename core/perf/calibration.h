#pragma once
// Calibrating a GPU preset to the trace: the datasheet's 2 µs kernel floor and peak DRAM
// bandwidth describe no real kernel, so the floor and the achieved fraction of the
// bandwidth are learned from the memory-bound ops of one iteration and applied to the
// others, whose errors are then out of sample.
//
//   floor       median measured GPU time of the ops with one GPU event whose datasheet
//               prediction sits at the floor (their bytes are too few to matter)
//   efficiency  median of predicted / measured over the memory-bound ops whose
//               datasheet prediction is at least 4× the floor (bandwidth-bound), at
//               most 1: the achieved share of the datasheet bandwidth
//   per model   then, with that floor and bandwidth, for each other model (convolution
//               roofline (tf32), gemm roofline, memory-bound (batch norm), collective
//               all_reduce, ...): its achieved share of the datasheet, sum of predicted
//               over sum of measured time of its ops (the long ones decide the
//               iteration), at most 1. cuDNN's TF32 convolutions on an H100 run at about
//               a third of the roofline, its batch norm at half the DRAM bandwidth.
//
// Fitted on every op a model prices, sub-ops included (the convolution_backward under
// each ConvolutionBackward0), not only the top-level rows.
//
// Sampled-out ops (measured at most kSampledOutUs) never count. A statistic with fewer
// than kMinCalibrationSamples samples keeps the datasheet value (one odd op must not
// set every kernel's floor: the bundled sample has a single 51 µs op at the floor);
// floorSamples / bandwidthSamples then say 0. The
// learned values carry over to a what-if GPU: its own datasheet bandwidth times the
// same efficiency, the same floor.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "hierarchy/iterations.h"
#include "model/trace.h"
#include "perf/gpu_spec.h"
#include "perf/op_models.h"

namespace opscope {

inline constexpr size_t kMinCalibrationSamples = 20;

struct Calibration {
  double kernelFloorUs = 0;   // learned (or the preset's)
  double dramEfficiency = 1;  // achieved / datasheet DRAM bandwidth, in (0, 1]
  size_t floorSamples = 0, bandwidthSamples = 0;
  // Model name -> achieved share of its datasheet prediction, in (0, 1], and the ops
  // it was fitted on; models with fewer than kMinCalibrationSamples ops are absent.
  std::map<std::string, double> modelEfficiency;
  std::map<std::string, size_t> modelSamples;
  TimeWindow fittedOn;  // the iteration the values come from
};

// Floor and bandwidth from ops predicted with the preset (predictOps' leaves over fittedOn).
Calibration fitCalibration(const std::vector<OpRow>& rows, const GpuSpec& preset, TimeWindow fittedOn);
// The per-model shares, from the same ops predicted with calibrated(preset, c).
void fitModelEfficiencies(const std::vector<OpRow>& rows, const GpuSpec& calibratedSpec, Calibration& c);

// The preset with the learned floor and bandwidth (OpModels applies the per-model shares).
GpuSpec calibrated(GpuSpec preset, const Calibration& c);

}  // namespace opscope
