#include "hierarchy/nesting.h"

#include <algorithm>
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
  std::vector<TimeNs> laneEnd;
  const size_t n = s.size();
  s.depth.assign(n, 0);
  s.parent.assign(n, -1);
  for (size_t i = 0; i < n; ++i) {
    const TimeNs start = s.start[i];
    size_t lane = 0;
    while (lane < laneEnd.size() && laneEnd[lane] > start) ++lane;
    if (lane == laneEnd.size()) {
      if (lane == UINT16_MAX) lane = UINT16_MAX - 1;  // pathological: share the last lane
      else laneEnd.push_back(0);
    }
    laneEnd[lane] = std::max(laneEnd[lane], s.end(i));
    s.depth[i] = static_cast<uint16_t>(lane);
  }
  laneCount = static_cast<uint16_t>(laneEnd.size());
}

}  // namespace opscope
