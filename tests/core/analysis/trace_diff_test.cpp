// opscope diff: B built from A by removing, adding and stretching known ops and kernels;
// the diff must report exactly those, and a trace diffed with itself nothing.
#include "analysis/trace_diff.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "io/trace_loader.h"
#include "report/diff_report.h"
#include "test_support.h"

namespace opscope {
namespace {

struct Op {
  std::string name, shape, kernel;
  double dur = 10, kernelDur = 5;  // µs
};

// One ProfilerStep per entry of steps, each running its ops one after another on one
// thread; every op launches its kernel on stream 7 (cudaLaunchKernel, correlation ids).
std::string stepsTrace(const std::vector<std::vector<Op>>& steps) {
  std::string events;
  double t = 0;
  int corr = 1;
  auto add = [&](const std::string& e) { events += (events.empty() ? "" : ",\n") + e; };
  for (size_t s = 0; s < steps.size(); ++s) {
    double length = 2;
    for (const Op& op : steps[s]) length += op.dur + 1;
    add(R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#)" + std::to_string(s) +
        R"(", "pid": 1, "tid": 1, "ts": )" + std::to_string(t) + R"(, "dur": )" + std::to_string(length) + "}");
    double at = t + 1;
    for (const Op& op : steps[s]) {
      const std::string shape = op.shape.empty() ? "" : R"(, "args": {"Input Dims": )" + op.shape + "}";
      add(R"({"ph": "X", "cat": "cpu_op", "name": ")" + op.name + R"(", "pid": 1, "tid": 1, "ts": )" +
          std::to_string(at) + R"(, "dur": )" + std::to_string(op.dur) + shape + "}");
      add(R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": )" +
          std::to_string(at + 1) + R"(, "dur": 2, "args": {"correlation": )" + std::to_string(corr) + "}}");
      // The GPU runs behind the host: each kernel starts well after its launch.
      add(R"({"ph": "X", "cat": "kernel", "name": ")" + op.kernel + R"(", "pid": 0, "tid": 7, "ts": )" +
          std::to_string(at + 50) + R"(, "dur": )" + std::to_string(op.kernelDur) + R"(, "args": {"correlation": )" +
          std::to_string(corr) + R"(, "device": 0, "stream": 7}})");
      ++corr;
      at += op.dur + 1;
    }
    t += length + 100;
  }
  return "{\"traceEvents\": [\n" + events + "\n]}";
}

const DiffRow* row(const std::vector<DiffRow>& rows, const std::string& name, const std::string& shape = "") {
  for (const DiffRow& r : rows)
    if (r.name == name && r.shape == shape) return &r;
  return nullptr;
}

const Op kMmSmall{"aten::mm", "[[2,3],[3,4]]", "gemm_small", 10, 5};
const Op kMmLarge{"aten::mm", "[[64,64],[64,64]]", "gemm_large", 20, 8};
const Op kRelu{"aten::relu", "[[2,4]]", "relu_kernel", 4, 2};
const Op kAdd{"aten::add", "[[2,4],[2,4]]", "add_kernel", 3, 1};

TEST(TraceDiff, ReportsExactlyTheRemovedAddedAndStretchedRows) {
  const auto a = test::loadOk(stepsTrace({{kMmSmall, kMmLarge, kRelu}, {kMmSmall, kMmLarge, kRelu}}));
  // B: relu removed, add added, the small mm twice as long (op and kernel), the large mm unchanged.
  Op stretched = kMmSmall;
  stretched.dur *= 2;
  stretched.kernelDur *= 2;
  const auto b = test::loadOk(stepsTrace({{stretched, kMmLarge, kAdd}, {stretched, kMmLarge, kAdd}}));
  const TraceDiff d = diffTraces(*a, *b);

  // Four ops and the launches: six calls of cudaLaunchKernel on each side, unchanged.
  ASSERT_EQ(d.ops.size(), 5u);
  const DiffRow* launches = row(d.ops, "cudaLaunchKernel");
  ASSERT_TRUE(launches);
  EXPECT_EQ(launches->countA, 6u);
  EXPECT_EQ(launches->countB, 6u);
  EXPECT_EQ(launches->delta(), 0);
  const DiffRow* small = row(d.ops, "aten::mm", "[[2,3],[3,4]]");
  ASSERT_TRUE(small);
  EXPECT_EQ(small->countA, 2u);
  EXPECT_EQ(small->countB, 2u);
  EXPECT_EQ(small->totalA, 20000);
  EXPECT_EQ(small->totalB, 40000);
  const DiffRow* large = row(d.ops, "aten::mm", "[[64,64],[64,64]]");
  ASSERT_TRUE(large);
  EXPECT_EQ(large->delta(), 0);
  const DiffRow* relu = row(d.ops, "aten::relu", "[[2,4]]");
  ASSERT_TRUE(relu);
  EXPECT_EQ(relu->countB, 0u);  // removed: B's side is 0
  EXPECT_EQ(relu->totalB, 0);
  EXPECT_EQ(relu->delta(), -8000);
  const DiffRow* add = row(d.ops, "aten::add", "[[2,4],[2,4]]");
  ASSERT_TRUE(add);
  EXPECT_EQ(add->countA, 0u);  // added: A's side is 0
  EXPECT_EQ(add->delta(), 6000);
  // Sorted by |delta|: the stretched mm (+20 µs), relu (-8), add (+6), the large mm (0).
  EXPECT_EQ(&d.ops[0], small);
  EXPECT_EQ(&d.ops[1], relu);
  EXPECT_EQ(&d.ops[2], add);

  ASSERT_EQ(d.kernels.size(), 4u);
  EXPECT_EQ(d.kernels[0].name, "gemm_small");
  EXPECT_EQ(d.kernels[0].delta(), 10000);
  EXPECT_EQ(row(d.kernels, "relu_kernel")->countB, 0u);
  EXPECT_EQ(row(d.kernels, "add_kernel")->countA, 0u);
  EXPECT_EQ(row(d.kernels, "add_kernel")->totalB, 2000);
  EXPECT_EQ(row(d.kernels, "gemm_large")->delta(), 0);
  EXPECT_EQ(d.iterationWallA.size(), 2u);

  // The JSON contract: every key, one-sided rows with the other side 0.
  const auto j = nlohmann::json::parse(traceDiffJson(d, {"a.json", "b.json", "", "", false}));
  for (const char* key : {"a", "b", "ops", "kernels", "iteration_us_a", "iteration_us_b"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["ops"][0]["name"], "aten::mm");
  EXPECT_EQ(j["ops"][0]["shape"], "[[2,3],[3,4]]");
  EXPECT_EQ(j["ops"][0]["delta_us"], 20.0);
  EXPECT_EQ(j["ops"][1]["count_b"], 0);
  EXPECT_EQ(j["ops"][1]["total_us_b"], 0.0);
  EXPECT_TRUE(j["ops"][2]["ratio"].is_null());  // nothing in A to divide by
  EXPECT_FALSE(j["kernels"][0].contains("shape"));
  EXPECT_EQ(j["kernels"][0]["ratio"], 2.0);
  EXPECT_EQ(j["totals"]["op_rows_added"], 1);
  EXPECT_EQ(j["totals"]["kernel_rows_removed"], 1);
}

TEST(TraceDiff, KernelBaseNamesAndVendorNeutralCalls) {
  EXPECT_EQ(kernelBaseName("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)"),
            "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t");
  EXPECT_EQ(
      kernelBaseName("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                     "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, "
                     "1>)"),
      "at::native::vectorized_elementwise_kernel");
  EXPECT_EQ(kernelBaseName("void at::native::(anonymous namespace)::softmax_warp_forward<float, float, float, 8, "
                           "false>(float*, float const*, int, int, int)"),
            "at::native::(anonymous namespace)::softmax_warp_forward");
  EXPECT_EQ(kernelBaseName("triton_poi_fused_add_0"), "triton_poi_fused_add_0");
  EXPECT_EQ(kernelBaseName("Foo<int>::bar<float>(int)"), "Foo::bar");
  EXPECT_EQ(kernelBaseName("(broken"), "(broken");  // nothing left: the name as it is
  EXPECT_EQ(vendorNeutralCallName("cudaLaunchKernel"), "LaunchKernel");
  EXPECT_EQ(vendorNeutralCallName("hipLaunchKernel"), "LaunchKernel");
  EXPECT_EQ(vendorNeutralCallName("hipExtModuleLaunchKernel"), "LaunchKernel");
  EXPECT_EQ(vendorNeutralCallName("cuLaunchKernel"), "LaunchKernel");
  EXPECT_EQ(vendorNeutralCallName("hipMemcpyAsync"), vendorNeutralCallName("cudaMemcpyAsync"));
  EXPECT_EQ(vendorNeutralCallName("cudnnConvolutionForward"), "");  // a library, not the runtime
  EXPECT_EQ(vendorNeutralCallName("aten::mm"), "");
  EXPECT_EQ(vendorNeutralCallName("cuda"), "");
}

// A trace of `calls` launches through `runtime` of each named kernel (count times each).
std::string launches(const std::string& runtime, const std::vector<std::pair<std::string, int>>& kernels) {
  std::string events;
  double t = 0;
  int corr = 1;
  auto add = [&](const std::string& e) { events += (events.empty() ? "" : ",\n") + e; };
  for (const auto& [name, count] : kernels)
    for (int i = 0; i < count; ++i, t += 20, ++corr) {
      add(R"({"ph": "X", "cat": "cuda_runtime", "name": ")" + runtime + R"(", "pid": 1, "tid": 1, "ts": )" +
          std::to_string(t) + R"(, "dur": 2, "args": {"correlation": )" + std::to_string(corr) + "}}");
      add(R"({"ph": "X", "cat": "kernel", "name": ")" + name + R"(", "pid": 0, "tid": 7, "ts": )" +
          std::to_string(t + 5) + R"(, "dur": 4, "args": {"correlation": )" + std::to_string(corr) +
          R"(, "device": 0, "stream": 7}})");
    }
  return "{\"traceEvents\": [\n" + events + "\n]}";
}

TEST(TraceDiff, SignaturesThatDifferAndOtherVendorsCallsStillMatch) {
  // The same NCCL kernel, its parameter list changed between the two builds; two
  // instantiations of one template present on both sides; CUDA against HIP launches.
  const auto a = test::loadOk(launches(
      "cudaLaunchKernel",
      {{"ncclKernel_AllReduce(ncclDevComm*, long, ncclWork*)", 80}, {"fill<float>(int)", 3}, {"fill<half>(int)", 2}}));
  const auto b =
      test::loadOk(launches("hipLaunchKernel", {{"ncclKernel_AllReduce(ncclDevComm*, unsigned long, ncclWork*)", 42},
                                                {"fill<float>(int)", 3},
                                                {"fill<half>(int)", 2}}));
  ASSERT_TRUE(a && b);
  const TraceDiff d = diffTraces(*a, *b);
  ASSERT_EQ(d.kernels.size(), 3u);  // not 4: no "only in A" and "only in B" for one kernel
  const DiffRow* nccl = row(d.kernels, "ncclKernel_AllReduce");
  ASSERT_TRUE(nccl);
  EXPECT_EQ(nccl->match, DiffRow::Match::kBaseName);
  EXPECT_EQ(nccl->countA, 80u);
  EXPECT_EQ(nccl->countB, 42u);
  EXPECT_EQ(nccl->namesA, std::vector<std::string>{"ncclKernel_AllReduce(ncclDevComm*, long, ncclWork*)"});
  EXPECT_EQ(nccl->namesB, std::vector<std::string>{"ncclKernel_AllReduce(ncclDevComm*, unsigned long, ncclWork*)"});
  // Exact matches first: the two instantiations stay apart.
  ASSERT_TRUE(row(d.kernels, "fill<float>(int)"));
  EXPECT_EQ(row(d.kernels, "fill<float>(int)")->match, DiffRow::Match::kName);
  EXPECT_EQ(row(d.kernels, "fill<half>(int)")->countB, 2u);
  ASSERT_EQ(d.ops.size(), 1u);
  EXPECT_EQ(d.ops[0].name, "cudaLaunchKernel / hipLaunchKernel");
  EXPECT_EQ(d.ops[0].match, DiffRow::Match::kRuntimeCall);
  EXPECT_EQ(d.ops[0].countA, 85u);
  EXPECT_EQ(d.ops[0].countB, 47u);
  // The contract gains fields only: "match" on every row, each side's names where they differ.
  const auto j = nlohmann::json::parse(traceDiffJson(d, {"a", "b", "", "", false}));
  for (const auto& k : j["kernels"]) {
    EXPECT_TRUE(k.contains("name") && k.contains("count_a") && k.contains("match"));
    if (k["name"] == "ncclKernel_AllReduce") {
      EXPECT_EQ(k["match"], "base name");
      EXPECT_EQ(k["names_b"][0], "ncclKernel_AllReduce(ncclDevComm*, unsigned long, ncclWork*)");
    } else {
      EXPECT_EQ(k["match"], "name");
      EXPECT_FALSE(k.contains("names_a"));
    }
  }
  EXPECT_EQ(j["ops"][0]["match"], "runtime call");
  EXPECT_EQ(traceDiffCsv(d).substr(0, traceDiffCsv(d).find('\n')),
            "table,name,shape,count_a,count_b,total_us_a,total_us_b,delta_us,match");
}

// Copies keep their kind: pinned against pageable is a finding.
TEST(TraceDiff, CopiesOfAnotherKindAreNotMerged) {
  DiffRow x{"Memcpy HtoD (Pinned -> Device)", "", 1, 0, 10, 0, DiffRow::Match::kName, {}, {}};
  EXPECT_EQ(kernelBaseName(x.name), "Memcpy HtoD");  // the base name alone would merge them
  const auto a = test::loadOk(R"J({"traceEvents": [
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 7, "ts": 1, "dur": 3, "args": {"device": 0, "stream": 7}}]})J");
  const auto b = test::loadOk(R"J({"traceEvents": [
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 1, "dur": 3, "args": {"device": 0, "stream": 7}}]})J");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(diffTraces(*a, *b).kernels.size(), 2u);
}

