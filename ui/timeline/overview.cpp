#include "timeline/overview.h"

#include <algorithm>

namespace opscope::ui {

OverviewDensity computeDensity(const Trace& trace, size_t bins) {
  OverviewDensity d;
  d.start = trace.minTs;
  d.end = std::max(trace.maxTs, trace.minTs + 1);
  d.cpu.assign(bins, 0);
  d.gpu.assign(bins, 0);
  if (bins == 0) return d;
  const double binNs = static_cast<double>(d.end - d.start) / static_cast<double>(bins);
  std::vector<double> cpu(bins, 0), gpu(bins, 0);
  size_t cpuTracks = 0, gpuTracks = 0;
  // Adds the part of [a, b) that falls in each bin.
  auto cover = [&](std::vector<double>& acc, TimeNs a, TimeNs b) {
    const double fa = static_cast<double>(a - d.start) / binNs, fb = static_cast<double>(b - d.start) / binNs;
    const size_t ia = static_cast<size_t>(std::clamp(fa, 0.0, static_cast<double>(bins - 1)));
    const size_t ib = static_cast<size_t>(std::clamp(fb, 0.0, static_cast<double>(bins - 1)));
    if (ia == ib) {
      acc[ia] += std::max(0.0, fb - fa);
      return;
    }
    acc[ia] += static_cast<double>(ia + 1) - fa;
    for (size_t k = ia + 1; k < ib; ++k) acc[k] += 1;
    acc[ib] += std::max(0.0, fb - static_cast<double>(ib));
  };
  for (const Track& t : trace.tracks) {
    const SliceColumns& s = t.slices;
    if (s.size() == 0) continue;
    if (t.kind == TrackKind::GpuStream) {
      ++gpuTracks;
      // Lane 0 only: the union would need a sweep, and sub-lanes are rare and short.
      for (size_t i = 0; i < s.size(); ++i)
        if (s.depth[i] == 0) cover(gpu, s.start[i], s.end(i));
    } else if (t.kind == TrackKind::Thread) {
      ++cpuTracks;
      for (size_t i = 0; i < s.size(); ++i)
        if (s.parent[i] < 0) cover(cpu, s.start[i], s.end(i));
    }
  }
  for (size_t k = 0; k < bins; ++k) {
    d.cpu[k] = cpuTracks ? static_cast<float>(std::min(1.0, cpu[k] / static_cast<double>(cpuTracks))) : 0.f;
    d.gpu[k] = gpuTracks ? static_cast<float>(std::min(1.0, gpu[k] / static_cast<double>(gpuTracks))) : 0.f;
  }
  return d;
}

}  // namespace opscope::ui
