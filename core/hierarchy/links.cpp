#include "hierarchy/links.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "model/two_threads.h"

namespace opscope {

void buildLaunchLinks(Trace& trace) {
  LaunchLinks& links = trace.links;
  links = {};
  // (correlation, launch) sorted: 16 bytes a launch, where a hash map costs ~40.
  PodColumn<LaunchLinks::Pair> launches;
  for (uint32_t ti = 0; ti < trace.tracks.size(); ++ti) {
    const SliceColumns& s = trace.tracks[ti].slices;
    for (uint32_t i = 0; i < s.size(); ++i)
      if (isLaunchKind(s.kind[i]) && s.correlation[i] != kNoId)
        launches.push_back({static_cast<uint64_t>(s.correlation[i]), EventRef{ti, i}.packed()});
  }
  // Equal correlations: the earliest launch first (ties by track, row).
  sortOnTwoThreads(launches.begin(), launches.end(), [&](const LaunchLinks::Pair& a, const LaunchLinks::Pair& b) {
    if (a.first != b.first) return a.first < b.first;
    const TimeNs ta = trace.start(EventRef::unpack(a.second)), tb = trace.start(EventRef::unpack(b.second));
    return ta != tb ? ta < tb : a.second < b.second;
  });
  // GPU events without a correlation id (MTIA's command-processor events) are linked by
  // the ac2g flow that ends on them, when its start is a launch.
  std::unordered_map<uint64_t, uint64_t> launchByFlow;
  const StringId launchFlowCat = trace.strings.find("ac2g");
  for (const Flow& f : trace.flows)
    if (f.cat == launchFlowCat && isLaunchKind(trace.kind(EventRef::unpack(f.from))) &&
        isGpuKind(trace.kind(EventRef::unpack(f.to))))
      launchByFlow.emplace(f.to, f.from);
  // Among launches sharing the id, the earliest of the GPU event's own rank where the
  // processes carry ranks (a merged session written to one file), else the earliest.
  auto rankOfTrack = [&](uint32_t track) { return trace.processes[trace.tracks[track].process].rank; };
  auto find = [&](int64_t corr, uint32_t gpuTrack) -> uint64_t {
    const uint64_t key = static_cast<uint64_t>(corr);
    auto it = std::lower_bound(launches.begin(), launches.end(), key,
                               [](const LaunchLinks::Pair& p, uint64_t k) { return p.first < k; });
    if (it == launches.end() || it->first != key) return kNoRef;
    const int64_t rank = rankOfTrack(gpuTrack);
    if (rank == kNoId) return it->second;
    // Never another rank's launch: none of its own (a rank cut short) leaves the event
    // to its ac2g flow, else unlinked. At most one launch a rank shares the id, so the
    // scan is bounded by the ranks.
    for (auto same = it; same != launches.end() && same->first == key; ++same) {
      const int64_t launchRank = rankOfTrack(EventRef::unpack(same->second).track);
      if (launchRank == rank || launchRank == kNoId) return same->second;
    }
    return kNoRef;
  };
  for (uint32_t ti = 0; ti < trace.tracks.size(); ++ti) {
    const SliceColumns& s = trace.tracks[ti].slices;
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (!isGpuKind(s.kind[i])) continue;
      const uint64_t gpuRef = EventRef{ti, i}.packed();
      uint64_t launch = s.correlation[i] == kNoId ? kNoRef : find(s.correlation[i], ti);
      if (launch == kNoRef)
        if (const auto it = launchByFlow.find(gpuRef); it != launchByFlow.end()) launch = it->second;
      if (launch == kNoRef) {
        ++links.unlinkedGpuEvents;
        continue;
      }
      const uint64_t gpu = EventRef{ti, i}.packed();
      links.gpuToLaunch.push_back({gpu, launch});
      links.launchToGpu.push_back({launch, gpu});
    }
  }
  // gpuToLaunch is produced in ref order already; launchToGpu needs sorting.
  sortOnTwoThreads(links.launchToGpu.begin(), links.launchToGpu.end(), std::less<>());
  links.gpuToLaunch.shrink_to_fit();
  links.launchToGpu.shrink_to_fit();
}

namespace {

// Deepest slice on the track containing ts (start <= ts <= end), or -1.
int64_t enclosingSlice(const Track& track, TimeNs ts) {
  const SliceColumns& s = track.slices;
  size_t i = s.upperBound(ts);
  if (i == 0) return -1;
  --i;
  if (track.kind == TrackKind::Thread) {
    // Walk up from the last slice starting at or before ts to the one containing it.
    int64_t r = static_cast<int64_t>(i);
    while (r >= 0 && s.end(static_cast<size_t>(r)) < ts) r = s.parent[static_cast<size_t>(r)];
    return r;
  }
  // Lanes have no parents: look back over the few slices that may still be open.
  for (size_t k = 0; k < 64 && k <= i; ++k)
    if (s.end(i - k) >= ts) return static_cast<int64_t>(i - k);
  return -1;
}

}  // namespace

