// The spans a critical path can be computed over: the whole trace, one iteration (its host
// side to its GPU drain), or an annotation.
#include <algorithm>

#include "analysis/critical_path.h"
#include "hierarchy/iterations.h"
#include "hierarchy/queries.h"

namespace opscope {

std::optional<CriticalPathWindow> criticalPathWindowOfTrace(const Trace& trace) {
  if (trace.sliceCount() == 0) return std::nullopt;
  CriticalPathWindow w;
  w.kind = CriticalPathWindow::Kind::Trace;
  w.start = trace.maxTs;
  w.end = trace.minTs;
  for (const Track& tr : trace.tracks)
    for (size_t i = 0; i < tr.slices.size(); ++i) {
      w.start = std::min(w.start, tr.slices.start[i]);
      w.end = std::max(w.end, tr.slices.end(i));
    }
  w.wallEnd = w.end;
  w.label = "trace";
  return w;
}

std::optional<CriticalPathWindow> criticalPathWindowOfIteration(const Trace& trace, size_t index) {
  if (index >= trace.iterations.size()) return std::nullopt;
  const Iteration& it = trace.iterations[index];
  CriticalPathWindow w;
  w.kind = CriticalPathWindow::Kind::Iteration;
  w.start = it.start;
  w.end = it.end;
  w.wallEnd = iterationWallEnds(trace, {it}).front();
  w.iteration = static_cast<int64_t>(index);
  w.label = it.ref != kNoRef ? std::string(trace.name(EventRef::unpack(it.ref))) : "iteration " + std::to_string(index);
  return w;
}

std::optional<CriticalPathWindow> criticalPathWindowOfAnnotation(const Trace& trace, std::string_view name,
                                                                 size_t instance) {
  // Host slices only, as HTA counts instances: the GPU-side copies Kineto writes of each
  // annotation (gpu_user_annotation, on device streams) made instance 1 the GPU copy of
  // instance 0.
  std::vector<std::pair<TimeNs, EventRef>> found;
  for (uint32_t ti = 0; ti < trace.tracks.size(); ++ti) {
    if (trace.tracks[ti].kind != TrackKind::Thread) continue;
    const SliceColumns& s = trace.tracks[ti].slices;
    for (size_t i = 0; i < s.size(); ++i)
      if (s.kind[i] != SliceKind::GpuUserAnnotation && trace.str(s.name[i]).find(name) != std::string_view::npos)
        found.push_back({s.start[i], EventRef{ti, static_cast<uint32_t>(i)}});
  }
  if (instance >= found.size()) return std::nullopt;
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  const EventRef r = found[instance].second;
  CriticalPathWindow w;
  w.kind = CriticalPathWindow::Kind::Annotation;
  w.start = trace.start(r);
  w.end = trace.end(r);
  w.wallEnd = w.end;
  w.label = std::string(trace.name(r));
  return w;
}

}  // namespace opscope
