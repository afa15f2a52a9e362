#include "analysis/stream_usage.h"

#include <gtest/gtest.h>

#include "io/trace_loader.h"
#include "op_fixture.h"
#include "test_support.h"

namespace opscope {
namespace {

size_t streamIndex(const StreamUsageReport& r, const Trace& t, int64_t stream) {
  for (size_t i = 0; i < r.streams.size(); ++i)
    if (t.tracks[r.streams[i].track].stream == stream) return i;
  return SIZE_MAX;
}

TEST(StreamUsage, BusyIdleSplitAndOverlapByConstruction) {
  auto t = test::loadOk(test::kOpFixture);
  ASSERT_TRUE(t);
  const StreamUsageReport r = streamUsage(*t, KernelClassifier::builtin(), std::nullopt, 6);
  EXPECT_EQ(r.wall, 600'000);
  ASSERT_EQ(r.streams.size(), 3u);
  const size_t s7 = streamIndex(r, *t, 7), s8 = streamIndex(r, *t, 8), s20 = streamIndex(r, *t, 20);
  ASSERT_EQ(s7, 0u);
  const StreamUsage& a = r.streams[s7];
  EXPECT_EQ(a.events, 4u);
  EXPECT_EQ(a.busy, 30'000);
  EXPECT_EQ(a.idle, 570'000);
  // Waiting for the launches: [0,19) before k1 and [45,74) before k3.
  EXPECT_EQ(a.idleHostWait, 48'000);
  EXPECT_EQ(a.idleOther, 522'000);
  EXPECT_EQ(r.streams[s8].idleHostWait, 409'000);
  EXPECT_EQ(r.streams[s20].communication, 20'000);
  EXPECT_EQ(r.streams[s20].idleHostWait, 0);  // no launch known
  EXPECT_EQ(r.overlapOf(s7, s20), 15'000);
  EXPECT_EQ(r.overlapOf(s20, s7), 15'000);
  EXPECT_EQ(r.overlapOf(s7, s8), 0);
  EXPECT_EQ(r.overlapOf(s7, s7), 30'000);
  EXPECT_EQ(r.communication, 20'000);
  EXPECT_EQ(r.commHidden, 15'000);
  EXPECT_DOUBLE_EQ(r.commHiddenShare, 0.75);
  EXPECT_EQ(r.gpuActive, 30'000 + 5'000 + 5'000);  // k1..k3, orphan, the nccl tail, memcpy
  ASSERT_EQ(r.utilisation.size(), 6u);
  EXPECT_EQ(r.binWidth, 100'000);
  EXPECT_DOUBLE_EQ(r.utilisation[0], 0.33);  // [20,50) and [75,78)
  EXPECT_DOUBLE_EQ(r.utilisation[1], 0);
  EXPECT_DOUBLE_EQ(r.utilisation[4], 0.05);
  EXPECT_DOUBLE_EQ(r.utilisation[5], 0.02);
}

TEST(StreamUsage, RealTraceUnionsAreBounded) {
  const auto path = test::sharedTrace("mi250_minitoy_train_rocm.json.gz");
  if (!path) GTEST_SKIP() << "../shared/traces not present";
  LoadResult r = loadTraceFile(*path);
  ASSERT_EQ(r.status, LoadStatus::Ok);
  const StreamUsageReport u = streamUsage(*r.trace, KernelClassifier::builtin());
  ASSERT_FALSE(u.streams.empty());
  TimeNs maxBusy = 0, sumBusy = 0;
  for (size_t i = 0; i < u.streams.size(); ++i) {
    const StreamUsage& s = u.streams[i];
    EXPECT_EQ(s.idle + s.busy, u.wall);
    EXPECT_GE(s.idleHostWait, 0);
    EXPECT_GE(s.idleOther, 0);
    maxBusy = std::max(maxBusy, s.busy);
    sumBusy += s.busy;
    for (size_t j = 0; j < u.streams.size(); ++j) EXPECT_LE(u.overlapOf(i, j), std::min(s.busy, u.streams[j].busy));
  }
  EXPECT_GE(u.gpuActive, maxBusy);
  EXPECT_LE(u.gpuActive, sumBusy);
  for (double x : u.utilisation) {
    EXPECT_GE(x, 0);
    EXPECT_LE(x, 1 + 1e-12);
  }
}

}  // namespace
}  // namespace opscope
