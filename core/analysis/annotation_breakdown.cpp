#include "analysis/annotation_breakdown.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace opscope {

AnnotationBreakdown annotationBreakdown(const Trace& trace, std::optional<TimeWindow> window, size_t kernelsPerRow) {
  struct Acc {
    std::vector<double> durs;
    TimeNs total = 0;
    uint64_t gpuEvents = 0;
    TimeNs gpuTime = 0;
    std::unordered_map<StringId, AnnotationKernels> kernels;
  };
  std::map<StringId, Acc> byName;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    if (trace.tracks[t].kind != TrackKind::GpuStream) continue;
    const SliceColumns& s = trace.tracks[t].slices;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s.kind[i] != SliceKind::GpuUserAnnotation) continue;
      if (window && (s.start[i] < window->start || s.start[i] >= window->end)) continue;
      Acc& a = byName[s.name[i]];
      a.durs.push_back(static_cast<double>(s.dur[i]) / 1000);
      addTo(a.total, s.dur[i]);
      // The stream's GPU events starting inside the span (rows are sorted by start).
      const TimeNs end = s.end(i);
      for (size_t k = s.lowerBound(s.start[i]); k < s.size() && s.start[k] < end; ++k) {
        if (!isGpuKind(s.kind[k])) continue;
        ++a.gpuEvents;
        addTo(a.gpuTime, s.dur[k]);
        AnnotationKernels& n = a.kernels[s.name[k]];
        ++n.count;
        addTo(n.time, s.dur[k]);
      }
    }
  }
  AnnotationBreakdown out;
  for (auto& [name, a] : byName) {
    AnnotationRow row;
    row.name = std::string(trace.str(name));
    row.total = a.total;
    row.durUs = describe(a.durs);
    row.gpuEvents = a.gpuEvents;
    row.gpuEventTime = a.gpuTime;
    for (auto& [kname, k] : a.kernels) {
      k.name = std::string(trace.str(kname));
      row.kernels.push_back(std::move(k));
    }
    std::sort(row.kernels.begin(), row.kernels.end(), [](const AnnotationKernels& x, const AnnotationKernels& y) {
      return x.time != y.time ? x.time > y.time : x.name < y.name;
    });
    if (row.kernels.size() > kernelsPerRow) row.kernels.resize(kernelsPerRow);
    out.rows.push_back(std::move(row));
  }
  std::sort(out.rows.begin(), out.rows.end(), [](const AnnotationRow& x, const AnnotationRow& y) {
    return x.total != y.total ? x.total > y.total : x.name < y.name;
  });
  return out;
}

}  // namespace opscope
