#include "analysis/device_breakdown.h"

#include <gtest/gtest.h>

#include "io/trace_loader.h"
#include "op_fixture.h"
#include "test_support.h"

namespace opscope {
namespace {

const BreakdownNode* childNamed(const Trace& t, const DeviceBreakdown& b, const BreakdownNode& n,
                                const std::string& label) {
  for (uint32_t c : n.children)
    if (breakdownLabel(t, b.nodes[c]) == label) return &b.nodes[c];
  return nullptr;
}

TEST(DeviceBreakdown, StreamThenOpsThenKernelsWithTimesAndShares) {
  auto t = test::loadOk(test::kOpFixture);
  ASSERT_TRUE(t);
  const DeviceBreakdown b = deviceBreakdown(*t);
  ASSERT_EQ(b.roots.size(), 3u);  // streams 7, 20, 8 by time
  const BreakdownNode& s7 = b.nodes[b.roots[0]];
  EXPECT_EQ(breakdownLabel(*t, s7), t->trackLabel(s7.stream));
  EXPECT_EQ(s7.time, 30'000);
  EXPECT_EQ(s7.count, 4u);
  EXPECT_EQ(b.nodes[b.roots[1]].time, 20'000);  // the nccl stream
  EXPECT_EQ(b.nodes[b.roots[2]].time, 5'000);   // the memcpy stream
  EXPECT_EQ(b.total, 55'000);
  const BreakdownNode* step = childNamed(*t, b, s7, "ProfilerStep#*");
  ASSERT_TRUE(step);
  EXPECT_EQ(step->time, 28'000);
  const BreakdownNode* linear = childNamed(*t, b, *step, "aten::linear");
  ASSERT_TRUE(linear);
  EXPECT_EQ(linear->time, 25'000);
  EXPECT_DOUBLE_EQ(linear->share, 25.0 / 30.0);
  ASSERT_EQ(linear->children.size(), 2u);
  const BreakdownNode& gemm = b.nodes[linear->children[0]];  // by time
  EXPECT_EQ(gemm.kind, BreakdownKind::Gpu);
  EXPECT_EQ(breakdownLabel(*t, gemm), "volta_sgemm_128x64_tn");
  EXPECT_EQ(gemm.time, 20'000);
  const BreakdownNode* none = childNamed(*t, b, s7, "(no launching op)");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->time, 2'000);
  // Every node's events are a contiguous range holding exactly its GPU events.
  for (const BreakdownNode& n : b.nodes) {
    ASSERT_EQ(n.endEvent - n.firstEvent, n.count) << breakdownLabel(*t, n);
    TimeNs sum = 0;
    for (uint32_t i = n.firstEvent; i < n.endEvent; ++i) {
      const EventRef e = EventRef::unpack(b.events[i]);
      EXPECT_EQ(e.track, n.stream);
      sum += t->dur(e);
    }
    EXPECT_EQ(sum, n.time) << breakdownLabel(*t, n);
  }
}

TEST(DeviceBreakdown, WindowKeepsEventsStartingInside) {
  auto t = test::loadOk(test::kOpFixture);
  ASSERT_TRUE(t);
  const DeviceBreakdown b = deviceBreakdown(*t, TimeWindow{400'000, 600'000});
  EXPECT_EQ(b.total, 7'000);  // the memcpy and the orphan kernel
  EXPECT_EQ(b.events.size(), 2u);
}

TEST(DeviceBreakdown, RealTraceTotalsAreTheGpuTimeAndSharesAddUp) {
  const auto path = test::sharedTrace("recsys_rank0_cuda.json.gz");
  if (!path) GTEST_SKIP() << "../shared/traces not present";
  LoadResult r = loadTraceFile(*path);
  ASSERT_EQ(r.status, LoadStatus::Ok);
  const DeviceBreakdown b = deviceBreakdown(*r.trace);
  TimeNs gpu = 0;
  uint64_t events = 0;
  for (const Track& tr : r.trace->tracks)
    for (size_t i = 0; i < tr.slices.size(); ++i)
      if (tr.kind == TrackKind::GpuStream && isGpuKind(tr.slices.kind[i])) {
        gpu += tr.slices.dur[i];
        ++events;
      }
  EXPECT_EQ(b.total, gpu);
  EXPECT_EQ(b.events.size(), events);
  for (const BreakdownNode& n : b.nodes) {
    if (n.children.empty()) continue;
    TimeNs sum = 0;
    for (uint32_t c : n.children) sum += b.nodes[c].time;
    EXPECT_EQ(sum, n.time);  // a node's time is exactly its children's
  }
}

}  // namespace
}  // namespace opscope
