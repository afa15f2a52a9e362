#include "timeline/fold.h"

#include <gtest/gtest.h>

#include <random>

#include "test_support.h"
#include "timeline/row_index.h"

namespace opscope::ui {
namespace {

// One row of n slices on a thread: [i * gap, i * gap + dur).
std::unique_ptr<Trace> evenRow(int n, int gapNs, int durNs) {
  std::string json = "[";
  for (int i = 0; i < n; ++i) {
    if (i) json += ',';
    json += R"({"ph":"X","cat":"cpu_op","name":"op)" + std::to_string(i % 7) + R"(","pid":1,"tid":1,"ts":)" +
            std::to_string(i * gapNs / 1000.0) + R"(,"dur":)" + std::to_string(durNs / 1000.0) + "}";
  }
  return test::loadOk(json + "]");
}

struct FoldCase {
  double nsPerPx;
  size_t maxItems;
  bool expectFolds;
};
void PrintTo(const FoldCase& c, std::ostream* os) { *os << c.nsPerPx << " ns per px, " << c.maxItems << " items"; }

class FoldRow : public ::testing::TestWithParam<FoldCase> {};

TEST_P(FoldRow, CoversEveryVisibleSliceOnceWithBoundedItems) {
  auto t = evenRow(2000, 1000, 600);  // 2000 slices of 600 ns, every 1 µs
  ASSERT_TRUE(t);
  const RowIndex rows(*t);
  const SliceColumns& s = t->slices(0);
  const auto row = rows.track(0).row(0);
  ASSERT_EQ(row.size(), 2000u);
  const TimeView v{100'000, GetParam().nsPerPx};
  const double width = 1000;
  std::vector<DrawItem> items;
  foldRow(s, row, v, width, 3.0, false, items);
  ASSERT_FALSE(items.empty());
  EXPECT_LE(items.size(), GetParam().maxItems);
  // Items are in order, do not overlap and together cover exactly the visible slices.
  size_t expectedFirst = firstVisible(s, row, v.toTime(0), false);
  size_t covered = 0;
  bool anyFold = false;
  for (size_t k = 0; k < items.size(); ++k) {
    EXPECT_EQ(items[k].first, expectedFirst) << k;
    expectedFirst += items[k].count;
    covered += items[k].count;
    anyFold |= items[k].folded();
    EXPECT_LE(items[k].x0, items[k].x1);
    if (k) {
      EXPECT_GE(items[k].x0, items[k - 1].x0);
    }
  }
  size_t visible = 0;
  for (size_t i = 0; i < s.size(); ++i)
    if (s.end(i) > v.toTime(0) && s.start[i] < v.toTime(width)) ++visible;
  EXPECT_EQ(covered, visible);
  EXPECT_EQ(anyFold, GetParam().expectFolds);
}

INSTANTIATE_TEST_SUITE_P(Zoom, FoldRow,
                         ::testing::Values(FoldCase{10, 1000, false},   // 60 px per slice: all separate
                                           FoldCase{150, 1000, false},  // 4 px per slice
                                           FoldCase{400, 400, true},    // 1.5 px: folded
                                           FoldCase{2000, 2, true},     // fully zoomed out: one block
                                           FoldCase{1e6, 2, true}));

TEST(FoldRow, WideSlicesAreNeverSwallowedByAFold) {
  // Many tiny slices, then a wide one, then tiny ones again.
  std::string json = "[";
  for (int i = 0; i < 100; ++i)
    json += R"({"ph":"X","cat":"cpu_op","name":"tiny","pid":1,"tid":1,"ts":)" + std::to_string(i * 0.01) +
            R"(,"dur":0.005},)";
  json += R"({"ph":"X","cat":"cpu_op","name":"wide","pid":1,"tid":1,"ts":1.0,"dur":50},)";
  for (int i = 0; i < 100; ++i)
    json += R"({"ph":"X","cat":"cpu_op","name":"tiny","pid":1,"tid":1,"ts":)" + std::to_string(51 + i * 0.01) +
            R"(,"dur":0.005})" + (i < 99 ? "," : "");
  auto t = test::loadOk(json + "]");
  ASSERT_TRUE(t);
  const RowIndex rows(*t);
  std::vector<DrawItem> items;
  foldRow(t->slices(0), rows.track(0).row(0), TimeView{0, 100.0}, 1000, 3.0, false, items);
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].count, 100u);
  EXPECT_EQ(items[1].count, 1u);
  EXPECT_EQ(t->str(t->slices(0).name[rows.track(0).row(0)[items[1].first]]), "wide");
  EXPECT_EQ(items[2].count, 100u);
}

TEST(FoldRow, ASliceRunningIntoTheViewIsDrawnFromTheLeftEdge) {
  auto t = evenRow(3, 10'000, 9'000);  // [0,9) [10,19) [20,29) µs
  ASSERT_TRUE(t);
  const RowIndex rows(*t);
  std::vector<DrawItem> items;
  foldRow(t->slices(0), rows.track(0).row(0), TimeView{15'000, 10.0}, 1000, 3.0, false, items);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].first, 1u);
  EXPECT_DOUBLE_EQ(items[0].x0, -1);  // clipped at the edge
}

struct HitCase {
  double x;
  int expected;  // row position, -1 for none
};
void PrintTo(const HitCase& c, std::ostream* os) { *os << "x " << c.x; }

class HitTest : public ::testing::TestWithParam<HitCase> {};

TEST_P(HitTest, FindsTheSliceUnderOrNearTheMouse) {
  auto t = evenRow(3, 10'000, 5'000);  // [0,5) [10,15) [20,25) µs
  ASSERT_TRUE(t);
  const RowIndex rows(*t);
  const TimeView v{0, 100.0};  // 10 px per µs
  const auto hit = hitTest(t->slices(0), rows.track(0).row(0), v, GetParam().x, 2.0, false);
  if (GetParam().expected < 0) {
    EXPECT_FALSE(hit);
  } else {
    ASSERT_TRUE(hit);
    EXPECT_EQ(*hit, rows.track(0).row(0)[static_cast<size_t>(GetParam().expected)]);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, HitTest,
                         ::testing::Values(HitCase{0, 0}, HitCase{25, 0}, HitCase{49.5, 0}, HitCase{51.5, 0},
                                           HitCase{75, -1}, HitCase{98.5, 1}, HitCase{120, 1}, HitCase{210, 2},
                                           HitCase{300, -1}, HitCase{-5, -1}));

TEST(RowIndex, DepthRowsOverflowRowForCrossoversAndGpuLanes) {
  auto t = test::loadOk(R"([
    {"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":0,"dur":10},
    {"ph":"X","cat":"cpu_op","name":"b","pid":1,"tid":1,"ts":1,"dur":3},
    {"ph":"X","cat":"cpu_op","name":"c","pid":1,"tid":1,"ts":2,"dur":1},
    {"ph":"X","cat":"cpu_op","name":"cross","pid":1,"tid":1,"ts":8,"dur":5},
    {"ph":"X","cat":"kernel","name":"k1","pid":0,"tid":7,"ts":0,"dur":10,"args":{"stream":7}},
    {"ph":"X","cat":"kernel","name":"k2","pid":0,"tid":7,"ts":5,"dur":10,"args":{"stream":7}}])");
  ASSERT_TRUE(t);
  const RowIndex rows(*t);
  const EventRef cross = test::only(*t, "cross"), c = test::only(*t, "c"), k2 = test::only(*t, "k2");
  const TrackRows& cpu = rows.track(cross.track);
  EXPECT_TRUE(cpu.hasOverflowRow);
  EXPECT_EQ(cpu.rowCount, 4u);  // depths 0..2, then the overflow row
  EXPECT_EQ(RowIndex::rowOf(t->tracks[cross.track], cpu, cross.index), 3u);
  EXPECT_EQ(RowIndex::rowOf(t->tracks[c.track], cpu, c.index), 2u);
  const TrackRows& gpu = rows.track(k2.track);
  EXPECT_FALSE(gpu.hasOverflowRow);
  EXPECT_EQ(gpu.rowCount, 2u);
  EXPECT_EQ(RowIndex::rowOf(t->tracks[k2.track], gpu, k2.index), 1u);
  // Every slice is in exactly one row, rows sorted by start.
  for (uint32_t tr = 0; tr < rows.trackCount(); ++tr) {
    size_t total = 0;
    for (uint32_t r = 0; r < rows.track(tr).rowCount; ++r) {
      const auto row = rows.track(tr).row(r);
      total += row.size();
      for (size_t k = 1; k < row.size(); ++k) EXPECT_LE(t->slices(tr).start[row[k - 1]], t->slices(tr).start[row[k]]);
    }
    EXPECT_EQ(total, t->slices(tr).size());
  }
}

TEST(FoldRow, RandomRowsNeverLoseOrDuplicateSlices) {
  std::mt19937 rng(11);
  for (int round = 0; round < 20; ++round) {
    std::string json = "[";
    double ts = 0;
    const int n = 500;
    for (int i = 0; i < n; ++i) {
      const double dur = std::uniform_real_distribution<double>(0.001, round % 2 ? 5.0 : 0.2)(rng);
      json += R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":)" + std::to_string(ts) + R"(,"dur":)" +
              std::to_string(dur) + R"(,"args":{"stream":7}})" + (i + 1 < n ? "," : "");
      ts += dur + std::uniform_real_distribution<double>(0.001, 1.0)(rng);
    }
    auto t = test::loadOk(json + "]");
    ASSERT_TRUE(t);
    const RowIndex rows(*t);
    const auto row = rows.track(0).row(0);
    const double span = static_cast<double>(t->maxTs - t->minTs);
    for (double zoom : {1.0, 0.3, 0.05, 0.01}) {
      const TimeView v{t->minTs + static_cast<TimeNs>(span * 0.2), span * zoom / 800};
      std::vector<DrawItem> items;
      foldRow(t->slices(0), row, v, 800, 3.0, false, items);
      size_t covered = 0;
      for (const DrawItem& it : items) covered += it.count;
      size_t visible = 0;
      for (size_t i = 0; i < t->slices(0).size(); ++i)
        if (t->slices(0).end(i) > v.toTime(0) && t->slices(0).start[i] < v.toTime(800)) ++visible;
      EXPECT_EQ(covered, visible) << "round " << round << " zoom " << zoom;
      EXPECT_LE(items.size(), 800u / 2);
    }
  }
}

// A row where one name takes 80 % of the time in every stretch: 4 slices of "gemm"
// (400 ns) then 4 of "relu" (100 ns), repeated; 1,600 slices in 2 ms.
std::unique_ptr<Trace> mostlyGemmRow() {
  std::string json = "[";
  double ts = 0;
  for (int i = 0; i < 1600; ++i) {
    const bool gemm = (i / 4) % 2 == 0;
    const double dur = gemm ? 0.4 : 0.1;
    json += std::string(i ? "," : "") + R"({"ph":"X","cat":"cpu_op","name":")" + (gemm ? "gemm" : "relu") +
            R"(","pid":1,"tid":1,"ts":)" + std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + "}";
    ts += dur + 0.5;
  }
  return test::loadOk(json + "]");
}

