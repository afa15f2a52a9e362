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
//
// Sampled-out ops (measured at most kSampledOutUs) never count. A statistic with fewer
// than kMinCalibrationSamples samples keeps the datasheet value (one odd op must not
// set every kernel's floor: the bundled sample has a single 51 µs op at the floor);
// floorSamples / bandwidthSamples then say 0. The
// learned values carry over to a what-if GPU: its own datasheet bandwidth times the
// same efficiency, the same floor.
#include <cstddef>
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
  TimeWindow fittedOn;        // the iteration the values come from
};

// From rows predicted with the preset (predictOps over fittedOn).
Calibration fitCalibration(const std::vector<OpRow>& rows, const GpuSpec& preset, TimeWindow fittedOn);

// The preset with the learned floor and bandwidth.
GpuSpec calibrated(GpuSpec preset, const Calibration& c);

}  // namespace opscope
