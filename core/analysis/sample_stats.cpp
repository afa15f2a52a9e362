#include "analysis/sample_stats.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace opscope {

namespace {
double quantile(const std::vector<double>& sorted, double q) {
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}
}  // namespace

SampleStats describe(std::span<const double> values) {
  SampleStats s;
  if (values.empty()) return s;
  std::vector<double> v(values.begin(), values.end());
  std::sort(v.begin(), v.end());
  s.count = v.size();
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  double sq = 0;
  for (double x : v) sq += (x - s.mean) * (x - s.mean);
  s.stddev = std::sqrt(sq / static_cast<double>(v.size()));
  s.median = quantile(v, 0.5);
  s.p90 = quantile(v, 0.9);
  s.min = v.front();
  s.max = v.back();
  return s;
}

}  // namespace opscope
