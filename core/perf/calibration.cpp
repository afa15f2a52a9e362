#include "perf/calibration.h"

#include <algorithm>

#include "analysis/sample_stats.h"
#include "perf/prediction.h"

namespace opscope {

Calibration fitCalibration(const std::vector<OpRow>& rows, const GpuSpec& preset, TimeWindow fittedOn) {
  Calibration c;
  c.kernelFloorUs = preset.kernelFloorUs;
  c.fittedOn = fittedOn;
  std::vector<double> floors, ratios;
  for (const OpRow& r : rows) {
    if (!r.predictedUs) continue;
    const double measured = static_cast<double>(r.measuredGpu) / 1e3;
    if (measured <= kSampledOutUs) continue;
    const double predicted = *r.predictedUs;
    const bool atFloor = preset.atKernelFloor(predicted);
    if (atFloor && r.gpuEvents == 1) floors.push_back(measured);
    if (r.model == "memory-bound" && predicted >= 4 * preset.kernelFloorUs) ratios.push_back(predicted / measured);
  }
  if (floors.size() >= kMinCalibrationSamples) {
    c.kernelFloorUs = describe(floors).median;
    c.floorSamples = floors.size();
  }
  if (ratios.size() >= kMinCalibrationSamples) {
    c.dramEfficiency = std::clamp(describe(ratios).median, 0.01, 1.0);
    c.bandwidthSamples = ratios.size();
  }
  return c;
}

void fitModelEfficiencies(const std::vector<OpRow>& rows, const GpuSpec& spec, Calibration& c) {
  struct Sums {
    double predicted = 0, measured = 0;
    size_t n = 0;
  };
  std::map<std::string, Sums> byModel;
  for (const OpRow& r : rows) {
    if (!r.predictedUs || r.model == "memory-bound" || r.model == "sum of sub-ops") continue;
    const double measured = static_cast<double>(r.measuredGpu) / 1e3;
    if (measured <= kSampledOutUs || *r.predictedUs < 4 * spec.kernelFloorUs) continue;
    Sums& s = byModel[r.model];
    s.predicted += *r.predictedUs;
    s.measured += measured;
    ++s.n;
  }
  for (const auto& [model, s] : byModel) {
    if (s.n < kMinCalibrationSamples) continue;
    c.modelEfficiency[model] = std::clamp(s.predicted / s.measured, 0.01, 1.0);
    c.modelSamples[model] = s.n;
  }
}

GpuSpec calibrated(GpuSpec g, const Calibration& c) {
  g.kernelFloorUs = c.kernelFloorUs;
  g.dramGBs *= c.dramEfficiency;
  return g;
}

}  // namespace opscope
