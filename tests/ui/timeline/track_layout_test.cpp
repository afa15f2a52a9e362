#include "timeline/track_layout.h"

#include <gtest/gtest.h>

#include "test_support.h"
#include "timeline/time_view.h"

namespace opscope::ui {
namespace {

const char* kTrace = R"({"traceEvents":[
  {"ph":"M","name":"process_name","pid":9,"tid":0,"args":{"name":"worker"}},
  {"ph":"M","name":"process_sort_index","pid":9,"tid":0,"args":{"sort_index":1}},
  {"ph":"M","name":"process_name","pid":0,"tid":0,"args":{"name":"GPU"}},
  {"ph":"M","name":"process_sort_index","pid":0,"tid":0,"args":{"sort_index":5}},
  {"ph":"M","name":"thread_sort_index","pid":9,"tid":2,"args":{"sort_index":-1}},
  {"ph":"X","cat":"cpu_op","name":"a","pid":9,"tid":1,"ts":0,"dur":10},
  {"ph":"X","cat":"cpu_op","name":"b","pid":9,"tid":1,"ts":1,"dur":5},
  {"ph":"X","cat":"cpu_op","name":"c","pid":9,"tid":2,"ts":0,"dur":10},
  {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":20,"ts":0,"dur":10,"args":{"stream":20}},
  {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":0,"dur":10,"args":{"stream":7}},
  {"ph":"C","name":"mem","pid":9,"ts":0,"args":{"bytes":5}},
  {"ph":"C","name":"mem","pid":9,"ts":5,"args":{"bytes":7}}
]})";

// The device first (issue: an MTIA trace's device streams sat 3,000 px down under ~50
// CPU threads), then the sort indexes and ids within each group.
TEST(TrackLayout, DeviceFirstThenSortIndexesThenIds) {
  auto t = test::loadOk(kTrace);
  ASSERT_TRUE(t);
  const RowIndex rows(*t);
  const LayoutMetrics m;
  const TimelineLayout layout = layoutTracks(*t, rows, {}, m);
  std::vector<std::string> labels;
  for (const LayoutEntry& e : layout.entries) labels.push_back(e.label);
  const std::vector<std::string> expected = {
      "GPU (0)",  "GPU 0 \xC2\xB7 stream 7", "GPU 0 \xC2\xB7 stream 20", "worker (9)", "thread 2", "thread 1",
      "mem.bytes"};
  EXPECT_EQ(labels, expected);
  // Heights: two depth rows for thread 1, one for thread 2; entries tile the height.
  EXPECT_EQ(layout.entries[5].rows, 2u);
  EXPECT_EQ(layout.entries[5].height, 2 * m.rowHeight + 2 * m.trackPadding);
  int y = 0;
  for (const LayoutEntry& e : layout.entries) {
    EXPECT_EQ(e.y, y);
    y = e.bottom();
  }
  EXPECT_EQ(layout.height, y);
  EXPECT_EQ(layout.entryAt(0), 0);
  EXPECT_EQ(layout.entryAt(layout.entries[3].y + 1), 3);
  EXPECT_EQ(layout.entryAt(layout.height), -1);
  EXPECT_EQ(layout.entryAt(-1), -1);
}

TEST(TrackLayout, CollapsedProcessesKeepOnlyTheirHeader) {
  auto t = test::loadOk(kTrace);
  ASSERT_TRUE(t);
  const RowIndex rows(*t);
  const uint32_t worker = t->tracks[test::only(*t, "a").track].process;
  const TimelineLayout layout = layoutTracks(*t, rows, {worker});
  // The GPU process (header and two streams), then the folded worker's header alone.
  ASSERT_EQ(layout.entries.size(), 4u);
  EXPECT_EQ(layout.entries[0].kind, LayoutEntry::Kind::ProcessHeader);
  EXPECT_EQ(layout.entries[3].kind, LayoutEntry::Kind::ProcessHeader);
  EXPECT_EQ(layout.entries[3].process, worker);
  EXPECT_EQ(layout.entryOfTrack(test::only(*t, "a").track), -1);
}

// A thread nested 12 deep and a GPU stream with 3 overlapping kernels (3 lanes).
std::string deepTrace() {
  std::string j = R"({"traceEvents":[)";
  for (int d = 0; d < 12; ++d)
    j += R"({"ph":"X","cat":"cpu_op","name":"d)" + std::to_string(d) + R"(","pid":1,"tid":1,"ts":)" +
         std::to_string(d) + R"(,"dur":)" + std::to_string(100 - 2 * d) + "},";
  for (int k = 0; k < 3; ++k)
    j += R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":)" + std::to_string(k) +
         R"(,"dur":50,"args":{"stream":7}},)";
  j.back() = ']';
  return j + "}";
}

TEST(TrackLayout, DeepThreadsShowABoundedNumberOfRowsUntilExpanded) {
  auto t = test::loadOk(deepTrace());
  ASSERT_TRUE(t);
  const RowIndex rows(*t);
  const uint32_t thread = test::only(*t, "d0").track;
  const uint32_t stream = test::slicesNamed(*t, "k").front().track;
  LayoutMetrics m;
  m.collapsedRows = 4;
  TimelineLayout layout = layoutTracks(*t, rows, {}, m);
  const LayoutEntry* e = &layout.entries[layout.entryOfTrack(thread)];
  EXPECT_EQ(e->rows, 4u);
  EXPECT_EQ(e->hiddenRows, 8u);
  EXPECT_EQ(e->height, 4 * m.rowHeight + 2 * m.trackPadding);
  // GPU streams are never bounded: every lane of overlapping kernels stays visible.
  const LayoutEntry& g = layout.entries[layout.entryOfTrack(stream)];
  EXPECT_GE(g.rows, 3u);
  EXPECT_EQ(g.hiddenRows, 0u);

  layout = layoutTracks(*t, rows, {}, m, {thread});
  e = &layout.entries[layout.entryOfTrack(thread)];
  EXPECT_EQ(e->rows, 12u);
  EXPECT_EQ(e->hiddenRows, 0u);
  m.collapsedRows = 0;  // no bound
  layout = layoutTracks(*t, rows, {}, m);
  EXPECT_EQ(layout.entries[layout.entryOfTrack(thread)].rows, 12u);
}

}  // namespace
}  // namespace opscope::ui

