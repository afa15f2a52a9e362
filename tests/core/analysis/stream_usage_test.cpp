#include "analysis/stream_usage.h"

#include <gtest/gtest.h>

#include <map>

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

// HTA's idle classes per stream, against HTA's own get_idle_time_breakdown of the same
// file (include_last_profiler_step=True, show_idle_interval_stats, HTA f4d0062): the gap
// counts and times per class, on every stream of its NCCL test rank.
TEST(StreamUsage, HtaIdleClassesAgreeWithHtaOnItsTestRank) {
  LoadResult lr = loadTraceFile(OPSCOPE_SOURCE_DIR "/tests/data/hta/ranks/sampled_rank-0.json.gz");
  ASSERT_EQ(lr.status, LoadStatus::Ok) << lr.error;
  const StreamUsageReport r = streamUsage(*lr.trace, KernelClassifier::builtin());
  struct Hta {
    uint64_t hostGaps, kernelGaps, otherGaps;
    double hostUs, kernelUs, otherUs;
  };
  // stream -> HTA's counts and sums (mean x count of its interval statistics).
  const std::map<int64_t, Hta> hta = {{7, {175, 390, 486, 397917, 3765, 598335}},
                                      {23, {101, 23, 1, 1214793, 160, 34}},
                                      {25, {1, 3, 11, 560120, 35, 100413}},
                                      {84, {5, 1, 1, 794901, 6, 3142}},
                                      {203, {1, 0, 0, 558073, 0, 0}}};
  ASSERT_EQ(r.streams.size(), hta.size());
  for (const StreamUsage& s : r.streams) {
    const int64_t stream = lr.trace->tracks[s.track].stream;
    SCOPED_TRACE(stream);
    ASSERT_TRUE(hta.count(stream));
    const Hta& h = hta.at(stream);
    EXPECT_EQ(s.htaHostWait.gapsUs.count, h.hostGaps);
    EXPECT_EQ(s.htaKernelWait.gapsUs.count, h.kernelGaps);
    EXPECT_EQ(s.htaOther.gapsUs.count, h.otherGaps);
    EXPECT_NEAR(static_cast<double>(s.htaHostWait.time) / 1000, h.hostUs, 1e-6);
    EXPECT_NEAR(static_cast<double>(s.htaKernelWait.time) / 1000, h.kernelUs, 1e-6);
    EXPECT_NEAR(static_cast<double>(s.htaOther.time) / 1000, h.otherUs, 1e-6);
    // Today's split covers the same idle time more finely: its host wait never exceeds
    // the whole stream's idle time, and HTA's classes never exceed it either.
    EXPECT_LE(s.htaHostWait.time + s.htaKernelWait.time + s.htaOther.time, s.idle);
  }
}

}  // namespace
}  // namespace opscope