TEST(FoldRow, AFoldedBlockIsNamedAfterWhatTakesMostOfItsTime) {
  auto t = mostlyGemmRow();
  ASSERT_TRUE(t);
  const RowIndex rows(*t);
  const SliceColumns& s = t->slices(0);
  const auto row = rows.track(0).row(0);
  const TimeView v{t->minTs, static_cast<double>(t->maxTs - t->minTs) / 100};  // 100 px: all folded
  std::vector<DrawItem> items;
  foldRow(s, row, v, 100, kFoldPx, false, items);
  ASSERT_FALSE(items.empty());
  for (const DrawItem& it : items) {
    if (it.count < 16) continue;  // short runs at the edges may be all one name
    const DominantName d = dominantName(s, row, it);
    EXPECT_EQ(t->str(d.name), "gemm");
    // 4 x 400 ns against 4 x 100 ns: 80 % of the time, within sampling error.
    EXPECT_NEAR(d.share, 0.8, 0.08);
  }
  // The whole row as one block: sampled across it, the same answer.
  DrawItem whole{0, 100, 0, static_cast<uint32_t>(row.size())};
  const DominantName d = dominantName(s, row, whole);
  EXPECT_EQ(t->str(d.name), "gemm");
  EXPECT_GT(d.share, 0.7);
  EXPECT_LE(d.share, 1.0);
  // A single slice is its own dominant name.
  const DominantName one = dominantName(s, row, DrawItem{0, 1, 4, 1});
  EXPECT_EQ(t->str(one.name), "relu");
  EXPECT_DOUBLE_EQ(one.share, 1.0);
}

