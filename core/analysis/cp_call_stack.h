#pragma once
// One thread's call stack as Holistic Trace Analysis builds it for its critical path
// (hta/common/call_stack.py): every event's start and end as points, sorted by
// compare_events' order, then swept with a stack of open events. Used by the critical
// path's graph (analysis/critical_path.cpp); the events are its own, read through
// callbacks so that no copy of them is made.
//
// Invariants: the order is total (two distinct points never tie: an event's own start
// precedes its end, and the event index breaks every other tie), so the sweep does not
// depend on the sort's stability; an end with no open event is ignored.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/ids.h"

namespace opscope {

// ts(i), end(i): the start and end of event i. members: the thread's events (emptied).
// For every member, in order of its start point: onStart(i, parentOrNone) with the
// innermost event open at that point (kNoParent when none).
template <typename Ts, typename End, typename OnStart>
void sweepCallStack(std::vector<uint32_t>& members, Ts ts, End end, OnStart onStart) {
  constexpr uint32_t kNoParent = ~0u;
  // 16 bytes a point (the duration read from the event on a tie): 2 M points of the
  // merged track of a 10^6-thread file held 48 MB at 24.
  struct Point {
    TimeNs time;
    uint32_t ev;
    bool start;
  };
  const auto durOf = [&](uint32_t ev) { return end(ev) - ts(ev); };
  // hta/common/call_stack.py compare_events.
  const auto before = [&](const Point& x, const Point& y) {
    if (x.ev == y.ev) return x.start && !y.start;
    if (x.time != y.time) return x.time < y.time;
    const TimeNs xd = durOf(x.ev), yd = durOf(y.ev);
    if (x.start == y.start) {
      if (x.start) return xd != yd ? xd > yd : x.ev < y.ev;
      return xd != yd ? xd < yd : x.ev > y.ev;
    }
    if (xd > 0 && yd > 0) return !x.start;
    if (xd == 0 && yd == 0) return x.ev < y.ev;
    return x.start;
  };
  std::vector<Point> points;
  points.reserve(members.size() * 2);
  for (uint32_t i : members) {
    points.push_back({ts(i), i, true});
    points.push_back({end(i), i, false});
  }
  std::vector<uint32_t>().swap(members);
  std::sort(points.begin(), points.end(), before);
  std::vector<uint32_t> open;
  for (const Point& p : points) {
    if (p.start) {
      onStart(p.ev, open.empty() ? kNoParent : open.back());
      open.push_back(p.ev);
    } else if (!open.empty()) {
      open.pop_back();
    }
  }
}

}  // namespace opscope
