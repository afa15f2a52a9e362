// The per-op roofline (perf/roofline.h) on real traces: FLOPs per call computed
// independently from each op's recorded dims (read from the raw JSON here, not through
// the models), the achieved rates from the measured kernel times, and the contract's
// arithmetic (roof %, bound, time at stake).
#include "perf/roofline.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>

#include "io/trace_loader.h"
#include "perf/prediction.h"
#include "report/roofline_report.h"
#include "test_support.h"

namespace opscope {
namespace {

using Json = nlohmann::json;
const std::string kData = OPSCOPE_SOURCE_DIR "/tests/data/";

double product(const Json& dims, size_t from, size_t to) {
  double p = 1;
  for (size_t i = from; i < to; ++i) p *= dims[i].get<double>();
  return p;
}

// 2·M·N·K (+ M·N with a bias) of a linear call, from its Input Dims alone.
double linearFlops(const Json& in) {
  const Json& x = in[0];
  const Json& w = in[1];
  const double m = product(x, 0, x.size() - 1), k = x.back().get<double>(), n = w[0].get<double>();
  const bool bias = in.size() > 2 && in[2].is_array() && !in[2].empty();
  return 2 * m * n * k + (bias ? m * n : 0);
}

// Every aten::linear row of a transformer trace has the FLOPs its dims give.
void expectLinearFlops(const std::string& file, size_t minRows) {
  LoadResult r = loadTraceFile(kData + file);
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  std::string reason;
  const auto gpu = gpuForDeviceProperties(builtinGpuSpecs(), r.trace->meta.devices, reason);
  ASSERT_TRUE(gpu) << reason;
  const Roofline roof = computeRoofline(*r.trace, *gpu);
  size_t linear = 0;
  for (const RooflineRow& row : roof.ops) {
    if (row.name != "aten::linear") continue;
    ++linear;
    EXPECT_DOUBLE_EQ(row.flops, linearFlops(Json::parse(row.inputDims))) << row.inputDims;
    EXPECT_EQ(row.category, "gemm");
    EXPECT_TRUE(row.tensorCore) << row.dtype;  // bf16 / fp16 GEMMs
    // Achieved TFLOP/s: the calls' FLOPs over their measured kernel time.
    EXPECT_NEAR(row.tflopsS(), row.flops * row.count / (row.kernelTotal * 1e-9) / 1e12, 1e-9 * row.tflopsS());
  }
  EXPECT_GE(linear, minRows) << file;
}

TEST(Roofline, LinearFlopsAreTwoMNKPlusBiasOnTransformerTraces) {
  expectLinearFlops("tracelens/h100_Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz", 4);
  expectLinearFlops("tracelens/h100_gaunernst_bert-small-uncased__1016001.json.gz", 2);
  expectLinearFlops("pytorch_h100/h100_transformer_bf16.pt.trace.json.gz", 2);
}

// Convolutions of a CNN: 2·N·K·∏out·(C/groups)·∏kernel per pass, the output size from the
// recorded stride, padding and dilation (Concrete Inputs), read from the raw events.
TEST(Roofline, ConvolutionFlopsOfResNet50FromTheRawEvents) {
  const std::string file = kData + "pytorch_h100/h100_resnet50_train.pt.trace.json.gz";
  LoadResult r = loadTraceFile(file);
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const Roofline roof = computeRoofline(*r.trace, *builtinGpuSpecs().find("H100-SXM"));
  std::map<std::string, double> expected;  // Input Dims (compact JSON) -> FLOPs
  const Json raw = Json::parse(test::gunzip(test::readFile(file)));
  for (const Json& e : raw["traceEvents"]) {
    // conv2d(input, weight, bias, stride, padding, dilation, groups): the op the models
    // price (its child aten::convolution holds the same problem).
    if (e.value("name", "") != "aten::conv2d" || !e.contains("args")) continue;
    const Json& a = e["args"];
    if (!a.contains("Input Dims") || !a.contains("Concrete Inputs")) continue;
    const Json& dims = a["Input Dims"];
    const Json& c = a["Concrete Inputs"];
    const auto ints = [&](size_t i) { return Json::parse(c[i].get<std::string>()); };
    const Json stride = ints(3), pad = ints(4), dil = ints(5);
    const double groups = std::stod(c[6].get<std::string>());
    const Json& x = dims[0];
    const Json& w = dims[1];
    double out = 1;
    for (size_t d = 2; d < x.size(); ++d) {
      const double i = x[d], k = w[d], s = stride[d - 2], p = pad[d - 2], dl = dil[d - 2];
      out *= std::floor((i + 2 * p - dl * (k - 1) - 1) / s) + 1;
    }
    const double n = x[0], kOut = w[0], cIn = x[1];
    expected[dims.dump()] = 2 * n * kOut * out * (cIn / groups) * product(w, 2, w.size());
  }
  ASSERT_GE(expected.size(), 10u);
  size_t checked = 0;
  for (const RooflineRow& row : roof.ops) {
    if (row.name != "aten::conv2d") continue;
    const auto it = expected.find(Json::parse(row.inputDims).dump());
    ASSERT_NE(it, expected.end()) << row.inputDims;
    EXPECT_DOUBLE_EQ(row.flops, it->second) << row.inputDims;
    ++checked;
  }
  EXPECT_GE(checked, 10u);
}

// Element-wise ops: bytes are the inputs read plus the output written, one operation per
// output element; the contract's arithmetic holds on every row.
TEST(Roofline, ElementwiseWorkAndTheContractsArithmetic) {
  LoadResult r = loadTraceFile(kData + "tracelens/h100_Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz");
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const Roofline roof = computeRoofline(*r.trace, *builtinGpuSpecs().find("H100-SXM"));
  ASSERT_FALSE(roof.ops.empty());
  bool sawMul = false;
  for (const RooflineRow& row : roof.ops)
    if (row.name == "aten::mul" && row.inputDims == "[[16,16,559,64],[1,1,559,64]]" && row.dtype == "bf16") {
      sawMul = true;
      const double big = 16.0 * 16 * 559 * 64, small = 559.0 * 64;
      EXPECT_DOUBLE_EQ(row.bytes, (big + small + big) * 2);
      EXPECT_DOUBLE_EQ(row.flops, big);
      EXPECT_FALSE(row.computeBound(roof.dramTBs));
    }
  EXPECT_TRUE(sawMul);
  const auto j = Json::parse(rooflineJson(roof, *r.trace, "x", "test"));
  ASSERT_EQ(j["ops"].size(), roof.ops.size());
  double last = INFINITY;
  for (const Json& o : j["ops"]) {
    for (const char* key : {"name", "input_dims", "dtype", "category", "count", "kernel_us_total", "kernel_us_mean",
                            "flops", "bytes", "flops_per_byte", "tflops_s", "tbs", "bound", "roof_pct", "at_stake_us"})
      ASSERT_TRUE(o.contains(key)) << key;
    const double total = o["kernel_us_total"], pct = o["roof_pct"], stake = o["at_stake_us"];
    EXPECT_NEAR(stake, std::max(0.0, total * (1 - pct / 100)), 1e-6 * total);
    EXPECT_LE(stake, last);
    last = stake;
    const double peak = o["peak_tflops"], intensity = o["flops_per_byte"];
    EXPECT_EQ(o["bound"], intensity >= peak / 3.35 && o["bytes"].get<double>() > 0 ? "compute" : "memory") << o["name"];
  }
  EXPECT_DOUBLE_EQ(j["peaks"]["bf16_tflops"].get<double>(), 989);
  EXPECT_DOUBLE_EQ(j["peaks"]["dram_tbs"].get<double>(), 3.35);
}

// A trace without recorded shapes has no row, and says why.
TEST(Roofline, WithoutShapesNoRowsAndTheTextSaysWhy) {
  LoadResult r = loadTraceFile(OPSCOPE_SOURCE_DIR "/resources/sample/sample.pt.trace.json.gz");
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  auto t = test::loadOk(R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1, "dur": 2, "args": {"correlation": 1}},
    {"ph": "X", "cat": "kernel", "name": "sgemm", "pid": 0, "tid": 7, "ts": 4, "dur": 5, "args": {"correlation": 1, "stream": 7}}]})");
  ASSERT_TRUE(t);
  const Roofline roof = computeRoofline(*t, *builtinGpuSpecs().find("A100-SXM4-80GB"));
  EXPECT_TRUE(roof.ops.empty());
  EXPECT_NE(rooflineText(roof, "x", "test").find("record_shapes"), std::string::npos);
}

