// Convolutions of traces without "Concrete Inputs", completed from their backward:
// checked on a real trace whose concrete inputs are removed (the answer is what they
// said), on a real trace of 2021 that never had them, and on stride inference by hand.
#include "perf/conv_pairing.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "hierarchy/queries.h"
#include "io/trace_loader.h"
#include "perf/conv_models.h"
#include "perf/microbenchmarks.h"
#include "perf/op_inputs.h"
#include "perf/op_models.h"
#include "test_support.h"

namespace opscope {
namespace {

const GpuSpec& gpu(const char* name) { return *builtinGpuSpecs().find(name); }

TEST(ConvPairing, StrideFromTheSizes) {
  using V = std::vector<int64_t>;
  EXPECT_EQ(inferConvStride({56, 56}, {3, 3}, {56, 56}), (V{1, 1}));      // padding 1
  EXPECT_EQ(inferConvStride({56, 56}, {3, 3}, {28, 28}), (V{2, 2}));      // padding 1, stride 2
  EXPECT_EQ(inferConvStride({224, 224}, {7, 7}, {112, 112}), (V{2, 2}));  // the stem: padding 3
  EXPECT_EQ(inferConvStride({56, 56}, {1, 1}, {28, 28}), (V{2, 2}));      // a downsampling 1x1
  EXPECT_EQ(inferConvStride({1, 1}, {1, 1}, {1, 1}), (V{1, 1}));          // every stride fits: 1
  EXPECT_EQ(inferConvStride({32, 30}, {3, 3}, {30, 28}), (V{1, 1}));      // no padding
  EXPECT_EQ(inferConvStride({56, 56}, {3, 3}, {56, 28}), (V{1, 2}));      // per dim
  EXPECT_FALSE(inferConvStride({5}, {3}, {9}));                           // larger than its input
  EXPECT_FALSE(inferConvStride({56, 56}, {3, 3}, {56}));                  // dims disagree
  EXPECT_FALSE(inferConvStride({0}, {3}, {1}));
  EXPECT_FALSE(inferConvStride({int64_t{1} << 62}, {int64_t{1} << 62}, {1 << 20}));  // no overflow, no fit
}

TEST(ConvPairing, OnlyConvolutionsTheirShapesLeaveIncompleteNeedIt) {
  OpShapes s;
  s.dimsText = "recorded";
  s.inputs = {{{8, 16, 32, 32}}, {{32, 16, 3, 3}}, {}, {}, {}, {}, {}};
  s.types = {DType::F32, DType::F32};
  EXPECT_TRUE(needsConvPairing("conv2d", s));  // no stride, padding or dilation
  s.concrete = {"", "", "", "[2, 2]", "[1, 1]", "[1, 1]", "1"};
  EXPECT_FALSE(needsConvPairing("conv2d", s));
  EXPECT_FALSE(needsConvPairing("add", s));
  EXPECT_TRUE(needsConvPairing("cudnn_convolution_backward", s));  // its mask is in its children
}

// ResNet-50 on an H100 (PyTorch 2.11) with its "Concrete Inputs" taken out: every forward
// convolution is completed from its backward to the problem its concrete inputs gave,
// stride included, and priced the same (the built-in table matches on stride).
TEST(ConvPairing, AModernTraceWithoutConcreteInputsGetsTheProblemsTheyGave) {
  const std::string path = OPSCOPE_SOURCE_DIR "/tests/data/pytorch_h100/h100_resnet50_train.pt.trace.json.gz";
  const LoadResult full = loadTraceFile(path);
  ASSERT_EQ(full.status, LoadStatus::Ok) << full.error;
  nlohmann::json j = nlohmann::json::parse(test::gunzip(test::readFile(path)));
  size_t stripped = 0;
  for (auto& e : j["traceEvents"])
    if (e.contains("args")) stripped += e["args"].erase("Concrete Inputs");
  ASSERT_GT(stripped, 1000u);
  const auto bare = test::loadOk(j.dump());
  ASSERT_TRUE(bare);

  const auto problems = convProblemsOf(OpInputs(*bare));
  size_t forward = 0, backward = 0;
  for (const EventRef op : test::slicesNamed(*full.trace, "aten::conv2d")) {
    ASSERT_EQ(bare->name(op), "aten::conv2d");  // the same events in the same places
    const auto want = convolutionProblem("conv2d", opShapesFromArgs(full.trace->args(op)));
    ASSERT_TRUE(want);
    const auto it = problems.find(op.packed());
    ASSERT_NE(it, problems.end());
    EXPECT_EQ(it->second.x, want->x);
    EXPECT_EQ(it->second.w, want->w);
    EXPECT_EQ(it->second.y, want->y);
    EXPECT_EQ(it->second.stride, want->stride);
    EXPECT_EQ(it->second.dilation, want->dilation);
    ++forward;
  }
  for (const EventRef op : test::slicesNamed(*full.trace, "aten::convolution_backward")) {
    const auto want = convolutionProblem("convolution_backward", opShapesFromArgs(full.trace->args(op)));
    ASSERT_TRUE(want);
    const auto it = problems.find(op.packed());
    ASSERT_NE(it, problems.end());
    EXPECT_EQ(it->second.y, want->y);
    EXPECT_EQ(it->second.stride, want->stride);
    ++backward;
  }
  EXPECT_EQ(forward, 159u);
  EXPECT_EQ(backward, 159u);

  const Microbenchmarks* table = builtinMicrobenchmarks("H100-SXM");
  ASSERT_TRUE(table);
  const OpModels models(gpu("H100-SXM"), table);
  const auto a = predictOps(*full.trace, models, std::nullopt), b = predictOps(*bare, models, std::nullopt);
  ASSERT_EQ(a.size(), b.size());
  size_t convs = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (full.trace->name(a[i].op) != "aten::conv2d") continue;
    ASSERT_TRUE(b[i].predictedUs);
    EXPECT_DOUBLE_EQ(*b[i].predictedUs, *a[i].predictedUs);
    EXPECT_EQ(b[i].model, "convolution microbenchmark");
    ++convs;
  }
  EXPECT_EQ(convs, 159u);
}

// ResNet-50 on a V100 recorded with PyTorch 1.8 (the TensorBoard plugin's sample): no
// concrete inputs ever, legacy cudnn_convolution_backward. Every convolution is priced;
// the stem's backward computes its weight gradient only (it has no _input child).
TEST(ConvPairing, ATraceOf2021PricesEveryConvolution) {
  const LoadResult r = loadTraceFile(OPSCOPE_SOURCE_DIR "/tests/data/tb_plugin/resnet50_memory.pt.trace.json.gz");
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const Trace& t = *r.trace;
  const auto problems = convProblemsOf(OpInputs(t));
  size_t stems = 0, weightOnly = 0, both = 0;
  for (const EventRef op : test::slicesNamed(t, "aten::cudnn_convolution_backward")) {
    const auto it = problems.find(op.packed());
    ASSERT_NE(it, problems.end());
    const ConvProblem& p = it->second;
    const bool stem = p.x[1] == 3;
    stems += stem;
    EXPECT_TRUE(p.weightGrad);
    (p.inputGrad ? both : weightOnly) += 1;
    EXPECT_EQ(p.inputGrad, !stem);
    if (stem) {
      EXPECT_EQ(p.stride, (std::vector<int64_t>{2, 2}));
    }
  }
  EXPECT_EQ(stems, 6u);  // one per iteration
  EXPECT_EQ(weightOnly, 6u);
  EXPECT_EQ(both, 312u);  // the trace's cudnn_convolution_backward_input calls

  const OpModels models(gpu("V100"));
  double measured[2] = {0, 0}, predicted[2] = {0, 0};
  size_t priced[2] = {0, 0};
  for (const OpRow& row : predictOps(t, models, std::nullopt)) {
    const std::string_view n = t.name(row.op);
    const int k = n == "aten::conv2d" ? 0 : n == "CudnnConvolutionBackward" ? 1 : -1;
    if (k < 0) continue;
    ASSERT_TRUE(row.predictedUs) << n;
    measured[k] += static_cast<double>(row.measuredGpu) / 1e3;
    predicted[k] += *row.predictedUs;
    ++priced[k];
  }
  EXPECT_EQ(priced[0], 318u);
  EXPECT_EQ(priced[1], 318u);
  // The roofline's sums follow the measured time (forward +2 %, backward −7 % on the
  // V100's datasheet peak); a wrong output size (the input's, say) would be 4x off.
  EXPECT_NEAR(predicted[0] / measured[0], 1.0, 0.15);
  EXPECT_NEAR(predicted[1] / measured[1], 1.0, 0.15);
}

TEST(ConvPairing, UnpairedOrInconsistentConvolutionsStayUnpriced) {
  // A forward whose backward has another input, one without a sequence number, and a
  // transposed one (its grad_output's channels are not the weight's outputs).
  auto t = test::loadOk(R"({"traceEvents":[
    {"ph":"X","cat":"cpu_op","name":"aten::conv2d","pid":1,"tid":1,"ts":0,"dur":10,
     "args":{"Input Dims":[[8,16,32,32],[32,16,3,3],[],[],[],[],[]],"Input type":["float","float","","","","",""],"Sequence number":5}},
    {"ph":"X","cat":"cpu_op","name":"aten::conv2d","pid":1,"tid":1,"ts":20,"dur":10,
     "args":{"Input Dims":[[8,16,32,32],[32,16,3,3],[],[],[],[],[]],"Input type":["float","float","","","","",""]}},
    {"ph":"X","cat":"cpu_op","name":"aten::conv2d","pid":1,"tid":1,"ts":40,"dur":10,
     "args":{"Input Dims":[[8,16,32,32],[32,16,3,3],[],[],[],[],[]],"Input type":["float","float","","","","",""],"Sequence number":7}},
    {"ph":"X","cat":"cpu_op","name":"ConvolutionBackward0","pid":1,"tid":2,"ts":100,"dur":50,"args":{"Sequence number":5}},
    {"ph":"X","cat":"cpu_op","name":"aten::convolution_backward","pid":1,"tid":2,"ts":101,"dur":40,
     "args":{"Input Dims":[[8,32,32,32],[8,16,16,16],[32,16,3,3]],"Input type":["float","float","float"]}},
    {"ph":"X","cat":"cpu_op","name":"ConvolutionBackward0","pid":1,"tid":2,"ts":200,"dur":50,"args":{"Sequence number":7}},
    {"ph":"X","cat":"cpu_op","name":"aten::convolution_backward","pid":1,"tid":2,"ts":201,"dur":40,
     "args":{"Input Dims":[[8,64,32,32],[8,16,32,32],[32,16,3,3]],"Input type":["float","float","float"]}}]})");
  ASSERT_TRUE(t);
  const auto problems = convProblemsOf(OpInputs(*t));
  for (const EventRef op : test::slicesNamed(*t, "aten::conv2d"))
    EXPECT_FALSE(problems.count(op.packed())) << t->start(op);
  // The first backward is a convolution of its own (32x32 out of 16x16 is no stride: none
  // inferred); the second's grad_output cannot come from its weight: not one.
  const auto backs = test::slicesNamed(*t, "aten::convolution_backward");
  ASSERT_EQ(backs.size(), 2u);
  ASSERT_TRUE(problems.count(backs[0].packed()));
  EXPECT_TRUE(problems.at(backs[0].packed()).stride.empty());
  EXPECT_FALSE(problems.count(backs[1].packed()));
}

