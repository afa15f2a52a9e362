#include "analysis/summary.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "model/interval_union.h"

namespace opscope {

std::vector<uint32_t> topLevelOps(const SliceColumns& s) {
  std::vector<uint32_t> out;
  // Top-level ops still open at the current start; more than one only with crossovers.
  std::vector<uint32_t> active;
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (!isOpKind(s.kind[i])) continue;
    const TimeNs start = s.start[i], end = s.end(i);
    // Closed-interval containment: an op ending exactly where a zero-length op sits still holds it.
    std::erase_if(active, [&](uint32_t a) { return s.end(a) < start; });
    const bool contained =
        std::any_of(active.begin(), active.end(), [&](uint32_t a) { return s.start[a] <= start && end <= s.end(a); });
    if (contained) continue;
    out.push_back(i);
    active.push_back(i);
  }
  return out;
}

namespace {

// Whether a slice starting at t counts, given the summary's window.
struct Window {
  std::optional<TimeWindow> w;
  bool operator()(TimeNs t) const { return !w || (t >= w->start && t < w->end); }
};

void countKinds(const Trace& trace, Summary& sum, const Window& in) {
  for (const Track& t : trace.tracks) {
    for (size_t i = 0; i < t.slices.size(); ++i) {
      if (!in(t.slices.start[i])) continue;
      switch (t.slices.kind[i]) {
        case SliceKind::CpuOp:
          ++sum.cpuOps;
          break;
        case SliceKind::Runtime:
        case SliceKind::Driver:
          ++sum.launches;
          break;
        case SliceKind::Kernel:
          ++sum.kernels;
          break;
        case SliceKind::Memcpy:
          ++sum.memcpys;
          break;
        case SliceKind::Memset:
          ++sum.memsets;
          break;
        default:
          break;
      }
    }
  }
  sum.gpuEvents = sum.kernels + sum.memcpys + sum.memsets;
  for (const auto& link : trace.links.gpuToLaunch) sum.linkedGpuEvents += in(trace.start(EventRef::unpack(link.first)));
}

void streams(const Trace& trace, Summary& sum, const Window& in) {
  std::vector<std::pair<TimeNs, TimeNs>> iv;
  for (uint32_t ti = 0; ti < trace.tracks.size(); ++ti) {
    const Track& t = trace.tracks[ti];
    const SliceColumns& s = t.slices;
    iv.clear();
    for (uint32_t i = 0; i < s.size(); ++i)
      if (isGpuKind(s.kind[i]) && in(s.start[i])) iv.emplace_back(s.start[i], s.end(i));
    if (iv.empty()) continue;
    StreamSummary row;
    row.pid = trace.processes[t.process].pid;
    row.tid = t.tid;
    row.pidText = trace.rawIdText(row.pid);
    row.tidText = trace.rawIdText(row.tid);
    row.label = trace.trackLabel(ti);
    row.events = iv.size();
    row.first = iv.front().first;
    row.last = 0;
    for (const auto& [a, b] : iv) row.last = std::max(row.last, b);
    row.busy = unionLength(iv);
    sum.streams.push_back(row);
  }
  std::stable_sort(sum.streams.begin(), sum.streams.end(),
                   [](const StreamSummary& a, const StreamSummary& b) { return a.busy > b.busy; });
  sum.gpuStreams = sum.streams.size();
}

void topKernels(const Trace& trace, Summary& sum, size_t topN, const Window& in) {
  std::unordered_map<StringId, KernelTotal> byName;
  for (const Track& t : trace.tracks) {
    const SliceColumns& s = t.slices;
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (s.kind[i] != SliceKind::Kernel || !in(s.start[i])) continue;
      KernelTotal& k = byName[s.name[i]];
      ++k.count;
      addTo(k.total, s.dur[i]);
    }
  }
  for (auto& [id, k] : byName) {
    k.name = std::string(trace.str(id));
    sum.topKernels.push_back(std::move(k));
  }
  std::sort(sum.topKernels.begin(), sum.topKernels.end(), [](const KernelTotal& a, const KernelTotal& b) {
    return a.total != b.total ? a.total > b.total : a.name < b.name;
  });
  if (sum.topKernels.size() > topN) sum.topKernels.resize(topN);
}

