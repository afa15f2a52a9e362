#include "hierarchy/nesting.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <vector>

namespace opscope {

uint64_t nestByContainment(SliceColumns& s, uint16_t& maxDepth) {
  std::vector<uint32_t> stack;
  uint64_t crossovers = 0;
  uint16_t deepest = 0;
  const size_t n = s.size();
  s.depth.assign(n, 0);
  s.parent.assign(n, -1);
  for (uint32_t i = 0; i < n; ++i) {
    const TimeNs start = s.start[i];
    const TimeNs end = start + s.dur[i];
    // A slice starting exactly where the open one ends is its sibling, not its child.
    while (!stack.empty() && s.end(stack.back()) <= start) stack.pop_back();
    if (stack.empty()) {
      stack.push_back(i);
      continue;
    }
    const uint32_t top = stack.back();
    const uint16_t depth = s.depth[top] == UINT16_MAX ? UINT16_MAX : static_cast<uint16_t>(s.depth[top] + 1);
    s.parent[i] = static_cast<int32_t>(top);
    s.depth[i] = depth;
    deepest = std::max(deepest, depth);
    if (end > s.end(top)) {
      s.flags[i] |= kFlagCrossover;
      ++crossovers;
    } else {
      stack.push_back(i);
    }
  }
  maxDepth = n ? static_cast<uint16_t>(std::min<int>(deepest + 1, UINT16_MAX)) : 0;
  return crossovers;
}

void assignLanes(SliceColumns& s, uint16_t& laneCount) {
  // The lowest-numbered lane free at each slice's start, in O(n log n): busy lanes in a
  // min-heap by end time, released lanes in a min-heap by number. A lane is free at t
  // when everything on it ended at or before t.
  constexpr size_t kMaxLanes = UINT16_MAX;  // pathological overlap: the last lane is shared
  const size_t n = s.size();
  s.depth.assign(n, 0);
  s.parent.assign(n, -1);
  using Busy = std::pair<TimeNs, uint32_t>;  // (end, lane)
  std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> free;
  std::vector<TimeNs> laneEnd;  // the latest end on each lane: stale heap entries are skipped
  for (size_t i = 0; i < n; ++i) {
    const TimeNs start = s.start[i];
    while (!busy.empty() && busy.top().first <= start) {
      const auto [end, lane] = busy.top();
      busy.pop();
      if (laneEnd[lane] == end) free.push(lane);
    }
    uint32_t lane;
    bool shared = false;
    if (!free.empty()) {
      lane = free.top();
      free.pop();
    } else if (laneEnd.size() < kMaxLanes) {
      lane = static_cast<uint32_t>(laneEnd.size());
      laneEnd.push_back(0);
    } else {
      lane = static_cast<uint32_t>(kMaxLanes - 1);  // every lane busy: share the last one
      shared = true;
    }
    const TimeNs end = s.end(i);
    if (!shared || end > laneEnd[lane]) {
      laneEnd[lane] = end;
      busy.emplace(end, lane);  // an older entry of a shared lane goes stale
    }
    s.depth[i] = static_cast<uint16_t>(lane);
  }
  laneCount = static_cast<uint16_t>(laneEnd.size());
}

}  // namespace opscope
