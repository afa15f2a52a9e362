#include "analysis/range_aggregate.h"

#include <gtest/gtest.h>

#include "navigation_fixture.h"
#include "test_support.h"

namespace opscope {
namespace {

const RangeRow* rowFor(const Trace& t, const std::vector<RangeRow>& rows, TrackKind kind, std::string_view name) {
  for (const RangeRow& r : rows)
    if (r.trackKind == kind && t.str(r.name) == name) return &r;
  return nullptr;
}

TEST(RangeAggregate, CountsTotalsAndClippedTimeByKindAndName) {
  auto t = test::loadOk(test::kNavigationTrace);
  ASSERT_TRUE(t);
  // [20 µs, 58 µs): the step and first linear reach in from before; the second linear
  // starts inside; the memcpy (60) is out.
  const auto rows = aggregateRange(*t, {}, 20'000, 58'000);
  const RangeRow* linear = rowFor(*t, rows, TrackKind::Thread, "aten::linear");
  ASSERT_TRUE(linear);
  EXPECT_EQ(linear->count, 2u);
  EXPECT_EQ(linear->total, 60'000);
  EXPECT_EQ(linear->mean(), 30'000);
  EXPECT_EQ(linear->inRange, (50'000 - 20'000) + (58'000 - 55'000));
  const RangeRow* launch = rowFor(*t, rows, TrackKind::Thread, "cudaLaunchKernel");
  ASSERT_TRUE(launch);
  EXPECT_EQ(launch->count, 2u);  // 25 and 57; the one at 14..19 ended before 20
  const RangeRow* gemm = rowFor(*t, rows, TrackKind::GpuStream, "sgemm_128x64");
  ASSERT_TRUE(gemm);
  EXPECT_EQ(gemm->inRange, 30'000);
  EXPECT_FALSE(rowFor(*t, rows, TrackKind::GpuStream, "Memcpy HtoD"));
  EXPECT_FALSE(rowFor(*t, rows, TrackKind::Thread, "LinearBackward0"));
  // CPU rows come before GPU rows, each by total descending.
  for (size_t k = 1; k < rows.size(); ++k) {
    ASSERT_LE(rows[k - 1].trackKind, rows[k].trackKind);
    if (rows[k - 1].trackKind == rows[k].trackKind) {
      EXPECT_GE(rows[k - 1].total, rows[k].total);
    }
  }
}

TEST(RangeAggregate, OnlyTheGivenTracks) {
  auto t = test::loadOk(test::kNavigationTrace);
  ASSERT_TRUE(t);
  const EventRef memcpy = test::only(*t, "Memcpy HtoD");
  const uint32_t tracks[] = {memcpy.track};
  const auto rows = aggregateRange(*t, tracks, 0, 200'000);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(t->str(rows[0].name), "Memcpy HtoD");
  EXPECT_TRUE(aggregateRange(*t, tracks, 0, 60'000).empty());  // ends where it starts
}

}  // namespace
}  // namespace opscope