TEST(TraceDiff, ATraceAgainstItselfHasNoDelta) {
  auto check = [](const Trace& t) {
    const TraceDiff d = diffTraces(t, t);
    EXPECT_FALSE(d.ops.empty());
    EXPECT_FALSE(d.kernels.empty());
    for (const auto* rows : {&d.ops, &d.kernels})
      for (const DiffRow& r : *rows) {
        EXPECT_EQ(r.delta(), 0) << r.name;
        EXPECT_EQ(r.countA, r.countB) << r.name;
        EXPECT_GT(r.countA, 0u) << r.name;
      }
    EXPECT_EQ(d.iterationWallA, d.iterationWallB);
  };
  const LoadResult sample = loadTraceFile(OPSCOPE_SOURCE_DIR "/resources/sample/sample.pt.trace.json.gz");
  ASSERT_EQ(sample.status, LoadStatus::Ok);
  check(*sample.trace);
  // Real traces other tools wrote, when the shared folder is there.
  for (const char* name :
       {"recsys_rank0_cuda.json.gz", "alexnet_train_cuda.json.gz", "mi250_minitoy_train_rocm.json.gz"}) {
    const auto path = test::sharedTrace(name);
    if (!path) continue;
    const LoadResult r = loadTraceFile(*path);
    ASSERT_EQ(r.status, LoadStatus::Ok) << name;
    SCOPED_TRACE(name);
    check(*r.trace);
  }
}

