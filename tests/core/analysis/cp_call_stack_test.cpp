// The critical path's call-stack sweep: the starts and ends sorted apart (on two threads
// past kParallelSortFrom) and merged must visit events as one sort of every point in
// HTA's order does. A reference sweep written out here is the oracle.
#include "analysis/cp_call_stack.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

namespace opscope {
namespace {

struct Ev {
  TimeNs ts, end;
};

// hta/common/call_stack.py's order, over all points at once.
std::vector<std::pair<uint32_t, uint32_t>> referenceSweep(const std::vector<Ev>& evs) {
  struct P {
    TimeNs t;
    uint32_t ev;
    bool start;
  };
  std::vector<P> pts;
  for (uint32_t i = 0; i < evs.size(); ++i) {
    pts.push_back({evs[i].ts, i, true});
    pts.push_back({evs[i].end, i, false});
  }
  auto dur = [&](uint32_t i) { return evs[i].end - evs[i].ts; };
  std::sort(pts.begin(), pts.end(), [&](const P& x, const P& y) {
    if (x.ev == y.ev) return x.start && !y.start;
    if (x.t != y.t) return x.t < y.t;
    const TimeNs xd = dur(x.ev), yd = dur(y.ev);
    if (x.start == y.start) {
      if (x.start) return xd != yd ? xd > yd : x.ev < y.ev;
      return xd != yd ? xd < yd : x.ev > y.ev;
    }
    if (xd > 0 && yd > 0) return !x.start;
    if (xd == 0 && yd == 0) return x.ev < y.ev;
    return x.start;
  });
  std::vector<std::pair<uint32_t, uint32_t>> out;
  std::vector<uint32_t> open;
  for (const P& p : pts) {
    if (p.start) {
      out.emplace_back(p.ev, open.empty() ? ~0u : open.back());
      open.push_back(p.ev);
    } else if (!open.empty()) {
      open.pop_back();
    }
  }
  return out;
}

TEST(CallStackSweep, SortingStartsAndEndsApartVisitsAsOneSortDoes) {
  for (const size_t n : {size_t{1000}, kParallelSortFrom + 777}) {
    std::mt19937_64 rng(n);
    std::vector<Ev> evs(n);
    // Coarse times: starts, ends and both at one instant, equal durations. No
    // zero-length events: with them HTA's order is not transitive (cp_call_stack.h) and
    // no single order exists to compare with.
    for (Ev& e : evs) {
      e.ts = static_cast<TimeNs>(rng() % (n / 4 + 1)) * 10;
      e.end = e.ts + 10 * static_cast<TimeNs>(1 + rng() % 4);
    }
    const auto want = referenceSweep(evs);
    std::vector<std::pair<uint32_t, uint32_t>> got;
    // Shuffled members, and members in time order (the critical path's, whose starts
    // are sorted only within each instant).
    for (const bool byTime : {false, true}) {
      std::vector<uint32_t> members(n);
      for (uint32_t i = 0; i < n; ++i) members[i] = i;
      std::shuffle(members.begin(), members.end(), rng);
      if (byTime)
        std::stable_sort(members.begin(), members.end(), [&](uint32_t x, uint32_t y) { return evs[x].ts < evs[y].ts; });
      got.clear();
      sweepCallStack(
          members, [&](uint32_t i) { return evs[i].ts; }, [&](uint32_t i) { return evs[i].end; },
          [&](uint32_t ev, uint32_t parent) { got.emplace_back(ev, parent); });
      EXPECT_TRUE(members.empty());
      ASSERT_EQ(got.size(), n);
      EXPECT_TRUE(got == want) << n << " events, members " << (byTime ? "in time order" : "shuffled");
    }
    // The fixture nests: most events have a parent.
    EXPECT_GT(std::count_if(got.begin(), got.end(), [](const auto& p) { return p.second != ~0u; }),
              static_cast<long>(n / 4));
  }
}

// Zero-length events at shared instants (HTA's order cycles there): every event is
// visited once, with a parent that is another event or none, and nothing runs off the
// points (the ASan build checks that).
TEST(CallStackSweep, ZeroLengthEventsAtOneInstantAreEachVisitedOnce) {
  const size_t n = kParallelSortFrom + 5;
  std::mt19937_64 rng(7);
  std::vector<Ev> evs(n);
  for (Ev& e : evs) {
    e.ts = static_cast<TimeNs>(rng() % 50) * 10;
    e.end = e.ts + (rng() % 3 == 0 ? 10 : 0);
  }
  std::vector<uint32_t> members(n);
  for (uint32_t i = 0; i < n; ++i) members[i] = i;
  std::vector<uint32_t> seen(n, 0);
  sweepCallStack(
      members, [&](uint32_t i) { return evs[i].ts; }, [&](uint32_t i) { return evs[i].end; },
      [&](uint32_t ev, uint32_t parent) {
        ASSERT_LT(ev, n);
        ++seen[ev];
        EXPECT_TRUE(parent == ~0u || (parent < n && parent != ev));
      });
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1u), static_cast<long>(n));
}

}  // namespace
}  // namespace opscope
