#pragma once
// Length of the union of intervals: device busy time is a union, never a sum, since
// events on one stream (and across streams) overlap.
#include <algorithm>
#include <utility>
#include <vector>

#include "model/ids.h"

namespace opscope {

// intervals: [start, end) pairs in any order; sorted in place.
inline TimeNs unionLength(std::vector<std::pair<TimeNs, TimeNs>>& intervals) {
  std::sort(intervals.begin(), intervals.end());
  TimeNs total = 0, curStart = 0, curEnd = 0;
  bool open = false;
  for (const auto& [s, e] : intervals) {
    if (e <= s) continue;
    if (!open || s > curEnd) {
      if (open) total += curEnd - curStart;
      curStart = s;
      curEnd = e;
      open = true;
    } else {
      curEnd = std::max(curEnd, e);
    }
  }
  if (open) total += curEnd - curStart;
  return total;
}

}  // namespace opscope
