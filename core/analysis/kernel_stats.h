#pragma once
// Kernel statistics (as the PlaidML and CK notebooks tabulate them): per GPU event name
// its count, total, mean, min, max and standard deviation, its share of all GPU time and
// its kernel class; and the totals per class.
#include <optional>
#include <string>
#include <vector>

#include "analysis/kernel_classes.h"
#include "hierarchy/iterations.h"
#include "model/trace.h"

namespace opscope {

struct KernelStat {
  StringId name = 0;
  SliceKind kind = SliceKind::Kernel;  // Kernel, Memcpy or Memset
  int32_t cls = -1;                    // index into KernelStats::classes
  uint64_t count = 0;
  TimeNs total = 0, min = 0, max = 0;
  double mean = 0;
  double stddev = 0;  // population standard deviation (n, not n - 1): a trace is the whole set
  double share = 0;   // total / KernelStats::gpuTotal
};

struct ClassTotal {
  std::string name;
  uint64_t count = 0;
  TimeNs total = 0;
  double share = 0;
};

struct KernelStats {
  std::vector<KernelStat> kernels;  // total descending, then name id
  std::vector<std::string> classes;
  std::vector<ClassTotal> classTotals;  // total descending
  TimeNs gpuTotal = 0;                  // sum of all GPU event durations (not their union)
  uint64_t gpuEvents = 0;
};

// GPU events (kernel, memcpy, memset) starting inside window when one is given.
KernelStats kernelStatistics(const Trace& trace, const KernelClassifier& classifier,
                             std::optional<TimeWindow> window = std::nullopt);

}  // namespace opscope