TEST(FoldRow, DrawItemAtFindsTheBlockUnderTheMouse) {
  auto t = mostlyGemmRow();
  ASSERT_TRUE(t);
  const RowIndex rows(*t);
  const SliceColumns& s = t->slices(0);
  const auto row = rows.track(0).row(0);
  const TimeView v{t->minTs, static_cast<double>(t->maxTs - t->minTs) / 100};
  std::vector<DrawItem> items;
  foldRow(s, row, v, 100, kFoldPx, false, items);
  for (const DrawItem& it : items) {
    const auto at = drawItemAt(s, row, v, 100, kFoldPx, false, (it.x0 + std::max(it.x1, it.x0 + 1)) / 2);
    ASSERT_TRUE(at);
    EXPECT_EQ(at->first, it.first);
    EXPECT_EQ(at->count, it.count);
  }
  EXPECT_FALSE(drawItemAt(s, row, v, 100, kFoldPx, false, 150));  // past the row's end
  // Zoomed in on one gemm slice (400 ns over 100 px): a slice, not a fold.
  const TimeView in{s.start[row[0]], 4.0};
  const auto slice = drawItemAt(s, row, in, 100, kFoldPx, false, 50);
  ASSERT_TRUE(slice);
  EXPECT_FALSE(slice->folded());
}