TEST(TraceDiff, IterationRangesAndPerIterationTotals) {
  // Three steps; the third runs an extra relu. Steps 0 and 2 differ by exactly that.
  const auto t = test::loadOk(stepsTrace({{kMmSmall, kMmLarge}, {kMmSmall, kMmLarge}, {kMmSmall, kMmLarge, kRelu}}));
  ASSERT_EQ(t->iterations.size(), 3u);
  DiffOptions o;
  o.windowA = iterationWindow(t->iterations, 0, 1);
  o.windowB = iterationWindow(t->iterations, 2, 1);
  const TraceDiff d = diffTraces(*t, *t, o);
  // The relu op, its kernel and its launch (2 µs) are the only differences.
  for (const auto* rows : {&d.ops, &d.kernels})
    for (const DiffRow& r : *rows) {
      const bool relu = r.name == "aten::relu" || r.name == "relu_kernel";
      const bool launch = r.name == "cudaLaunchKernel";
      EXPECT_EQ(r.delta(), relu ? (r.name == "aten::relu" ? 4000 : 2000) : launch ? 2000 : 0) << r.name;
      EXPECT_EQ(r.countB, relu ? 1u : launch ? r.countA + 1 : r.countA) << r.name;
    }
  // Kernels count by their launch: each runs 50 µs after it, past the host end of its
  // step, and still counts in that step.
  EXPECT_EQ(row(d.kernels, "gemm_large")->countA, 1u);
  ASSERT_EQ(d.iterationWallA.size(), 1u);

  // Two steps against four identical ones: per iteration nothing changed.
  const auto two = test::loadOk(stepsTrace({{kMmSmall}, {kMmSmall}}));
  const auto four = test::loadOk(stepsTrace({{kMmSmall}, {kMmSmall}, {kMmSmall}, {kMmSmall}}));
  DiffOptions per;
  per.perIteration = true;
  const TraceDiff p = diffTraces(*two, *four, per);
  EXPECT_EQ(row(p.ops, "aten::mm", "[[2,3],[3,4]]")->delta(), 0);
  EXPECT_EQ(row(p.ops, "aten::mm", "[[2,3],[3,4]]")->countB, 4u);
  EXPECT_EQ(row(p.kernels, "gemm_small")->totalB, 5000);
  EXPECT_EQ(diffTraces(*two, *four).kernels[0].delta(), 10000);  // without it: two more kernels
}

}  // namespace
}  // namespace opscope

