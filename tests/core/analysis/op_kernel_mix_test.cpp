#include "analysis/op_kernel_mix.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "io/trace_loader.h"
#include "op_fixture.h"
#include "test_support.h"

namespace opscope {
namespace {

TEST(OpKernelMix, VariantsAreDistinctKernelSetsWithFractions) {
  auto t = test::loadOk(test::kOpFixture);
  ASSERT_TRUE(t);
  const OpKernelMixes m = opKernelMixes(*t, KernelClassifier::builtin());
  ASSERT_EQ(m.ops.size(), 2u);  // orphan and nccl kernels have no op
  EXPECT_EQ(m.total, 33'000);
  const OpMix& linear = m.ops[0];
  EXPECT_EQ(t->str(linear.name), "aten::linear");
  EXPECT_EQ(linear.time, 25'000);
  ASSERT_EQ(linear.variants.size(), 1u);
  const OpVariant& v = linear.variants[0];
  ASSERT_EQ(v.segments.size(), 2u);
  EXPECT_EQ(t->str(v.segments[0].kernel), "volta_sgemm_128x64_tn");
  EXPECT_EQ(m.classes[static_cast<size_t>(v.segments[0].cls)], "gemm");
  EXPECT_DOUBLE_EQ(v.segments[0].fraction, 0.8);
  EXPECT_DOUBLE_EQ(v.segments[1].fraction, 0.2);
  EXPECT_EQ(m.classes[static_cast<size_t>(v.segments[1].cls)], "elementwise");
  const OpMix& relu = m.ops[1];
  EXPECT_EQ(relu.calls, 2u);
  ASSERT_EQ(relu.variants.size(), 2u);  // one call ran a kernel, the other a memcpy
  EXPECT_EQ(relu.variants[0].time, 5'000);
  EXPECT_EQ(relu.variants[1].time, 3'000);
  EXPECT_DOUBLE_EQ(relu.variants[0].segments[0].fraction, 1.0);
  // Each segment's events are its kernel's events in that variant.
  for (const OpMix& op : m.ops)
    for (const OpVariant& var : op.variants)
      for (const MixSegment& s : var.segments) {
        ASSERT_EQ(s.endEvent - s.firstEvent, s.count);
        for (uint32_t i = s.firstEvent; i < s.endEvent; ++i)
          EXPECT_EQ(t->nameId(EventRef::unpack(var.events[i])), s.kernel);
      }
}

TEST(OpKernelMix, TopOpsAndVariantLimits) {
  auto t = test::loadOk(test::kOpFixture);
  ASSERT_TRUE(t);
  const OpKernelMixes m = opKernelMixes(*t, KernelClassifier::builtin(), std::nullopt, 1, 1);
  ASSERT_EQ(m.ops.size(), 1u);
  const OpKernelMixes r = opKernelMixes(*t, KernelClassifier::builtin(), std::nullopt, 8, 1);
  EXPECT_EQ(r.ops[1].variants.size(), 1u);
  EXPECT_EQ(r.ops[1].hiddenVariants, 1u);
  EXPECT_EQ(r.ops[1].hiddenTime, 3'000);
}

TEST(OpKernelTable, GroupsCallsByInputShapes) {
  auto t = test::loadOk(test::kOpFixture);
  ASSERT_TRUE(t);
  const OpKernelTable all = opKernelTable(*t, KernelClassifier::builtin(), "aten::relu", false);
  ASSERT_EQ(all.groups.size(), 1u);
  EXPECT_EQ(all.groups[0].calls, 2u);
  EXPECT_EQ(all.groups[0].gpuTime, 8'000);
  EXPECT_EQ(all.groups[0].cpuTime, 37'000);
  ASSERT_EQ(all.groups[0].kernels.size(), 2u);
  const OpKernelTable shaped = opKernelTable(*t, KernelClassifier::builtin(), "aten::relu", true);
  ASSERT_EQ(shaped.groups.size(), 2u);
  EXPECT_EQ(shaped.groups[0].shapes, "[[4,4]]");
  EXPECT_EQ(shaped.groups[0].gpuTime, 5'000);
  EXPECT_EQ(shaped.groups[1].shapes, "[[8,32]]");
  ASSERT_EQ(shaped.groups[1].kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(shaped.groups[1].kernels[0].mean, 3'000);
  EXPECT_TRUE(shaped.error.empty());
}

TEST(OpKernelMix, RealTraceVariantsCoverTheirOpsTime) {
  const auto path = test::sharedTrace("recsys_rank0_cuda.json.gz");
  if (!path) GTEST_SKIP() << "../shared/traces not present";
  LoadResult r = loadTraceFile(*path);
  ASSERT_EQ(r.status, LoadStatus::Ok);
  const OpKernelMixes m = opKernelMixes(*r.trace, KernelClassifier::builtin(), std::nullopt, 8, 1000);
  ASSERT_FALSE(m.ops.empty());
  for (size_t i = 0; i < m.ops.size(); ++i) {
    const OpMix& op = m.ops[i];
    if (i > 0) {
      EXPECT_LE(op.time, m.ops[i - 1].time);
    }
    TimeNs sum = 0;
    uint64_t calls = 0;
    for (const OpVariant& v : op.variants) {
      sum += v.time;
      calls += v.calls;
      double f = 0;
      for (const MixSegment& s : v.segments) f += s.fraction;
      EXPECT_NEAR(f, 1.0, 1e-9);
    }
    EXPECT_EQ(sum, op.time);
    EXPECT_EQ(calls, op.calls);
  }
}

// By shape on a plain file (the calls' "Input Dims" read back in one pass): each group
// holds the calls whose own args, read one call at a time, give its shapes, on real
// traces other tools wrote, for their most called ops.
TEST(OpKernelTable, ShapesReadInOnePassGroupEachCallByItsOwnArgs) {
  for (const auto& [gz, op] : std::vector<std::pair<std::string, std::string>>{
           {"tests/data/pytorch_h100/h100_resnet50_train.pt.trace.json.gz", "aten::conv2d"},
           {"tests/data/tracelens/h100_Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz", "aten::linear"}}) {
    SCOPED_TRACE(gz);
    const std::string path = test::plainCopy(OPSCOPE_SOURCE_DIR "/" + gz, "op_table_plain.json");
    LoadResult r = loadTraceFile(path);
    ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
    const Trace& t = *r.trace;
    ASSERT_TRUE(t.lazyArgs);
    const OpKernelTable table = opKernelTable(t, KernelClassifier::builtin(), op, true);
    EXPECT_TRUE(table.error.empty()) << table.error;
    // shapes -> (calls, their summed durations), each call's args read alone
    std::map<std::string, std::pair<uint64_t, TimeNs>> want;
    for (uint32_t tr = 0; tr < t.tracks.size(); ++tr) {
      if (t.tracks[tr].kind != TrackKind::Thread) continue;
      for (uint32_t i = 0; i < t.tracks[tr].slices.size(); ++i) {
        const EventRef e{tr, i};
        if (!isOpKind(t.kind(e)) || t.name(e) != op) continue;
        bool nested = false;
        for (auto p = t.parent(e); p && !nested; p = t.parent(*p)) nested = t.name(*p) == op;
        if (nested) continue;
        std::string shapes;
        for (const NamedArg& a : t.args(e))
          if (a.key == "Input Dims") shapes = a.text;
        ++want[shapes].first;
        want[shapes].second += t.dur(e);
      }
    }
    std::map<std::string, std::pair<uint64_t, TimeNs>> got;
    for (const OpShapeGroup& g : table.groups) got[g.shapes] = {g.calls, g.cpuTime};
    EXPECT_EQ(got, want);
    EXPECT_GT(want.size(), 3u);  // several shapes: calls could be grouped wrongly
  }
}

}  // namespace
}  // namespace opscope
