#include "hierarchy/iterations.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>

namespace opscope {

std::optional<int64_t> profilerStepNumber(std::string_view name) {
  constexpr std::string_view prefix = "ProfilerStep#";
  if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix) return std::nullopt;
  const std::string_view digits = name.substr(prefix.size());
  for (char c : digits)
    if (c < '0' || c > '9') return std::nullopt;
  int64_t n = 0;
  auto r = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (r.ec != std::errc()) return std::nullopt;
  return n;
}

std::vector<Iteration> findProfilerSteps(const Trace& trace) {
  std::vector<Iteration> out;
  // Few distinct names start with "ProfilerStep#": test the interned strings once.
  std::unordered_map<StringId, int64_t> stepByName;
  for (StringId id = 0; id < trace.strings.size(); ++id)
    if (auto n = profilerStepNumber(trace.strings.get(id))) stepByName.emplace(id, *n);
  if (stepByName.empty()) return out;
  for (uint32_t ti = 0; ti < trace.tracks.size(); ++ti) {
    const SliceColumns& s = trace.tracks[ti].slices;
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (s.kind[i] == SliceKind::GpuUserAnnotation) continue;
      auto it = stepByName.find(s.name[i]);
      if (it == stepByName.end()) continue;
      out.push_back({it->second, s.start[i], s.end(i), EventRef{ti, i}.packed()});
    }
  }
  std::sort(out.begin(), out.end(), [](const Iteration& a, const Iteration& b) {
    return a.start != b.start ? a.start < b.start : a.number < b.number;
  });
  return out;
}

std::vector<Iteration> findMarkerIterations(const Trace& trace, std::string_view marker) {
  std::vector<Iteration> out;
  if (marker.empty()) return out;
  std::vector<char> exact(trace.strings.size(), 0), contains(trace.strings.size(), 0);
  bool anyExact = false;
  for (StringId id = 0; id < trace.strings.size(); ++id) {
    const std::string_view s = trace.strings.get(id);
    exact[id] = s == marker;
    contains[id] = s.find(marker) != std::string_view::npos;
    anyExact |= exact[id] != 0;
  }
  const std::vector<char>& match = anyExact ? exact : contains;
  // The thread holding the most markers defines the iterations.
  uint32_t bestTrack = 0;
  size_t bestCount = 0;
  for (uint32_t ti = 0; ti < trace.tracks.size(); ++ti) {
    const SliceColumns& s = trace.tracks[ti].slices;
    if (trace.tracks[ti].kind != TrackKind::Thread) continue;
    size_t n = 0;
    for (uint32_t i = 0; i < s.size(); ++i) n += match[s.name[i]] && s.parent[i] < 0 ? 1 : 0;
    if (n == 0)
      for (uint32_t i = 0; i < s.size(); ++i) n += match[s.name[i]];
    if (n > bestCount) {
      bestCount = n;
      bestTrack = ti;
    }
  }
  if (bestCount == 0) return out;
  const SliceColumns& s = trace.tracks[bestTrack].slices;
  // Outermost occurrences only, so a marker nested in another does not split an iteration.
  TimeNs coveredUntil = INT64_MIN;
  std::vector<uint32_t> rows;
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (!match[s.name[i]] || s.start[i] < coveredUntil) continue;
    rows.push_back(i);
    coveredUntil = s.end(i);
  }
  TimeNs trackEnd = 0;
  for (uint32_t i = 0; i < s.size(); ++i) trackEnd = std::max(trackEnd, s.end(i));
  for (size_t k = 0; k < rows.size(); ++k) {
    Iteration it;
    it.number = static_cast<int64_t>(k);
    it.start = s.start[rows[k]];
    it.end = k + 1 < rows.size() ? s.start[rows[k + 1]] : trackEnd;
    out.push_back(it);
  }
  return out;
}

std::optional<TimeWindow> iterationWindow(const std::vector<Iteration>& its, size_t first, size_t count) {
  if (first >= its.size() || count == 0) return std::nullopt;
  const size_t last = std::min(its.size(), first + count) - 1;
  TimeWindow w{its[first].start, its[first].end};
  for (size_t k = first; k <= last; ++k) w.end = std::max(w.end, its[k].end);
  return w;
}

}  // namespace opscope

namespace opscope {

std::vector<std::vector<TimeNs>> iterationWallEnds(const Trace& trace,
                                                   const std::vector<std::vector<Iteration>>& groups,
                                                   const std::vector<uint32_t>& groupOfTrack) {
  std::vector<std::vector<TimeNs>> ends(groups.size());
  for (size_t g = 0; g < groups.size(); ++g)
    for (const Iteration& it : groups[g]) ends[g].push_back(it.end);
  // A group's iterations are sorted by start and do not overlap, so a launch belongs to
  // the last iteration of its group starting at or before it, if it has not ended by then.
  for (const LaunchLinks::Pair& p : trace.links.launchToGpu) {
    const EventRef launch = EventRef::unpack(p.first);
    if (launch.track >= groupOfTrack.size() || groupOfTrack[launch.track] >= groups.size()) continue;
    const size_t g = groupOfTrack[launch.track];
    const std::vector<Iteration>& its = groups[g];
    const TimeNs ts = trace.start(launch);
    auto next = std::upper_bound(its.begin(), its.end(), ts, [](TimeNs t, const Iteration& i) { return t < i.start; });
    if (next == its.begin()) continue;
    const size_t i = static_cast<size_t>(next - its.begin()) - 1;
    if (ts >= its[i].end) continue;
    ends[g][i] = std::max(ends[g][i], trace.end(EventRef::unpack(p.second)));
  }
  return ends;
}

std::vector<TimeNs> iterationWallEnds(const Trace& trace, const std::vector<Iteration>& its) {
  if (its.empty()) return {};
  return iterationWallEnds(trace, {its}, std::vector<uint32_t>(trace.tracks.size(), 0)).front();
}

}  // namespace opscope
