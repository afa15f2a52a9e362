#include "analysis/kernel_stats.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace opscope {

namespace {

// Welford's running mean and variance: one pass, no catastrophic cancellation for
// durations of 1e9 ns and more.
struct Running {
  uint64_t n = 0;
  double mean = 0, m2 = 0;
  TimeNs total = 0, min = 0, max = 0;
  void add(TimeNs x) {
    if (n == 0) min = max = x;
    min = std::min(min, x);
    max = std::max(max, x);
    addTo(total, x);
    ++n;
    const double d = static_cast<double>(x) - mean;
    mean += d / static_cast<double>(n);
    m2 += d * (static_cast<double>(x) - mean);
  }
};

}  // namespace

KernelStats kernelStatistics(const Trace& trace, const KernelClassifier& classifier, std::optional<TimeWindow> window) {
  KernelStats out;
  std::vector<int32_t> classOfName;
  out.classes = classifyGpuNames(trace, classifier, classOfName);
  std::unordered_map<uint64_t, Running> byName;  // (kind << 32 | name)
  for (const Track& t : trace.tracks) {
    if (t.kind != TrackKind::GpuStream) continue;
    const SliceColumns& s = t.slices;
    size_t i = window ? s.lowerBound(window->start) : 0;
    const size_t end = window ? s.lowerBound(window->end) : s.size();
    for (; i < end; ++i) {
      if (!isGpuKind(s.kind[i])) continue;
      byName[(static_cast<uint64_t>(s.kind[i]) << 32) | s.name[i]].add(s.dur[i]);
      addTo(out.gpuTotal, s.dur[i]);
      ++out.gpuEvents;
    }
  }
  out.classTotals.resize(out.classes.size());
  for (size_t c = 0; c < out.classes.size(); ++c) out.classTotals[c].name = out.classes[c];
  for (const auto& [key, r] : byName) {
    KernelStat k;
    k.name = static_cast<StringId>(key);
    k.kind = static_cast<SliceKind>(key >> 32);
    k.cls = classOfName[k.name];
    k.count = r.n;
    k.total = r.total;
    k.min = r.min;
    k.max = r.max;
    k.mean = r.mean;
    k.stddev = r.n ? std::sqrt(r.m2 / static_cast<double>(r.n)) : 0;
    k.share = out.gpuTotal ? static_cast<double>(r.total) / static_cast<double>(out.gpuTotal) : 0;
    if (k.cls >= 0) {
      out.classTotals[static_cast<size_t>(k.cls)].count += r.n;
      addTo(out.classTotals[static_cast<size_t>(k.cls)].total, r.total);
    }
    out.kernels.push_back(k);
  }
  std::sort(out.kernels.begin(), out.kernels.end(), [](const KernelStat& a, const KernelStat& b) {
    return a.total != b.total ? a.total > b.total : a.name < b.name;
  });
  for (ClassTotal& c : out.classTotals)
    c.share = out.gpuTotal ? static_cast<double>(c.total) / static_cast<double>(out.gpuTotal) : 0;
  // Classes with events in the window only, by total.
  out.classTotals.erase(
      std::remove_if(out.classTotals.begin(), out.classTotals.end(), [](const ClassTotal& c) { return c.count == 0; }),
      out.classTotals.end());
  std::sort(out.classTotals.begin(), out.classTotals.end(), [](const ClassTotal& a, const ClassTotal& b) {
    return a.total != b.total ? a.total > b.total : a.name < b.name;
  });
  return out;
}

}  // namespace opscope
