#pragma once
// Density of the whole trace for the overview strip above the ruler: per time bin, the
// share of the bin covered by top-level CPU slices and by GPU events (averaged over
// the tracks of each kind). Computed once per trace, O(slices + bins).
#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace opscope::ui {

struct OverviewDensity {
  TimeNs start = 0, end = 0;
  std::vector<float> cpu;  // [0, 1] per bin
  std::vector<float> gpu;  // [0, 1] per bin
  size_t bins() const { return cpu.size(); }
};

OverviewDensity computeDensity(const Trace& trace, size_t bins = 1024);

}  // namespace opscope::ui