TEST(FoldRow, AClickOnAFoldedBlockTakesItsLongestSlice) {
  // 300 slices of 100 ns, one of 900 ns in the middle, all within a few pixels.
  std::string json = "[";
  for (int i = 0; i < 300; ++i) {
    if (i) json += ',';
    const int dur = i == 150 ? 900 : 100;
    json += R"({"ph":"X","cat":"cpu_op","name":"op)" + std::to_string(i) + R"(","pid":1,"tid":1,"ts":)" +
            std::to_string(i * 1.0) + R"(,"dur":)" + std::to_string(dur / 1000.0) + "}";
  }
  auto t = test::loadOk(json + "]");
  ASSERT_TRUE(t);
  const RowIndex rows(*t);
  const SliceColumns& s = t->slices(0);
  const auto row = rows.track(0).row(0);
  const TimeView v{t->minTs, static_cast<double>(t->maxTs - t->minTs) / 10};
  const auto item = drawItemAt(s, row, v, 100, kFoldPx, false, 5);
  ASSERT_TRUE(item);
  ASSERT_TRUE(item->folded());
  EXPECT_EQ(t->str(s.name[longestInItem(s, row, *item)]), "op150");
  // A single slice is its own longest.
  const DrawItem one{0, 1, 7, 1};
  EXPECT_EQ(longestInItem(s, row, one), row[7]);
}

}  // namespace
}  // namespace opscope::ui
