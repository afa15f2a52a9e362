// The public traces in ../shared/traces (HTA test data), when present. Expected
// figures come from tests/tools/reference_summary.py, an independent Python
// implementation of the contract definitions (Decimal arithmetic, json module).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "analysis/summary.h"
#include "hierarchy/queries.h"
#include "report/summary_report.h"
#include "test_support.h"

namespace opscope {
namespace {

std::unique_ptr<Trace> loadShared(const std::string& name) {
  auto path = test::sharedTrace(name);
  if (!path) return nullptr;
  LoadResult r = loadTraceFile(*path);
  EXPECT_EQ(r.status, LoadStatus::Ok) << r.error;
  return std::move(r.trace);
}

#define LOAD_OR_SKIP(var, name)                              \
  auto var = loadShared(name);                               \
  if (!var) {                                                \
    GTEST_SKIP() << "../shared/traces/" name " not present"; \
  }                                                          \
  ASSERT_TRUE(var)

TEST(RealTraces, RecsysCuda) {
  LOAD_OR_SKIP(t, "recsys_rank0_cuda.json.gz");
  const Summary s = summarize(*t);
  EXPECT_EQ(s.format, "kineto-json");
  EXPECT_EQ(s.kernels, 6080u);
  EXPECT_EQ(s.gpuEvents, 7747u);
  EXPECT_EQ(s.linkedGpuEvents, 6875u);
  ASSERT_EQ(s.iterations.size(), 5u);
  EXPECT_NEAR(*s.iterationMeanNs, 214806600.0, 0.5);
  ASSERT_EQ(s.streams.size(), 6u);
  const int64_t tids[] = {7, 84, 25, 363, 285, 27};
  const TimeNs busy[] = {229813000, 171521000, 21073000, 9566000, 9258000, 8530000};
  const uint64_t events[] = {7262, 36, 35, 22, 22, 370};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(s.streams[i].tid.num, tids[i]);
    EXPECT_EQ(s.streams[i].busy, busy[i]);
    EXPECT_EQ(s.streams[i].events, events[i]);
  }
  EXPECT_EQ(s.topKernels[0].count, 80u);
  EXPECT_EQ(s.topKernels[0].total, 190345000);
  EXPECT_EQ(s.topOps[0].count, 825u);
  EXPECT_EQ(s.topOps[0].cpu, 33645000);
  EXPECT_EQ(s.topOps[0].gpu, 149600000);
  EXPECT_EQ(t->meta.rank, 0);
  EXPECT_EQ(t->meta.worldSize, 16);
  // Busy time is a union: never above the wall time.
  for (const auto& st : s.streams) EXPECT_LE(st.busy, s.wall);
  EXPECT_EQ(t->diagnostics.count(WarningKind::Crossover), 0u);
}

TEST(RealTraces, AlexnetCuda) {
  LOAD_OR_SKIP(t, "alexnet_train_cuda.json.gz");
  const Summary s = summarize(*t);
  EXPECT_EQ(s.kernels, 79u);
  EXPECT_EQ(s.gpuEvents, 98u);
  EXPECT_EQ(s.linkedGpuEvents, 98u);
  EXPECT_TRUE(s.iterations.empty());
  EXPECT_FALSE(s.iterationMeanNs);
  ASSERT_EQ(s.streams.size(), 2u);
  EXPECT_EQ(s.streams[0].busy, 65133000);
  EXPECT_EQ(s.streams[1].busy, 1070000);
  EXPECT_EQ(s.topKernels[0].name, "ampere_sgemm_32x32_sliced1x4_tn");
  EXPECT_EQ(s.topKernels[0].total, 2621000);
  EXPECT_EQ(s.topOps[0].name, "aten::to");
  EXPECT_EQ(s.topOps[0].gpu, 55503000);
  // Every kernel can be walked back to the op that launched it.
  for (const auto& [gpu, launch] : t->links.gpuToLaunch)
    EXPECT_TRUE(enclosingOp(*t, EventRef::unpack(launch)).has_value()) << t->name(EventRef::unpack(gpu));
}

TEST(RealTraces, Mi250Rocm) {
  LOAD_OR_SKIP(t, "mi250_minitoy_train_rocm.json.gz");
  const Summary s = summarize(*t);
  EXPECT_EQ(s.kernels, 14u);
  EXPECT_EQ(s.gpuEvents, 16u);
  EXPECT_EQ(s.linkedGpuEvents, 16u);
  ASSERT_EQ(s.iterations.size(), 2u);
  EXPECT_NEAR(*s.iterationMeanNs, 4668682.0, 0.5);
  ASSERT_EQ(s.streams.size(), 1u);
  EXPECT_EQ(s.streams[0].pid.num, 2);
  EXPECT_EQ(s.streams[0].busy, 149042);
  EXPECT_EQ(s.topOps[0].name, "aten::to");
  EXPECT_EQ(s.topOps[0].gpu, 38161);
  // hip launches carry their runtime name; fwdbwd flows bind forward op -> backward op.
  size_t fwdbwd = 0;
  for (const Flow& f : t->flows) fwdbwd += t->str(f.cat) == "fwdbwd";
  EXPECT_EQ(fwdbwd, 4u);
  EXPECT_EQ(t->diagnostics.count(WarningKind::WrongType), 0u) << "ROCm's hex stream strings are normal";
}

TEST(RealTraces, SimpleAddKineto) {
  LOAD_OR_SKIP(t, "simple_add_kineto.json.gz");
  const Summary s = summarize(*t);
  EXPECT_EQ(s.kernels, 4u);
  EXPECT_EQ(s.linkedGpuEvents, 4u);
}

}  // namespace
}  // namespace opscope
