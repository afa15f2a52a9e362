#include "analysis/cp_inferred_waits.h"

#include <algorithm>
#include <map>

namespace opscope {

namespace {

using StreamKey = std::pair<int64_t, int64_t>;          // device, stream
using Ends = std::vector<std::pair<TimeNs, uint32_t>>;  // (end, index into work) by end

std::map<StreamKey, Ends> endsByStream(const std::vector<GpuWork>& work) {
  std::map<StreamKey, Ends> out;
  for (uint32_t i = 0; i < work.size(); ++i) out[{work[i].device, work[i].stream}].push_back({work[i].end, i});
  for (auto& [k, v] : out) std::sort(v.begin(), v.end());
  return out;
}

// The last entry of ends at or before t, if any.
const std::pair<TimeNs, uint32_t>* lastEndingBy(const Ends& ends, TimeNs t) {
  auto it = std::upper_bound(ends.begin(), ends.end(), std::make_pair(t, ~0u));
  return it == ends.begin() ? nullptr : &*std::prev(it);
}

}  // namespace

std::vector<std::pair<uint32_t, uint32_t>> inferStreamWaits(std::vector<GpuWork> work) {
  std::stable_sort(work.begin(), work.end(), [](const GpuWork& a, const GpuWork& b) { return a.start < b.start; });
  const std::map<StreamKey, Ends> ends = endsByStream(work);
  std::map<StreamKey, TimeNs> idleFrom;  // per stream: when its work so far ended
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (const GpuWork& w : work) {
    const StreamKey k{w.device, w.stream};
    const auto idle = idleFrom.find(k);
    if (idle != idleFrom.end() && w.start - idle->second > kStreamWaitGap) {
      TimeNs bestEnd = 0;
      const GpuWork* best = nullptr;
      for (const auto& [other, otherEnds] : ends) {
        if (other == k || other.first != k.first) continue;
        const auto* e = lastEndingBy(otherEnds, w.start);
        if (!e) continue;
        const GpuWork& o = work[e->second];
        if (e->first > idle->second && e->first >= w.start - kStreamWaitGap && o.start < w.start && e->first > bestEnd)
          bestEnd = e->first, best = &o;
      }
      if (best) out.emplace_back(w.id, best->id);
    }
    TimeNs& until = idleFrom.try_emplace(k, w.end).first->second;
    until = std::max(until, w.end);
  }
  return out;
}

InferredCallWaits inferCallWaits(const std::vector<GpuWork>& work, const std::vector<BlockingCall>& calls) {
  const std::map<StreamKey, Ends> ends = endsByStream(work);
  InferredCallWaits out;
  for (const BlockingCall& c : calls) {
    if (c.waits == CallWaits::Nothing) continue;
    const GpuWork* latest = nullptr;
    bool tied = false;
    for (const auto& [k, v] : ends) {
      if (c.device != kNoId && k.first != kNoId && k.first != c.device) continue;
      const auto* e = lastEndingBy(v, c.end);
      if (!e || e->first < c.start) continue;  // nothing on this stream ended while it blocked
      const GpuWork& g = work[e->second];
      if (c.waits == CallWaits::Device) {
        out.edges.emplace_back(g.id, c.id);
        tied = true;
      } else if (!latest || g.end > latest->end) {
        latest = &g;
      }
    }
    if (latest) out.edges.emplace_back(latest->id, c.id), tied = true;
    out.callsTied += tied;
  }
  return out;
}

}  // namespace opscope