void bindFlows(Trace& trace) {
  PodColumn<FlowPoint> points = std::move(trace.unboundFlows);
  trace.unboundFlows = {};
  auto refOf = [&](const FlowPoint& p) -> uint64_t {
    if (p.track >= trace.tracks.size()) return kNoRef;
    const Track& t = trace.tracks[p.track];
    int64_t row = -1;
    if (p.bindEnclosing) {
      row = enclosingSlice(t, p.ts);
    } else {
      const size_t i = t.slices.lowerBound(p.ts);
      if (i < t.slices.size()) row = static_cast<int64_t>(i);
    }
    return row < 0 ? kNoRef : EventRef{p.track, static_cast<uint32_t>(row)}.packed();
  };
  // Flow ids are scoped by category ("ac2g" 5 and "fwdbwd" 5 are different flows).
  // Ends may precede their start in file order: sort by (category, id, ts), starts
  // first at equal times, then walk each flow's points in order.
  auto phaseRank = [](char ph) { return ph == 's' ? 0 : ph == 't' ? 1 : 2; };
  auto sameFlow = [](const FlowPoint& a, const FlowPoint& b) { return a.cat == b.cat && a.id == b.id; };
  // Then by track, name and binding, so that only points equal in every field compare
  // equal (interchangeable): the same flows whatever sort splits the work (points on two
  // tracks sharing a flow's id and instant, as a merged file's ranks may, would otherwise
  // bind in whichever order the sort left them).
  sortOnTwoThreads(points.begin(), points.end(), [&](const FlowPoint& a, const FlowPoint& b) {
    if (a.cat != b.cat) return a.cat < b.cat;
    if (a.id != b.id) return a.id < b.id;
    if (a.ts != b.ts) return a.ts < b.ts;
    if (a.phase != b.phase) return phaseRank(a.phase) < phaseRank(b.phase);
    if (a.track != b.track) return a.track < b.track;
    if (a.name != b.name) return a.name < b.name;
    return a.bindEnclosing < b.bindEnclosing;
  });
  // Kineto's launch flows (ac2g) routinely lose an end: starts on calls that launch
  // nothing (cudaEventQuery, synchronisations) and ends whose start the profiler
  // filtered out. Those are counted apart, as informational.
  const StringId launchFlowCat = trace.strings.find("ac2g");
  uint64_t dangling = 0, danglingLaunch = 0;
  std::string example, launchExample;
  // The event each point binds to (binary searches over the tracks: most of this pass).
  PodColumn<uint64_t> refs;
  refs.resizeForOverwrite(points.size());
  forTwoHalves(points.size(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) refs[i] = refOf(points[i]);
  });
  uint64_t openRef = kNoRef;  // the current flow's last bound point, kNoRef when none is open
  for (size_t i = 0; i < points.size(); ++i) {
    const FlowPoint& p = points[i];
    if (i > 0 && !sameFlow(p, points[i - 1])) openRef = kNoRef;
    const uint64_t ref = refs[i];
    if (p.phase == 's') {
      openRef = ref;
      continue;
    }
    if (openRef == kNoRef || ref == kNoRef) {
      const bool launch = p.cat == launchFlowCat;  // kNotFound matches no category
      ++(launch ? danglingLaunch : dangling);
      std::string& ex = launch ? launchExample : example;
      if (ex.empty()) {
        const std::string id = p.id & kStringFlowId
                                   ? std::string(trace.str(static_cast<StringId>(p.id & ~kStringFlowId)))
                                   : std::to_string(p.id);
        ex = std::string(trace.str(p.cat)) + " flow " + id + " at " + trace.trackLabel(p.track);
      }
      continue;
    }
    Flow f;
    f.cat = p.cat;
    f.name = p.name;
    f.from = openRef;
    f.to = ref;
    trace.flows.push_back(f);
    openRef = p.phase == 't' ? ref : kNoRef;  // a step continues the chain from here
  }
  trace.diagnostics.add(WarningKind::DanglingFlow, dangling, example);
  trace.diagnostics.add(WarningKind::DanglingLaunchFlow, danglingLaunch, launchExample);
  trace.flows.shrink_to_fit();
}

}  // namespace opscope