TEST(ConvPairing, APairedForwardTakesItsBackwardsOutput) {
  auto t = test::loadOk(R"({"traceEvents":[
    {"ph":"X","cat":"cpu_op","name":"aten::conv2d","pid":1,"tid":1,"ts":0,"dur":10,
     "args":{"Input Dims":[[8,16,32,32],[32,16,3,3],[],[],[],[],[]],"Input type":["float","float","","","","",""],"Sequence number":5}},
    {"ph":"X","cat":"cpu_op","name":"CudnnConvolutionBackward","pid":1,"tid":2,"ts":100,"dur":50,"args":{"Sequence number":5}},
    {"ph":"X","cat":"cpu_op","name":"aten::cudnn_convolution_backward","pid":1,"tid":2,"ts":101,"dur":40,
     "args":{"Input Dims":[[8,16,32,32],[8,32,16,16],[32,16,3,3],[],[],[],[],[],[],[],[]],"Input type":["float","float","float"]}},
    {"ph":"X","cat":"cpu_op","name":"aten::cudnn_convolution_backward_input","pid":1,"tid":2,"ts":102,"dur":10,"args":{}}]})");
  ASSERT_TRUE(t);
  const auto problems = convProblemsOf(OpInputs(*t));
  const auto fwd = problems.find(test::only(*t, "aten::conv2d").packed());
  ASSERT_NE(fwd, problems.end());
  EXPECT_FALSE(fwd->second.backward);
  EXPECT_EQ(fwd->second.y, (std::vector<int64_t>{8, 32, 16, 16}));
  EXPECT_EQ(fwd->second.stride, (std::vector<int64_t>{2, 2}));
  const auto bwd = problems.find(test::only(*t, "aten::cudnn_convolution_backward").packed());
  ASSERT_NE(bwd, problems.end());
  EXPECT_TRUE(bwd->second.backward);
  EXPECT_TRUE(bwd->second.inputGrad);
  EXPECT_FALSE(bwd->second.weightGrad);  // only the _input child was recorded
  // Priced as the roofline of those tensors: 2·N·K·∏out·C·∏kernel FLOPs.
  const GpuSpec& g = gpu("V100");
  const auto p = OpModels(g).convolution(fwd->second, {});
  ASSERT_TRUE(p);
  const double flops = 2.0 * 8 * 32 * 16 * 16 * 16 * 3 * 3;
  const double bytes = (8.0 * 16 * 32 * 32 + 32.0 * 16 * 3 * 3 + 8.0 * 32 * 16 * 16) * 4;
  EXPECT_NEAR(p->us, std::max({flops / (g.fp32 * 1e12) * 1e6, g.dramUs(bytes), g.kernelFloorUs}), 1e-9);
}

}  // namespace
}  // namespace opscope