void topOps(const Trace& trace, Summary& sum, size_t topN, const Window& in) {
  // GPU time of one launch: its GPU events are adjacent in the sorted launchToGpu.
  const auto& l2g = trace.links.launchToGpu;
  auto gpuOfLaunch = [&](uint64_t launch) -> TimeNs {
    auto it = std::lower_bound(l2g.begin(), l2g.end(), launch,
                               [](const LaunchLinks::Pair& p, uint64_t k) { return p.first < k; });
    TimeNs total = 0;
    for (; it != l2g.end() && it->first == launch; ++it) addTo(total, trace.dur(EventRef::unpack(it->second)));
    return total;
  };

  std::unordered_map<StringId, OpTotal> byName;
  for (uint32_t ti = 0; ti < trace.tracks.size(); ++ti) {
    const SliceColumns& s = trace.tracks[ti].slices;
    const std::vector<uint32_t> tops = topLevelOps(s);
    if (tops.empty()) continue;
    std::vector<TimeNs> gpu(tops.size(), 0);
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (!isLaunchKind(s.kind[i]) || s.correlation[i] == kNoId) continue;
      const TimeNs launchGpu = gpuOfLaunch(EventRef{ti, i}.packed());
      if (launchGpu == 0) continue;
      // Last top-level op starting at or before the launch; earlier ones only overlap
      // it through crossovers, so look back while they could still contain it.
      auto pos =
          std::upper_bound(tops.begin(), tops.end(), s.start[i], [&](TimeNs t, uint32_t r) { return t < s.start[r]; });
      for (auto k = pos; k != tops.begin();) {
        --k;
        if (s.start[*k] <= s.start[i] && s.end(i) <= s.end(*k)) {
          gpu[static_cast<size_t>(k - tops.begin())] += launchGpu;
          break;
        }
        if (pos - k > 8) break;
      }
    }
    for (size_t k = 0; k < tops.size(); ++k) {
      if (!in(s.start[tops[k]])) continue;
      OpTotal& o = byName[s.name[tops[k]]];
      ++o.count;
      addTo(o.cpu, s.dur[tops[k]]);
      o.gpu += gpu[k];
    }
  }
  for (auto& [id, o] : byName) {
    o.name = std::string(trace.str(id));
    sum.topOps.push_back(std::move(o));
  }
  std::sort(sum.topOps.begin(), sum.topOps.end(), [](const OpTotal& a, const OpTotal& b) {
    if (a.gpu != b.gpu) return a.gpu > b.gpu;
    if (a.cpu != b.cpu) return a.cpu > b.cpu;
    return a.name < b.name;
  });
  if (sum.topOps.size() > topN) sum.topOps.resize(topN);
}

}  // namespace

Summary summarize(const Trace& trace, const SummaryOptions& options) {
  Summary sum;
  const Window in{options.window};
  const size_t topN = options.topN;
  sum.window = options.window;
  sum.format = trace.meta.format;
  sum.inputBytes = trace.inputBytes;
  sum.jsonBytes = trace.jsonBytes;
  sum.eventsRead = trace.eventsRead;
  sum.slices = trace.sliceCount();
  sum.processes = trace.processes.size();
  for (const Track& t : trace.tracks) sum.threads += t.kind == TrackKind::Thread;
  sum.counterSeries = trace.counters.size();
  sum.flows = trace.flows.size();
  sum.instants = trace.instants.size();
  sum.start = options.window ? options.window->start : trace.minTs;
  sum.wall = options.window ? options.window->end - options.window->start : trace.maxTs - trace.minTs;
  sum.rank = trace.meta.rank;
  sum.deviceKind = trace.meta.deviceKind;
  sum.worldSize = trace.meta.worldSize;
  if (!trace.meta.devices.empty()) sum.deviceName = trace.meta.devices[0].name;
  countKinds(trace, sum, in);
  for (const Iteration& it : trace.iterations)
    if (in(it.start)) sum.iterations.push_back(it);
  if (!options.iterationMarker.empty()) {
    sum.iterationMarker = options.iterationMarker;
    for (const Iteration& it : findMarkerIterations(trace, options.iterationMarker))
      if (in(it.start)) sum.markerIterations.push_back(it);
  }
  if (!sum.iterations.empty()) {
    long double total = 0;
    for (const Iteration& it : sum.iterations) total += it.end - it.start;
    sum.iterationMeanNs = static_cast<double>(total / sum.iterations.size());
  }
  sum.iterationWallEnds = iterationWallEnds(trace, sum.iterations);
  streams(trace, sum, in);
  topKernels(trace, sum, topN, in);
  topOps(trace, sum, topN, in);
  sum.warnings = trace.diagnostics.entries();
  return sum;
}

}  // namespace opscope
