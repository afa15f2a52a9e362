// Learned achieved-efficiency curves: the curve arithmetic and lookup order on tables
// written here, the refusals of broken tables, and the built-in table as it prices the
// public traces (tests/data/tracelens) it was fitted on and, fitted without one of
// them, the one it has not seen.
#include "perf/learned_efficiency.h"

#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "io/trace_loader.h"
#include "perf/op_models.h"
#include "test_support.h"

namespace opscope {
namespace {

GpuSpec gpu(const std::string& name, const std::string& arch) {
  GpuSpec g;
  g.name = name;
  g.arch = arch;
  g.kernelFloorUs = 2;
  return g;
}

EfficiencyTables parse(const std::string& text) {
  std::string error;
  auto t = parseEfficiencyTables(text, error);
  EXPECT_TRUE(t) << error;
  return t ? *t : EfficiencyTables{};
}

TEST(LearnedEfficiency, RatioIsLogLinearBetweenKnotsAndFlatBeyond) {
  EfficiencyCurve c;
  c.knots = {{0, 2}, {2, 8}};
  EXPECT_DOUBLE_EQ(c.ratioAt(1), 2);      // x = 0
  EXPECT_NEAR(c.ratioAt(10), 4, 1e-12);   // halfway in log ratio: 4, not 5
  EXPECT_NEAR(c.ratioAt(100), 8, 1e-12);  // x = 2
  EXPECT_DOUBLE_EQ(c.ratioAt(1e5), 8);    // flat beyond the last knot
  EXPECT_DOUBLE_EQ(c.ratioAt(0.01), 2);   // and before the first
  EXPECT_DOUBLE_EQ(c.ratioAt(0), 1);      // no size: no change
  EXPECT_TRUE(c.covers(0.4));             // x = -0.4: within half a decade
  EXPECT_FALSE(c.covers(0.2));            // x = -0.7
  EXPECT_TRUE(c.covers(300));             // x = 2.48
  EXPECT_FALSE(c.covers(1000));           // x = 3
}

TEST(LearnedEfficiency, LookupGoesFromTheOpToTheFamilyAndFromTheGpuToAny) {
  const EfficiencyTables t = parse(R"({"curves": {
    "H100-SXM": {"memory-bound|aten::softmax|f32": {"knots": [[0, 3]]},
                 "memory-bound|aten::softmax": {"knots": [[0, 2.5]]},
                 "memory-bound": {"knots": [[0, 1.5]]},
                 "gemm": {"knots": [[3, 1.2]]}},
    "nvidia": {"gemm roofline": {"knots": [[0, 2]]}},
    "any": {"attention": {"knots": [[0, 5]]}}}})");
  const GpuSpec h100 = gpu("H100-SXM", "sm90"), a100 = gpu("A100-SXM4-80GB", "sm80"), mi = gpu("MI300X", "gfx942");
  std::string which;
  ASSERT_TRUE(t.find(h100, "memory-bound", 1, &which, "aten::softmax", "f32"));
  EXPECT_EQ(which, "H100-SXM / memory-bound|aten::softmax|f32");
  ASSERT_TRUE(t.find(h100, "memory-bound", 1, &which, "aten::softmax", "bf16"));
  EXPECT_EQ(which, "H100-SXM / memory-bound|aten::softmax");
  ASSERT_TRUE(t.find(h100, "memory-bound", 1, &which, "aten::add", "f32"));
  EXPECT_EQ(which, "H100-SXM / memory-bound");
  // The family curve of the GPU covers only large GEMMs (x near 3): a small one goes on
  // to the vendor's curve of its model.
  ASSERT_TRUE(t.find(h100, "gemm roofline", 1000, &which));
  EXPECT_EQ(which, "H100-SXM / gemm");
  ASSERT_TRUE(t.find(h100, "gemm roofline", 1, &which));
  EXPECT_EQ(which, "nvidia / gemm roofline");
  ASSERT_TRUE(t.find(a100, "gemm roofline", 1, &which));
  EXPECT_EQ(which, "nvidia / gemm roofline");
  // A model's variant falls back to its family ("gemm"), not to a sibling variant.
  EXPECT_EQ(t.find(a100, "gemm roofline (tf32)", 1, &which), nullptr);
  EXPECT_EQ(t.find(mi, "gemm roofline", 1, &which), nullptr);  // AMD: no nvidia curve
  ASSERT_TRUE(t.find(mi, "attention roofline", 1, &which));
  EXPECT_EQ(which, "any / attention");
  EXPECT_EQ(t.find(mi, "memory-bound", 1, &which), nullptr);
}

