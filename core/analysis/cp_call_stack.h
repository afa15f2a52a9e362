#pragma once
// One thread's call stack as Holistic Trace Analysis builds it for its critical path
// (hta/common/call_stack.py): every event's start and end as points, sorted by
// compare_events' order, then swept with a stack of open events. Used by the critical
// path's graph (analysis/critical_path.cpp); the events are its own, read through
// callbacks so that no copy of them is made.
//
// The order: no two distinct points tie (an event's own start precedes its end, and the
// event index breaks every other tie), but compare_events is not transitive where
// zero-length events share an instant with others (three zero-length events a < b < c:
// HTA puts c's end before b's and b's before a's, a's end before b's start and b's start
// before b's end). std::sort with such a comparator is undefined behaviour (its
// unguarded insertion step may run off the range), so the points are sorted by merging
// (stable_sort, inplace_merge), which stays within the range whatever the comparator
// says (libstdc++'s merge sorts only compare within the range) and gives the one
// possible order wherever the order is consistent. An end with no
// open event is ignored.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/ids.h"
#include "model/two_threads.h"

namespace opscope {

// Threads with this many events sort their starts and their ends on two threads.
inline constexpr size_t kParallelSortFrom = 1u << 16;

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
  // Starts in the first half, ends in the second, each sorted (on two threads for a
  // large thread: the merged forward/backward thread of a training step holds millions),
  // then merged: wherever the order is consistent, the order one sort of all would give.
  const size_t n = members.size();
  std::vector<Point> points(n * 2);
  for (size_t k = 0; k < n; ++k) {
    points[k] = {ts(members[k]), members[k], true};
    points[n + k] = {end(members[k]), members[k], false};
  }
  std::vector<uint32_t>().swap(members);
  const auto mid = points.begin() + static_cast<std::ptrdiff_t>(n);
  runBeside(
      n >= kParallelSortFrom, [&] { std::stable_sort(points.begin(), mid, before); },
      [&] { std::stable_sort(mid, points.end(), before); });
  std::inplace_merge(points.begin(), mid, points.end(), before);
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
