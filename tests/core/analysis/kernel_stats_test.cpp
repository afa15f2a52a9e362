#include "analysis/kernel_stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "report/analysis_report.h"
#include "test_support.h"

namespace opscope {
namespace {

struct ClassCase {
  const char* kernel;
  const char* cls;
};
// Named by the kernel (gtest would print the struct's bytes: two addresses).
void PrintTo(const ClassCase& c, std::ostream* os) { *os << c.kernel; }

class BuiltinKernelClasses : public ::testing::TestWithParam<ClassCase> {};

TEST_P(BuiltinKernelClasses, ShortClassForRealKernelNames) {
  EXPECT_EQ(KernelClassifier::builtin().classify(GetParam().kernel), GetParam().cls) << GetParam().kernel;
}

INSTANTIATE_TEST_SUITE_P(
    Names, BuiltinKernelClasses,
    ::testing::Values(
        ClassCase{"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x64_16x6_tn_align4>(Params)", "gemm"},
        ClassCase{"volta_sgemm_128x64_nn", "gemm"},
        ClassCase{"ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn", "gemm"},
        ClassCase{"void gemv2T_kernel_val<int, int, float, float, float, 128, 16, 4, 4, false>", "gemv"},
        ClassCase{"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>",
                  "elementwise"},
        ClassCase{"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float>>", "reduce"},
        ClassCase{"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)", "nccl"},
        ClassCase{"Memcpy HtoD (Pageable -> Device)", "memcpy"}, ClassCase{"Memset (Device)", "memset"},
        ClassCase{"void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 2, 64, 64>",
                  "concat"},
        ClassCase{"void cunn_SoftMaxForward<4, float, float, float, Epilogue>", "softmax"},
        ClassCase{"void fbgemm_gpu::split_embedding_codegen_forward_unweighted_kernel<float>", "embedding fwd"},
        ClassCase{"void fbgemm_gpu::split_embedding_backward_codegen_rowwise_adagrad_kernel", "embedding bwd"},
        // FBGEMM sparse-feature kernels are not GEMMs (the recsys trace: 7 kernels, 4.5 ms).
        ClassCase{"void fbgemm_gpu::permute_2D_data_kernel<false, int, int, decltype(nullptr)>(int, int, int)",
                  "sparse features"},
        ClassCase{"void fbgemm_gpu::_block_bucketize_sparse_features_cuda_kernel1<int, int>(int, int)",
                  "sparse features"},
        ClassCase{"void fbgemm_gpu::f8f8bf16_rowwise_gemm_kernel<256>", "gemm"},
        ClassCase{"void implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1>", "conv"},
        ClassCase{"Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32_MI16x16x1_SN_LDSB0", "gemm"},  // ROCm Tensile
        ClassCase{"void at::native::(anonymous namespace)::max_pool_forward_nchw<float, float>", "pool"},
        ClassCase{"void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true>", "transpose"},
        ClassCase{"triton__0d1d2d3d", "fused (triton)"},
        ClassCase{"void cub::DeviceScanKernel<cub::AgentScanPolicy<128, 15, int>>", "scan"},
        ClassCase{"void permute_pooled_embs_kernel<float>(float const*, long const*)", "transpose"},
        ClassCase{"some_custom_thing", "other"}));

TEST(KernelClasses, RulesComeFromJsonAndBadOnesAreNamed) {
  std::string error;
  auto k = KernelClassifier::fromJson(
      R"({"rules":[{"class":"mine","pattern":"^my_"},{"class":"gemm","pattern":"gemm"}]})", error);
  ASSERT_TRUE(k) << error;
  EXPECT_EQ(k->classify("my_gemm"), "mine");
  EXPECT_EQ(k->classify("sgemm"), "gemm");
  EXPECT_FALSE(KernelClassifier::fromJson(R"({"rules":[{"class":"x","pattern":"(bad"}]})", error));
  EXPECT_NE(error.find("rule 0 (x)"), std::string::npos) << error;
  EXPECT_FALSE(KernelClassifier::fromJson(R"({"rules":[{"class":1}]})", error));
  EXPECT_FALSE(KernelClassifier::fromJson("not json", error));
  EXPECT_FALSE(KernelClassifier::fromJson("[]", error));
}

TEST(KernelClasses, UserFileIsTriedFirst) {
  const std::string dir = test::tempPath("xdg");
  std::filesystem::create_directories(dir + "/opscope");
  std::ofstream(dir + "/opscope/kernel_classes.json") << R"({"rules":[{"class":"my gemm","pattern":"volta_sgemm"}]})";
  ::setenv("XDG_CONFIG_HOME", dir.c_str(), 1);
  std::string error;
  const KernelClassifier k = KernelClassifier::withUserOverrides(error);
  EXPECT_TRUE(error.empty()) << error;
  EXPECT_EQ(k.classify("volta_sgemm_128x64_nn"), "my gemm");
  EXPECT_EQ(k.classify("ampere_sgemm_128x64_nn"), "gemm");  // built-in rules still apply
  std::ofstream(dir + "/opscope/kernel_classes.json") << "{broken";
  const KernelClassifier fallback = KernelClassifier::withUserOverrides(error);
  EXPECT_NE(error.find("kernel_classes.json"), std::string::npos);
  EXPECT_EQ(fallback.classify("volta_sgemm_128x64_nn"), "gemm");
  ::unsetenv("XDG_CONFIG_HOME");
  std::filesystem::remove_all(dir);
}

TEST(KernelStats, CountsTotalsSpreadAndShares) {
  auto t = test::loadOk(R"([
    {"ph":"X","cat":"kernel","name":"sgemm_a","pid":0,"tid":7,"ts":0,"dur":10,"args":{"stream":7}},
    {"ph":"X","cat":"kernel","name":"sgemm_a","pid":0,"tid":7,"ts":20,"dur":30,"args":{"stream":7}},
    {"ph":"X","cat":"kernel","name":"relu_elementwise","pid":0,"tid":7,"ts":60,"dur":5,"args":{"stream":7}},
    {"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD","pid":0,"tid":8,"ts":0,"dur":5,"args":{"stream":8}},
    {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":100}])");
  ASSERT_TRUE(t);
  const KernelStats s = kernelStatistics(*t, KernelClassifier::builtin());
  EXPECT_EQ(s.gpuEvents, 4u);
  EXPECT_EQ(s.gpuTotal, 50'000);
  ASSERT_EQ(s.kernels.size(), 3u);
  const KernelStat& gemm = s.kernels[0];
  EXPECT_EQ(t->str(gemm.name), "sgemm_a");
  EXPECT_EQ(gemm.count, 2u);
  EXPECT_EQ(gemm.total, 40'000);
  EXPECT_EQ(gemm.min, 10'000);
  EXPECT_EQ(gemm.max, 30'000);
  EXPECT_DOUBLE_EQ(gemm.mean, 20'000);
  EXPECT_DOUBLE_EQ(gemm.stddev, 10'000);  // population: sqrt(((10-20)^2 + (30-20)^2) / 2) µs
  EXPECT_DOUBLE_EQ(gemm.share, 0.8);
  EXPECT_EQ(s.classes[static_cast<size_t>(gemm.cls)], "gemm");
  ASSERT_EQ(s.classTotals.size(), 3u);
  EXPECT_EQ(s.classTotals[0].name, "gemm");
  EXPECT_DOUBLE_EQ(s.classTotals[0].share, 0.8);
  double shares = 0;
  for (const ClassTotal& c : s.classTotals) shares += c.share;
  EXPECT_NEAR(shares, 1.0, 1e-12);
  // A window keeps the events that start inside it.
  const KernelStats w = kernelStatistics(*t, KernelClassifier::builtin(), TimeWindow{15'000, 70'000});
  EXPECT_EQ(w.gpuEvents, 2u);
  EXPECT_EQ(w.gpuTotal, 35'000);
  // The JSON says which standard deviation it is (HTA's is the sample's: 14.14 µs here).
  const auto j = nlohmann::json::parse(kernelStatsJson(s, *t, "x", 0));
  EXPECT_EQ(j["std_kind"], "population");
  EXPECT_DOUBLE_EQ(j["kernels"][0]["std_us"].get<double>(), 10.0);
}

TEST(KernelStats, RealTraceTotalsMatchTheSummary) {
  const auto path = test::sharedTrace("recsys_rank0_cuda.json.gz");
  if (!path) GTEST_SKIP() << "../shared/traces/recsys_rank0_cuda.json.gz not present";
  LoadResult r = loadTraceFile(*path);
  ASSERT_EQ(r.status, LoadStatus::Ok);
  const KernelStats s = kernelStatistics(*r.trace, KernelClassifier::builtin());
  uint64_t events = 0;
  TimeNs total = 0;
  for (const KernelStat& k : s.kernels) {
    events += k.count;
    total += k.total;
    EXPECT_LE(k.min, k.max);
    EXPECT_LE(static_cast<double>(k.min), k.mean + 1e-6);
    EXPECT_GE(static_cast<double>(k.max), k.mean - 1e-6);
  }
  EXPECT_EQ(events, s.gpuEvents);
  EXPECT_EQ(total, s.gpuTotal);
  EXPECT_GT(s.classTotals.size(), 3u);
  // Most GPU time in this recommendation model is classified (not "other").
  TimeNs other = 0;
  for (const ClassTotal& c : s.classTotals)
    if (c.name == "other") other = c.total;
  EXPECT_LT(static_cast<double>(other), 0.5 * static_cast<double>(s.gpuTotal));
}

}  // namespace
}  // namespace opscope

namespace opscope {
namespace {

TEST(AnalysisReport, CsvFieldsAreQuotedOnlyWhenNeeded) {
  EXPECT_EQ(csvField("volta_sgemm"), "volta_sgemm");
  EXPECT_EQ(csvField("f(int, float)"), "\"f(int, float)\"");
  EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csvField("two\nlines"), "\"two\nlines\"");
}

TEST(AnalysisReport, KernelStatsJsonHoldsEveryKernelAndClass) {
  auto t = test::loadOk(R"json([
    {"ph":"X","cat":"kernel","name":"sgemm_a","pid":0,"tid":7,"ts":0,"dur":10.5,"args":{"stream":7}},
    {"ph":"X","cat":"gpu_memset","name":"Memset (Device)","pid":0,"tid":7,"ts":20,"dur":1,"args":{"stream":7}}])json");
  ASSERT_TRUE(t);
  const KernelStats k = kernelStatistics(*t, KernelClassifier::builtin());
  const auto j = nlohmann::json::parse(kernelStatsJson(k, *t, "x.json"));
  ASSERT_EQ(j["kernels"].size(), 2u);
  EXPECT_EQ(j["kernels"][0]["name"], "sgemm_a");
  EXPECT_EQ(j["kernels"][0]["total_us"], 10.5);
  EXPECT_EQ(j["kernels"][1]["kind"], "memset");
  EXPECT_EQ(j["gpu_total_us"], 11.5);
  EXPECT_EQ(j["classes"].size(), 2u);
}

// std::regex backtracked per character: a ~28 KB name holding "embedding",
// "fbgemm_gpu::" or "cudnn::detail::" overflowed the stack (exit 139 in every export),
// and a 1 MB name without a keyword took 1.2 s. RE2 is linear, with constant stack.
TEST(KernelClasses, LongNamesClassifyWithoutRecursion) {
  const KernelClassifier& k = KernelClassifier::builtin();
  const std::string filler(1 << 20, 'x');
  EXPECT_EQ(k.classify("void fbgemm_gpu::embedding_" + filler + "_forward_kernel"), "embedding fwd");
  EXPECT_EQ(k.classify("void fbgemm_gpu::permute_" + filler), "sparse features");
  EXPECT_EQ(k.classify("cudnn::detail::" + filler + "_fprop"), "conv");
  EXPECT_EQ(k.classify("k" + filler), "other");
  // Case-insensitive, as before.
  EXPECT_EQ(k.classify("VOLTA_SGEMM_128x64"), "gemm");
}

TEST(KernelClasses, UnlessVetoesARuleAndLookaroundIsRefusedInOneLine) {
  std::string error;
  auto k = KernelClassifier::fromJson(
      R"j({"rules":[{"class":"sparse","pattern":"fbgemm_gpu::","unless":"::.*(gemm|embedding)"},{"class":"g","pattern":"_gemm"}]})j",
      error);
  ASSERT_TRUE(k) << error;
  EXPECT_EQ(k->classify("fbgemm_gpu::permute_2D"), "sparse");
  EXPECT_EQ(k->classify("fbgemm_gpu::f8f8bf16_rowwise_gemm"), "g");
  EXPECT_EQ(k->classify("fbgemm_gpu::embedding_forward"), "other");
  // RE2 has no lookahead: refused when the rules are read, naming rule and field.
  EXPECT_FALSE(KernelClassifier::fromJson(R"j({"rules":[{"class":"x","pattern":"a(?!b)"}]})j", error));
  EXPECT_NE(error.find("rule 0 (x): bad pattern"), std::string::npos) << error;
  EXPECT_FALSE(KernelClassifier::fromJson(R"j({"rules":[{"class":"x","pattern":"a","unless":"("}]})j", error));
  EXPECT_NE(error.find("bad unless"), std::string::npos) << error;
  EXPECT_FALSE(KernelClassifier::fromJson(R"({"rules":[{"class":"x","pattern":"a","unless":3}]})", error));
  // A 100 KB pattern is quoted cut, on one line.
  const std::string longBad = R"({"rules":[{"class":"x","pattern":"()" + std::string(100000, 'a') + R"("}]})";
  EXPECT_FALSE(KernelClassifier::fromJson(longBad, error));
  EXPECT_LT(error.size(), 300u) << error.size();
  EXPECT_EQ(error.find('\n'), std::string::npos);
  // Numbers past double's range and nesting past the ceiling are one line, not an
  // exception escaping as "internal error".
  EXPECT_FALSE(KernelClassifier::fromJson(R"({"rules":[],"x":1e400})", error));
  EXPECT_NE(error.find("kernel classes: "), std::string::npos) << error;
  EXPECT_FALSE(KernelClassifier::fromJson(std::string(100000, '[') + std::string(100000, ']'), error));
  EXPECT_NE(error.find("nested deeper than"), std::string::npos) << error;
}

TEST(KernelClasses, OversizedOrUnreadableUserFileFallsBackToTheBuiltIn) {
  const std::string dir = test::tempPath("xdg_big");
  std::filesystem::create_directories(dir + "/opscope");
  {
    std::ofstream f(dir + "/opscope/kernel_classes.json");
    f << R"({"rules":[{"class":"my gemm","pattern":"volta_sgemm"}],"pad":")" << std::string(2 << 20, ' ') << "\"}";
  }
  ::setenv("XDG_CONFIG_HOME", dir.c_str(), 1);
  std::string error;
  const KernelClassifier k = KernelClassifier::withUserOverrides(error);
  EXPECT_NE(error.find("larger than 1 MiB"), std::string::npos) << error;
  EXPECT_EQ(k.classify("volta_sgemm_128x64_nn"), "gemm");
  std::filesystem::remove(dir + "/opscope/kernel_classes.json");
  std::filesystem::create_directories(dir + "/opscope/kernel_classes.json");  // a directory of that name
  const KernelClassifier d = KernelClassifier::withUserOverrides(error);
  EXPECT_NE(error.find("is a directory"), std::string::npos) << error;
  EXPECT_EQ(d.classify("volta_sgemm_128x64_nn"), "gemm");
  ::unsetenv("XDG_CONFIG_HOME");
}

}  // namespace
}  // namespace opscope
