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
// unguarded insertion step may run off the range). Among starts alone, and among ends
// alone, the order is total (time, then duration, then index), so each is sorted on its
// own and the two are merged as std::merge does (an end goes first only when it is before
// the next start): that stays within the points whatever the comparator says and gives
// the one possible order wherever the order is consistent (the forward merge
// std::inplace_merge made of the two halves before). An end with no open event is
// ignored.
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
  // An end point, 12 bytes (packed: the time unaligned): 2 M points of the merged track
  // of a 10^6-thread file held 48 MB at 24. The starts are the members themselves,
  // sorted in place (their time is ts()).
  struct __attribute__((packed)) EndPoint {
    TimeNs time;
    uint32_t ev;
  };
  const auto durOf = [&](uint32_t ev) { return end(ev) - ts(ev); };
  // hta/common/call_stack.py compare_events between two starts, two ends, and an end and
  // a start (is the end first?).
  const auto startBefore = [&](uint32_t x, uint32_t y) {
    const TimeNs xt = ts(x), yt = ts(y);
    if (xt != yt) return xt < yt;
    const TimeNs xd = durOf(x), yd = durOf(y);
    return xd != yd ? xd > yd : x < y;
  };
  const auto endBefore = [&](const EndPoint& x, const EndPoint& y) {
    if (x.time != y.time) return x.time < y.time;
    const TimeNs xd = durOf(x.ev), yd = durOf(y.ev);
    return xd != yd ? xd < yd : x.ev > y.ev;
  };
  const auto endBeforeStart = [&](const EndPoint& x, uint32_t y) {
    if (x.ev == y) return false;
    const TimeNs yt = ts(y);
    if (x.time != yt) return x.time < yt;
    const TimeNs xd = durOf(x.ev), yd = durOf(y);
    if (xd > 0 && yd > 0) return true;
    if (xd == 0 && yd == 0) return x.ev < y;
    return false;
  };
  // The starts and the ends each sorted (on two threads for a large thread: the merged
  // forward/backward thread of a training step holds millions), then merged.
  const size_t n = members.size();
  std::vector<EndPoint> ends(n);
  for (size_t k = 0; k < n; ++k) ends[k] = {end(members[k]), members[k]};
  // Members already in time order (the critical path's are: its events are sorted by
  // start) need only their runs of one start time sorted.
  const auto sortStarts = [&] {
    const auto byTime = [&](uint32_t x, uint32_t y) { return ts(x) < ts(y); };
    if (!std::is_sorted(members.begin(), members.end(), byTime)) {
      std::sort(members.begin(), members.end(), startBefore);
      return;
    }
    for (auto run = members.begin(); run != members.end();) {
      const TimeNs t = ts(*run);
      auto next = run + 1;
      while (next != members.end() && ts(*next) == t) ++next;
      if (next - run > 1) std::sort(run, next, startBefore);
      run = next;
    }
  };
  runBeside(n >= kParallelSortFrom, sortStarts, [&] { std::sort(ends.begin(), ends.end(), endBefore); });
  std::vector<uint32_t> open;
  size_t e = 0;
  for (const uint32_t s : members) {
    for (; e < n && endBeforeStart(ends[e], s); ++e)
      if (!open.empty()) open.pop_back();
    onStart(s, open.empty() ? kNoParent : open.back());
    open.push_back(s);
  }
  std::vector<uint32_t>().swap(members);
}

}  // namespace opscope