TEST(LearnedEfficiency, ModelFamiliesAndVendors) {
  EXPECT_EQ(modelFamily("gemm roofline (tf32)"), "gemm");
  EXPECT_EQ(modelFamily("memory-bound (batch norm)"), "memory-bound");
  EXPECT_EQ(modelFamily("convolution roofline"), "convolution");
  EXPECT_EQ(modelFamily("attention roofline"), "attention");
  EXPECT_EQ(gpuVendor(gpu("x", "sm70")), "nvidia");
  EXPECT_EQ(gpuVendor(gpu("x", "gfx90a")), "amd");
  EXPECT_EQ(gpuVendor(gpu("x", "")), "");
  EXPECT_FALSE(learnsEfficiency("collective all_reduce"));
  EXPECT_FALSE(learnsEfficiency("convolution microbenchmark"));
  EXPECT_TRUE(learnsEfficiency("gemm roofline"));
}

TEST(LearnedEfficiency, BrokenTablesAreOneLineErrors) {
  const std::pair<const char*, const char*> cases[] = {
      {R"([1, 2])", "not an efficiency table"},
      {R"({"curves": {"H100-SXM": {"gemm": {"knots": [[1, 2], [0, 3]]}}}})", "sorted"},
      {R"({"curves": {"H100-SXM": {"gemm": {"knots": [[1, 0]]}}}})", "ratio must be in"},
      {R"({"curves": {"H100-SXM": {"gemm": {"knots": [[1, 1e300]]}}}})", "ratio must be in"},
      {R"({"curves": {"H100-SXM": {"gemm": {"knots": []}}}})", "no knots"},
      {R"({"curves": {"H100-SXM": {"gemm": {"knots": [[1]]}}}})", "each knot is"},
      {R"({"curves": {"H100-SXM": 3}})", "expected an object of models"},
      {R"({"curves": {"H100-SXM": {"gemm": {"knots": [[1, 2]]}}}, )", "byte"},
  };
  for (const auto& [text, words] : cases) {
    std::string error;
    EXPECT_FALSE(parseEfficiencyTables(text, error)) << text;
    EXPECT_NE(error.find(words), std::string::npos) << text << " -> " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

TEST(LearnedEfficiency, OpModelsScaleTheDatasheetAndSayWhichCurve) {
  const EfficiencyTables t = parse(R"({"curves": {"H100-SXM": {
    "memory-bound": {"knots": [[0, 2], [2, 1.5]]},
    "kernel floor": {"knots": [[0, 1.25]]}}}})");
  OpModels models(gpu("H100-SXM", "sm90"));
  const OpPrediction plain = models.learned(OpPrediction{50, "memory-bound"}, 5);
  EXPECT_DOUBLE_EQ(plain.us, 50);  // no tables: datasheet
  EXPECT_EQ(plain.curve, "");
  models.setLearnedEfficiency(&t);
  // 50 µs over 5 events: 10 µs each, x = 1, halfway between ratio 2 and 1.5 in log.
  const OpPrediction p = models.learned(OpPrediction{50, "memory-bound"}, 5);
  EXPECT_NEAR(p.us, 50 * std::sqrt(2 * 1.5), 1e-9);
  EXPECT_DOUBLE_EQ(p.datasheetUs, 50);
  EXPECT_EQ(p.curve, "H100-SXM / memory-bound");
  // At the preset's floor the floor curve prices it, whatever its model.
  const OpPrediction f = models.learned(OpPrediction{2, "memory-bound"}, 1);
  EXPECT_DOUBLE_EQ(f.us, 2.5);
  EXPECT_EQ(f.curve, "H100-SXM / kernel floor");
  // A collective keeps its datasheet time: its measured time is the wait for peers.
  const OpPrediction c = models.learned(OpPrediction{50, "collective all_reduce"}, 1);
  EXPECT_DOUBLE_EQ(c.us, 50);
  EXPECT_EQ(c.curve, "");
  // A model without a curve says so.
  EXPECT_EQ(models.learned(OpPrediction{50, "gemm roofline"}, 1).curve, "none");
}