namespace opscope::ui {
namespace {

// Pinned tracks first, hidden ones gone, a moved track where the user put it.
TEST(TrackLayout, TheUsersArrangementPinsHidesAndMovesTracks) {
  auto t = test::loadOk(kTrace);
  ASSERT_TRUE(t);
  const RowIndex rows(*t);
  const EventRef c = test::only(*t, "c"), a = test::slicesNamed(*t, "a").at(0);
  uint32_t stream20 = 0;
  for (EventRef k : test::slicesNamed(*t, "k"))
    if (t->tracks[k.track].stream == 20) stream20 = k.track;
  TrackArrangement arr;
  arr.pinned = {c.track};
  arr.hidden = {stream20};
  arr.order[t->tracks[a.track].process] = {a.track};  // thread 1 before thread 2
  const TimelineLayout layout = layoutTracks(*t, rows, {}, {}, {}, {}, {}, arr);
  std::vector<std::string> labels;
  for (const LayoutEntry& e : layout.entries) labels.push_back(e.label);
  const std::vector<std::string> expected = {
      "pinned \xC2\xB7 thread 2", "GPU (0)", "GPU 0 \xC2\xB7 stream 7", "worker (9)", "thread 1", "mem.bytes"};
  EXPECT_EQ(labels, expected);
  EXPECT_EQ(layout.entryOfTrack(c.track), 0);
  EXPECT_EQ(layout.entryOfTrack(stream20), -1);
  const std::vector<uint32_t> defaults = defaultTrackOrder(*t, t->tracks[a.track].process);
  ASSERT_EQ(defaults.size(), 2u);
  EXPECT_EQ(defaults[0], c.track);  // thread 2 by its sort index
}

// Drift fixed: the rank header's clock offset was formatted by the command line's
// reportDuration ("+1.500 ms" whatever Preferences ▸ Time unit said); every view of
// the window now formats durations in the user's unit.
TEST(TrackLayout, RankHeadersShowTheClockOffsetInTheUsersUnit) {
  auto t = test::loadOk(R"([{"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":0,"dur":5}])");
  ASSERT_TRUE(t);
  t->processes[0].rank = 3;
  t->meta.sessionRanks.push_back({3, 1'500'000, "rank3.json"});
  setTimeUnit(TimeUnit::Us);
  const std::string us = rankHeaderLabel(*t, 3);
  setTimeUnit(TimeUnit::Auto);
  EXPECT_NE(us.find("clock +1500 \xC2\xB5s"), std::string::npos) << us;
  EXPECT_NE(rankHeaderLabel(*t, 3).find("clock +1.50 ms"), std::string::npos) << rankHeaderLabel(*t, 3);
}

}  // namespace
}  // namespace opscope::ui