// TraceLens' own published figures for the same public traces (its regression references,
// tests/traces/{h100,mi300}/<trace>_perf_report_csvs/{GEMM,SDPA_fwd}.csv at AMD-AGI/TraceLens
// 171dd747, MIT): per op and shape the mean kernel time per call (µs) and the achieved
// TFLOP/s (TraceLens averages per-call rates; opscope divides the calls' FLOPs by their
// summed time: within 1 %). TraceLens rows are the leaf mm/addmm and the flash-attention
// op; opscope's are the aten::linear and scaled_dot_product_attention calls above them.
TEST(Roofline, AchievedRatesAgreeWithTraceLensPublishedTables) {
  struct Want {
    const char* name;
    const char* dims;
    double meanUs, tflops;
  };
  const std::pair<const char*, std::vector<Want>> traces[] = {
      {"h100_Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
       {{"aten::linear", "[[16,559,1024],[2816,1024],[]]", 84.48, 610.7},
        {"aten::linear", "[[16,559,1024],[1024,1024],[1024]]", 32.35, 580.2},
        {"aten::linear", "[[16,559,2816],[1024,2816],[]]", 76.47, 674.6},
        {"aten::linear", "[[16,559,1024],[1024,1024],[]]", 32.42, 578.5},
        {"aten::scaled_dot_product_attention", "[[16,16,559,64],[16,16,559,64],[16,16,559,64],[],[],[],[],[]]", 113.45,
         90.29}}},
      {"mi300_Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
       {{"aten::linear", "[[16,559,1024],[2816,1024],[]]", 110.6, 466.8},
        {"aten::linear", "[[16,559,1024],[1024,1024],[1024]]", 41.04, 457.6},
        {"aten::linear", "[[16,559,2816],[1024,2816],[]]", 98.95, 521.9},
        {"aten::linear", "[[16,559,1024],[1024,1024],[]]", 40.86, 459.6},
        {"aten::scaled_dot_product_attention", "[[16,16,559,64],[16,16,559,64],[16,16,559,64],[],[],[],[],[]]", 167.3,
         61.43}}},
      {"h100_gaunernst_bert-small-uncased__1016001.json.gz",
       {{"aten::linear", "[[1,141,512],[512,512],[512]]", 5.807, 12.75},
        {"aten::linear", "[[1,141,512],[30522,512],[30522]]", 41.28, 106.9},
        {"aten::linear", "[[1,141,2048],[512,2048],[512]]", 8.272, 35.76},
        {"aten::linear", "[[1,141,512],[2048,512],[2048]]", 6.128, 48.33},
        {"aten::scaled_dot_product_attention", "[[1,8,141,64],[1,8,141,64],[1,8,141,64],[],[],[],[],[]]", 9.352,
         4.362}}}};
  for (const auto& [file, wants] : traces) {
    LoadResult r = loadTraceFile(kData + "tracelens/" + file);
    ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
    std::string reason;
    const auto gpu = gpuForDeviceProperties(builtinGpuSpecs(), r.trace->meta.devices, reason);
    ASSERT_TRUE(gpu) << reason;
    const Roofline roof = computeRoofline(*r.trace, *gpu);
    for (const Want& w : wants) {
      const RooflineRow* row = nullptr;
      for (const RooflineRow& o : roof.ops)
        if (o.name == w.name && o.inputDims == w.dims) row = &o;
      ASSERT_TRUE(row) << file << " " << w.name << " " << w.dims;
      EXPECT_NEAR(row->kernelMeanUs(), w.meanUs, 0.01 + 1e-3 * w.meanUs) << file << " " << w.dims;
      EXPECT_NEAR(row->tflopsS(), w.tflops, 0.01 * w.tflops) << file << " " << w.dims;
    }
  }
}

