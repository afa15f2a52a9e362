#pragma once
// A set of time as sorted, disjoint, non-empty [start, end) intervals, with the linear
// set operations the breakdowns need (union of streams, "time of A not covered by B").
#include <span>
#include <utility>
#include <vector>

#include "model/ids.h"

namespace opscope {

class IntervalSet {
 public:
  using Interval = std::pair<TimeNs, TimeNs>;
  IntervalSet() = default;
  // From intervals sorted by start (overlapping, nested or empty ones allowed).
  static IntervalSet fromSortedByStart(std::span<const Interval> intervals);
  // From intervals in any order.
  static IntervalSet fromUnsorted(std::vector<Interval> intervals);

  const std::vector<Interval>& intervals() const { return spans_; }
  bool empty() const { return spans_.empty(); }
  TimeNs length() const;
  IntervalSet unite(const IntervalSet& other) const;
  // Length of the part of this set not in other.
  TimeNs lengthOutside(const IntervalSet& other) const;
  // Length of the part of this set inside other.
  TimeNs lengthInside(const IntervalSet& other) const { return length() - lengthOutside(other); }
  IntervalSet clip(TimeNs start, TimeNs end) const;

 private:
  std::vector<Interval> spans_;
};

}  // namespace opscope
