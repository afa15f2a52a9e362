#pragma once
// Summary figures of a sample (overhead values, errors): the legend of a histogram.
#include <cstdint>
#include <span>

namespace opscope {

struct SampleStats {
  uint64_t count = 0;
  double mean = 0;
  double stddev = 0;  // population (numpy's default, as the notebooks report it)
  double median = 0;
  double p90 = 0;  // linear interpolation between closest ranks (numpy's default)
  double min = 0, max = 0;
};

// All zero for an empty sample.
SampleStats describe(std::span<const double> values);

}  // namespace opscope
