#include "ranks/collective_match.h"

#include <algorithm>
#include <map>

#include "ranks/rank_metrics.h"

namespace opscope {

CollectiveMatch sameCollectiveOnEveryRank(const Trace& trace, EventRef kernel) {
  CollectiveMatch match;
  if (kernel.track >= trace.tracks.size() || kernel.index >= trace.tracks[kernel.track].slices.size()) return match;
  const int64_t ownRank = trace.processes[trace.tracks[kernel.track].process].rank;
  if (ownRank == kNoId || trace.kind(kernel) != SliceKind::Kernel || !isCollectiveKernelName(trace.name(kernel)))
    return match;
  // Every rank's collectives, by start (then track and row, for a stable order).
  std::map<int64_t, std::vector<std::pair<TimeNs, EventRef>>> byRank;
  std::vector<int8_t> verdict;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    const Track& tr = trace.tracks[t];
    if (tr.kind != TrackKind::GpuStream) continue;
    const int64_t rank = trace.processes[tr.process].rank;
    const SliceColumns& s = tr.slices;
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (s.kind[i] != SliceKind::Kernel) continue;
      const StringId id = s.name[i];
      if (id >= verdict.size()) verdict.resize(id + 1, -1);
      if (verdict[id] < 0) verdict[id] = isCollectiveKernelName(trace.str(id)) ? 1 : 0;
      if (verdict[id] == 1) byRank[rank].push_back({s.start[i], EventRef{t, i}});
    }
  }
  for (auto& [rank, list] : byRank) std::sort(list.begin(), list.end());
  const auto& own = byRank[ownRank];
  const auto at = std::find_if(own.begin(), own.end(), [&](const auto& p) { return p.second == kernel; });
  if (at == own.end()) return match;
  match.ordinal = static_cast<size_t>(at - own.begin());
  for (const auto& [rank, list] : byRank)
    if (match.ordinal < list.size()) match.peers.push_back({rank, list[match.ordinal].second});
  return match;
}

}  // namespace opscope