namespace opscope {
namespace {

// HTA's own trace-compare fixture (tests/data/hta/README.md) and the answer HTA's
// test_trace_diff.py publishes for ProfilerStep#1010 (iteration 1) of base against test:
// CPU ops added AddmmBackward0, All2All_Pooled_Req, CatBackward0; deleted nccl:all_reduce;
// unchanged aten::as_strided, aten::empty, cudaEventQuery, cudaLaunchKernel (HTA also
// lists ProfilerStep#1010, which opscope leaves out); one GPU kernel deleted.
TEST(TraceDiff, HtaCompareFixtureGivesHtasPublishedChanges) {
  const std::string dir = OPSCOPE_SOURCE_DIR "/tests/data/hta/";
  const LoadResult a = loadTraceFile(dir + "compare_base.json.gz");
  const LoadResult b = loadTraceFile(dir + "compare_test.json.gz");
  ASSERT_EQ(a.status, LoadStatus::Ok) << a.error;
  ASSERT_EQ(b.status, LoadStatus::Ok) << b.error;
  DiffOptions o;
  o.windowA = iterationWindow(a.trace->iterations, 1, 1);
  o.windowB = iterationWindow(b.trace->iterations, 1, 1);
  ASSERT_TRUE(o.windowA && o.windowB);
  const TraceDiff d = diffTraces(*a.trace, *b.trace, o);
  std::set<std::string> added, deleted, unchanged;
  for (const DiffRow& r : d.ops) (r.countA == 0 ? added : r.countB == 0 ? deleted : unchanged).insert(r.name);
  EXPECT_EQ(added, (std::set<std::string>{"AddmmBackward0", "All2All_Pooled_Req", "CatBackward0"}));
  EXPECT_EQ(deleted, (std::set<std::string>{"nccl:all_reduce"}));
  EXPECT_EQ(unchanged,
            (std::set<std::string>{"aten::as_strided", "aten::empty", "cudaEventQuery", "cudaLaunchKernel"}));
  size_t kernelsAdded = 0, kernelsDeleted = 0;
  for (const DiffRow& r : d.kernels) {
    kernelsAdded += r.countA == 0 ? 1 : 0;
    kernelsDeleted += r.countB == 0 ? 1 : 0;
  }
  EXPECT_EQ(kernelsAdded, 0u);
  EXPECT_EQ(kernelsDeleted, 1u);
}

// GPU work with no launch in the trace (launched before profiling began: 16 events,
// 1.686 ms on each side of HTA's compare pair) belongs to no iteration: iteration 0's
// rows leave it out (it was counted there, its own start inside the step) and the diff
// says how much there is; over the whole trace it stays in the rows.
TEST(TraceDiff, GpuWorkWithoutALaunchIsListedApartFromTheIterations) {
  const std::string dir = OPSCOPE_SOURCE_DIR "/tests/data/hta/";
  const LoadResult a = loadTraceFile(dir + "compare_base.json.gz");
  const LoadResult b = loadTraceFile(dir + "compare_test.json.gz");
  ASSERT_EQ(a.status, LoadStatus::Ok) << a.error;
  ASSERT_EQ(b.status, LoadStatus::Ok) << b.error;
  DiffOptions o;
  o.windowA = iterationWindow(a.trace->iterations, 0, 1);
  o.windowB = iterationWindow(b.trace->iterations, 0, 1);
  const TraceDiff ranged = diffTraces(*a.trace, *b.trace, o);
  EXPECT_EQ(ranged.withoutLaunchA.count, 16u);
  EXPECT_EQ(ranged.withoutLaunchA.total, 1'686'000);
  EXPECT_EQ(ranged.withoutLaunchB.count, 16u);
  TimeNs gpuA = 0;
  for (const DiffRow& r : ranged.kernels) gpuA += r.totalA;
  EXPECT_LT(gpuA, 10'000);  // iteration 0 launched 4 µs of GPU work
  const TraceDiff whole = diffTraces(*a.trace, *b.trace);
  TimeNs wholeA = 0;
  for (const DiffRow& r : whole.kernels) wholeA += r.totalA;
  EXPECT_GE(wholeA, whole.withoutLaunchA.total);
  const auto j = nlohmann::json::parse(traceDiffJson(ranged, DiffLabels{"a", "b", "0", "0"}));
  EXPECT_EQ(j["gpu_without_launch"]["a"]["count"], 16);
  EXPECT_EQ(j["gpu_without_launch"]["in_rows"], false);
}

TEST(TraceDiff, ShapesReadBackFromThePlainFileEqualTheLoadedOnes) {
  // A plain JSON trace keeps its args in the file (lazy args): the diff reads every op's
  // "Input Dims" back in one pass. Against the same trace gzipped (args held in memory
  // while loading) every row matches, shapes included, with no delta.
  const std::string gz = OPSCOPE_SOURCE_DIR "/tests/data/pytorch_h100/h100_resnet50_train.pt.trace.json.gz";
  const std::string plain = test::plainCopy(gz, "diff_lazy_resnet50.json");
  const LoadResult a = loadTraceFile(plain), b = loadTraceFile(gz);
  ASSERT_EQ(a.status, LoadStatus::Ok);
  ASSERT_EQ(b.status, LoadStatus::Ok);
  ASSERT_TRUE(a.trace->lazyArgs);
  const TraceDiff d = diffTraces(*a.trace, *b.trace);
  size_t withShape = 0;
  for (const DiffRow& r : d.ops) {
    EXPECT_EQ(r.countA, r.countB) << r.name << " " << r.shape;
    EXPECT_EQ(r.delta(), 0) << r.name << " " << r.shape;
    withShape += !r.shape.empty() && r.shape != "[]";
  }
  EXPECT_GT(withShape, 50u);
  // The same rows as a diff of the gzipped trace against itself.
  const TraceDiff self = diffTraces(*b.trace, *b.trace);
  ASSERT_EQ(self.ops.size(), d.ops.size());
  for (size_t i = 0; i < d.ops.size(); ++i) {
    EXPECT_EQ(self.ops[i].name, d.ops[i].name);
    EXPECT_EQ(self.ops[i].shape, d.ops[i].shape);
  }
  // Loaded as `opscope diff` loads it (the shapes kept while loading, not read back):
  // every row, count and total as the file gives them.
  LoadOptions keep;
  keep.keepOpShapes = true;
  const LoadResult k = loadTraceFile(plain, keep);
  ASSERT_EQ(k.status, LoadStatus::Ok);
  ASSERT_FALSE(k.trace->keptArgs.empty());
  size_t ops = 0, keptOps = 0;  // the ops' shapes come from the kept texts
  for (uint32_t ti = 0; ti < k.trace->tracks.size(); ++ti)
    for (uint32_t i = 0; i < k.trace->tracks[ti].slices.size(); ++i)
      if (k.trace->kind({ti, i}) == SliceKind::CpuOp) {
        ++ops;
        keptOps += k.trace->keptArgsOf({ti, i}) != nullptr;
      }
  EXPECT_GT(ops, 1000u);
  EXPECT_EQ(keptOps, ops);
  const TraceDiff kept = diffTraces(*k.trace, *a.trace);
  ASSERT_EQ(kept.ops.size(), d.ops.size());
  for (size_t i = 0; i < d.ops.size(); ++i) {
    EXPECT_EQ(kept.ops[i].name, d.ops[i].name) << i;
    EXPECT_EQ(kept.ops[i].shape, d.ops[i].shape) << i;
    EXPECT_EQ(kept.ops[i].countA, d.ops[i].countA) << i;
    EXPECT_EQ(kept.ops[i].totalA, d.ops[i].totalA) << i;
    EXPECT_EQ(kept.ops[i].countA, kept.ops[i].countB) << i;
    EXPECT_EQ(kept.ops[i].delta(), 0) << i;
  }
  std::remove(plain.c_str());
}

}  // namespace
}  // namespace opscope