// A GEMM whose innermost dims are not whole 16-byte vectors has curves of its own: the
// dtype key says so, and the lookup takes that curve before the aligned one.
TEST(LearnedEfficiency, UnalignedGemmsTakeTheirOwnCurve) {
  auto shapes = [](std::vector<std::vector<int64_t>> dims, DType t) {
    OpShapes s;
    for (auto& d : dims) {
      s.inputs.push_back({std::move(d)});
      s.types.push_back(t);
    }
    return s;
  };
  EXPECT_TRUE(shapes({{16, 5185, 64}, {16, 64, 5185}}, DType::BF16).innerDimUnaligned());  // 10,370 B rows
  EXPECT_FALSE(shapes({{16, 5184, 64}, {16, 64, 5184}}, DType::BF16).innerDimUnaligned());
  EXPECT_FALSE(shapes({{4, 1028}}, DType::F32).innerDimUnaligned());       // 4,112 B: whole vectors
  EXPECT_TRUE(shapes({{4, 1028}}, DType::BF16).innerDimUnaligned());       // 2,056 B
  EXPECT_FALSE(shapes({{4096, 1}, {}}, DType::BF16).innerDimUnaligned());  // a column, a scalar
  EXPECT_FALSE(shapes({{4, 1027}}, DType::Unknown).innerDimUnaligned());   // no size to judge by
  EXPECT_EQ(curveDtypeKey(DType::BF16, true), "bf16 unaligned");
  EXPECT_EQ(curveDtypeKey(DType::F32, false), "f32");
  EXPECT_EQ(curveDtypeKey(DType::Unknown, true), "");

  const EfficiencyTables t = parse(R"({"curves": {"H100-SXM": {
    "gemm roofline|aten::bmm|bf16": {"knots": [[1, 1.25], [2, 1.25]]},
    "gemm roofline|aten::bmm|bf16 unaligned": {"knots": [[1, 4], [2, 4]]}}}})");
  OpModels models(gpu("H100-SXM", "sm90"));
  models.setLearnedEfficiency(&t);
  const OpPrediction odd = models.learned(OpPrediction{50, "gemm roofline"}, 1, "aten::bmm", "bf16 unaligned");
  EXPECT_DOUBLE_EQ(odd.us, 200);
  EXPECT_EQ(odd.curve, "H100-SXM / gemm roofline|aten::bmm|bf16 unaligned");
  const OpPrediction even = models.learned(OpPrediction{50, "gemm roofline"}, 1, "aten::bmm", "bf16");
  EXPECT_DOUBLE_EQ(even.us, 62.5);
  EXPECT_EQ(even.curve, "H100-SXM / gemm roofline|aten::bmm|bf16");
}

TEST(LearnedEfficiency, TheBuiltInTableParsesAndNamesTheTracesItWasFittedOn) {
  const EfficiencyTables* t = builtinEfficiencyTables();
  ASSERT_NE(t, nullptr);
  EXPECT_GE(t->fittedOn.size(), 18u);
  for (const char* g : {"H100-SXM", "MI300X", "nvidia", "amd", "any"}) EXPECT_TRUE(t->curves.count(g)) << g;
  for (const auto& [g, models] : t->curves)
    for (const auto& [m, c] : models) {
      EXPECT_GE(c.samples, 8u) << g << " " << m;
      for (const auto& k : c.knots) EXPECT_TRUE(k.ratio >= kMinRatio && k.ratio <= kMaxRatio) << g << " " << m;
    }
  // The fingerprint of a fitted trace is found, so its report says "in sample".
  LoadResult r =
      loadTraceFile(OPSCOPE_SOURCE_DIR "/tests/data/tracelens/h100_gaunernst_bert-small-uncased__1016001.json.gz");
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  EXPECT_EQ(traceFingerprint(*r.trace), "kernels=60 kernel_ns=307197");
  EXPECT_TRUE(t->fittedOnTrace(traceFingerprint(*r.trace)));
  EXPECT_FALSE(t->fittedOnTrace("kernels=60 kernel_ns=307198"));
}

}  // namespace
}  // namespace opscope
