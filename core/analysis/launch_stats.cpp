#include "analysis/launch_stats.h"

#include <algorithm>
#include <unordered_map>

namespace opscope {

LaunchStatsReport launchStats(const Trace& trace, std::optional<TimeWindow> window, const LaunchStatsOptions& options) {
  LaunchStatsReport r;
  r.options = options;
  for (const LaunchLinks::Pair& p : trace.links.launchToGpu) {
    const EventRef launch = EventRef::unpack(p.first), gpu = EventRef::unpack(p.second);
    if (!isLaunchKind(trace.kind(launch)) || !isGpuKind(trace.kind(gpu))) continue;
    const TimeNs start = trace.start(launch);
    if (window && (start < window->start || start >= window->end)) continue;
    LaunchPair x;
    x.launch = launch;
    x.gpu = gpu;
    x.cpu = trace.dur(launch);
    x.gpuDur = trace.dur(gpu);
    x.delay = trace.start(gpu) - start;
    x.delayAfterCall = std::max<TimeNs>(0, trace.start(gpu) - trace.end(launch));
    // HTA's classes (cuda_kernel_analysis.py, visualize_cuda_launch_kernel_info).
    x.runtimeOutlier = x.cpu > options.runtimeCutoff;
    x.shortGpu = !x.runtimeOutlier && x.gpuDur < x.cpu;
    x.delayOutlier = x.delayAfterCall > options.delayCutoff;
    r.pairs.push_back(x);
  }
  std::stable_sort(r.pairs.begin(), r.pairs.end(), [&](const LaunchPair& a, const LaunchPair& b) {
    return trace.start(a.launch) < trace.start(b.launch);
  });
  std::vector<double> cpu, gpu, delay, after;
  std::unordered_map<StringId, size_t> index;
  for (const LaunchPair& x : r.pairs) {
    cpu.push_back(static_cast<double>(x.cpu) / 1000);
    gpu.push_back(static_cast<double>(x.gpuDur) / 1000);
    delay.push_back(static_cast<double>(x.delay) / 1000);
    after.push_back(static_cast<double>(x.delayAfterCall) / 1000);
    r.shortGpu += x.shortGpu;
    r.runtimeOutliers += x.runtimeOutlier;
    r.delayOutliers += x.delayOutlier;
    const StringId name = trace.nameId(x.gpu);
    auto [it, fresh] = index.try_emplace(name, r.byName.size());
    if (fresh) r.byName.push_back({std::string(trace.str(name))});
    LaunchNameStats& n = r.byName[it->second];
    ++n.count;
    addTo(n.cpuTotal, x.cpu);
    addTo(n.gpuTotal, x.gpuDur);
    addTo(n.delayTotal, x.delay);
    addTo(n.delayAfterCallTotal, x.delayAfterCall);
    n.delayMax = std::max(n.delayMax, x.delay);
    n.shortGpu += x.shortGpu;
    n.runtimeOutliers += x.runtimeOutlier;
    n.delayOutliers += x.delayOutlier;
  }
  r.cpuUs = describe(cpu);
  r.gpuUs = describe(gpu);
  r.delayUs = describe(delay);
  r.delayAfterCallUs = describe(after);
  std::sort(r.byName.begin(), r.byName.end(), [](const LaunchNameStats& a, const LaunchNameStats& b) {
    return a.delayTotal != b.delayTotal ? a.delayTotal > b.delayTotal : a.name < b.name;
  });
  return r;
}

}  // namespace opscope
