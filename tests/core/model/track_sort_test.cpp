// The order finish() gives each track's rows: (start ascending, dur descending, file
// order), the order of one stable sort, on a track of 69,536 rows and on 400 small ones,
// every one out of order, with equal (start, dur) pairs everywhere. The expected order
// comes from std::stable_sort over the events as generated, and every column is checked
// against it, so a sort that loses the file order among equals (an unstable sort of half
// the rows failed at row 9 of 69,536) or a column left out of the permutation fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "model/trace_builder.h"
#include "test_support.h"

namespace opscope {
namespace {

// Rows of the one big track are at least this many.
constexpr size_t kBigTrack = 65'536;

struct Generated {
  int64_t tid, ts, dur, arrival;
};

// Loads the events, in this order, and checks every track's rows against one stable
// sort of its events; returns the largest track's rows.
size_t expectTheOrderOfOneStableSort(std::vector<Generated>& events) {
  std::string json = "[";
  for (size_t i = 0; i < events.size(); ++i) {
    Generated& e = events[i];
    e.arrival = static_cast<int64_t>(i);
    if (i) json += ",\n";
    json += R"({"ph":"X","cat":"cpu_op","name":"op)" + std::to_string(i % 97) + R"(","pid":1,"tid":)" +
            std::to_string(e.tid) + R"(,"ts":)" + std::to_string(e.ts) + R"(,"dur":)" + std::to_string(e.dur) +
            R"(,"args":{"External id":)" + std::to_string(i) + "}}";
  }
  json += "]";
  const auto t = test::loadOk(json);
  EXPECT_TRUE(t);
  if (!t) return 0;

  std::map<int64_t, std::vector<Generated>> expected;
  for (const Generated& e : events) expected[e.tid].push_back(e);
  for (auto& [tid, rows] : expected)
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Generated& a, const Generated& b) { return a.ts != b.ts ? a.ts < b.ts : a.dur > b.dur; });

  size_t tracksSeen = 0, largest = 0;
  for (const Track& track : t->tracks) {
    const SliceColumns& s = track.slices;
    if (s.size() == 0) continue;
    // The track's events are those whose External id (file order) falls on its thread.
    const int64_t first = s.externalId[0];
    EXPECT_GE(first, 0);
    EXPECT_LT(static_cast<size_t>(first), events.size());
    if (first < 0 || static_cast<size_t>(first) >= events.size()) return 0;
    const std::vector<Generated>& rows = expected.at(events[static_cast<size_t>(first)].tid);
    EXPECT_EQ(s.size(), rows.size());
    if (s.size() != rows.size()) return 0;
    largest = std::max(largest, s.size());
    ++tracksSeen;
    for (size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(s.externalId[i], rows[i].arrival) << "row " << i << " of " << rows.size();
      EXPECT_EQ(s.start[i], rows[i].ts * 1000) << "row " << i;
      EXPECT_EQ(s.dur[i], rows[i].dur * 1000) << "row " << i;
      EXPECT_EQ(t->str(s.name[i]), "op" + std::to_string(rows[i].arrival % 97)) << "row " << i;
      EXPECT_EQ(s.kind[i], SliceKind::CpuOp);
      if (s.externalId[i] != rows[i].arrival) return 0;  // one row's report, not thousands
    }
    EXPECT_EQ(s.depth.size(), s.size());
    EXPECT_EQ(s.parent.size(), s.size());
  }
  EXPECT_EQ(tracksSeen, expected.size());
  return largest;
}

TEST(TrackSort, BigAndSmallUnsortedTracksTakeTheOrderOfOneStableSort) {
  std::mt19937_64 rng(7);
  std::vector<Generated> events;
  // One thread past kBigTrack rows, its times drawn from few values so that equal
  // (start, dur) pairs abound and only the file order tells them apart.
  const int64_t big = static_cast<int64_t>(kBigTrack) + 4'000;
  for (int64_t i = 0; i < big; ++i)
    events.push_back({1, static_cast<int64_t>(rng() % 3'000), static_cast<int64_t>(rng() % 3), 0});
  // And 400 small threads, every one out of order.
  for (int64_t i = 0; i < 40'000; ++i)
    events.push_back(
        {2 + static_cast<int64_t>(rng() % 400), static_cast<int64_t>(rng() % 500), static_cast<int64_t>(rng() % 3), 0});
  std::shuffle(events.begin(), events.end(), rng);
  EXPECT_GE(expectTheOrderOfOneStableSort(events), kBigTrack);
}

// A track written as a few sorted runs one after another (a thread's ops, then what was
// written after them), the runs' times overlapping and equal (start, dur) pairs within
// and across runs: merged, the runs give the stable sort's order too, the earlier run's
// row first among equals. Two to 70 runs: the merges, and past 64 runs the sort.
TEST(TrackSort, AThreadWrittenAsAFewSortedRunsTakesTheOrderOfOneStableSort) {
  std::mt19937_64 rng(11);
  for (const int runs : {2, 3, 5, 17, 64, 65, 70}) {
    std::vector<Generated> events;
    for (int r = 0; r < runs; ++r) {
      std::vector<Generated> run;
      const size_t n = 200 + rng() % 300;
      for (size_t i = 0; i < n; ++i)
        run.push_back({1, static_cast<int64_t>(rng() % 400), static_cast<int64_t>(rng() % 3), 0});
      std::stable_sort(run.begin(), run.end(), [](const Generated& a, const Generated& b) {
        return a.ts != b.ts ? a.ts < b.ts : a.dur > b.dur;
      });
      events.insert(events.end(), run.begin(), run.end());
    }
    SCOPED_TRACE(std::to_string(runs) + " runs");
    EXPECT_EQ(expectTheOrderOfOneStableSort(events), events.size());
  }
}

}  // namespace
}  // namespace opscope