// Collectives: nccl-tests' bus bytes per call, the bus bandwidth achieved, held to the
// link the collective model uses (bound "link"): HTA's sampled rank of a 128-rank job
// (tests/data/hta), whose groups span nodes: NVLink one way capped by the node's NICs.
TEST(Roofline, CollectivesAreHeldToTheLink) {
  LoadResult r = loadTraceFile(kData + "hta/ranks/sampled_rank-0.json.gz");
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  std::string reason;  // no deviceProperties: the kernels' architecture (sm80) picks an A100
  const auto gpu = gpuForTrace(*r.trace, builtinGpuSpecs(), reason);
  ASSERT_TRUE(gpu) << reason;
  const Roofline roof = computeRoofline(*r.trace, *gpu);
  const double intra = gpu->nvlinkGBs / 2 / 1000,
               acrossNodes = std::min(intra, gpu->gpusPerNode * gpu->networkGBs / 1000);
  size_t links = 0;
  for (const RooflineRow& o : roof.ops) {
    if (std::string_view(o.bound(roof.dramTBs)) != "link") continue;
    ++links;
    EXPECT_EQ(o.category.rfind("collective", 0), 0u) << o.category;
    EXPECT_TRUE(o.linkTBs == intra || o.linkTBs == acrossNodes) << o.linkTBs;
    EXPECT_DOUBLE_EQ(o.flops, 0);
    EXPECT_GT(o.bytes, 0);
    EXPECT_NEAR(o.roofPct(roof.dramTBs), 100 * o.tbs() / o.linkTBs, 1e-6 * o.roofPct(roof.dramTBs) + 1e-9);
  }
  EXPECT_GE(links, 2u);
}

}  // namespace
}  // namespace opscope
