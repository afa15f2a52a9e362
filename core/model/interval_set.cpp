#include "model/interval_set.h"

#include <algorithm>

namespace opscope {

IntervalSet IntervalSet::fromSortedByStart(std::span<const Interval> intervals) {
  IntervalSet out;
  for (const auto& [s, e] : intervals) {
    if (e <= s) continue;
    if (!out.spans_.empty() && s <= out.spans_.back().second) {
      out.spans_.back().second = std::max(out.spans_.back().second, e);
    } else {
      out.spans_.emplace_back(s, e);
    }
  }
  return out;
}

IntervalSet IntervalSet::fromUnsorted(std::vector<Interval> intervals) {
  std::sort(intervals.begin(), intervals.end());
  return fromSortedByStart(intervals);
}

TimeNs IntervalSet::length() const {
  TimeNs total = 0;
  for (const auto& [s, e] : spans_) addTo(total, e - s);
  return total;
}

IntervalSet IntervalSet::unite(const IntervalSet& other) const {
  std::vector<Interval> merged;
  merged.reserve(spans_.size() + other.spans_.size());
  std::merge(spans_.begin(), spans_.end(), other.spans_.begin(), other.spans_.end(), std::back_inserter(merged));
  return fromSortedByStart(merged);
}

TimeNs IntervalSet::lengthOutside(const IntervalSet& other) const {
  TimeNs total = 0;
  size_t j = 0;
  const auto& o = other.spans_;
  for (auto [s, e] : spans_) {
    while (j < o.size() && o[j].second <= s) ++j;
    TimeNs cursor = s;
    for (size_t k = j; k < o.size() && o[k].first < e; ++k) {
      if (o[k].first > cursor) addTo(total, o[k].first - cursor);
      cursor = std::max(cursor, o[k].second);
      if (cursor >= e) break;
    }
    if (cursor < e) addTo(total, e - cursor);
  }
  return total;
}

IntervalSet IntervalSet::clip(TimeNs start, TimeNs end) const {
  IntervalSet out;
  for (auto [s, e] : spans_) {
    s = std::max(s, start);
    e = std::min(e, end);
    if (e > s) out.spans_.emplace_back(s, e);
  }
  return out;
}

}  // namespace opscope
