// Convolution, batch norm and pooling models on ResNet-50's shapes (as PyTorch 2.11
// records them in tests/data/pytorch_h100/h100_resnet50_train), worked by hand.
#include "perf/conv_models.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "io/trace_loader.h"

namespace opscope {
namespace {

const GpuSpec& h100() { return *builtinGpuSpecs().find("H100-SXM"); }

OpShapes shapes(std::vector<std::vector<std::vector<int64_t>>> inputs, std::vector<std::string> concrete,
                DType t = DType::F32) {
  OpShapes s;
  s.dimsText = "recorded";
  s.inputs = std::move(inputs);
  s.types.assign(s.inputs.size(), t);
  s.concrete = std::move(concrete);
  return s;
}

// The stem: 64x3x224x224 through 64 7x7 filters, stride 2, padding 3: 112x112 out.
const double kStemFlops = 2.0 * 64 * 64 * 112 * 112 * 3 * 7 * 7;
const double kStemBytes = (64.0 * 3 * 224 * 224 + 64.0 * 3 * 7 * 7 + 64.0 * 64 * 112 * 112) * 4;

TEST(ConvModels, ForwardConvolutionFromStridePaddingAndDilation) {
  const GpuSpec& g = h100();
  const double tf32 = std::max({kStemFlops / (g.tf32 * 1e12) * 1e6, g.dramUs(kStemBytes), g.kernelFloorUs});
  const double fp32 = std::max({kStemFlops / (g.fp32 * 1e12) * 1e6, g.dramUs(kStemBytes), g.kernelFloorUs});
  // aten::conv2d(input, weight, bias, stride, padding, dilation, groups)
  auto p = convolutionPrediction(
      g, "conv2d", shapes({{{64, 3, 224, 224}}, {{64, 3, 7, 7}}, {}}, {"", "", "", "[2, 2]", "[3, 3]", "[1, 1]", "1"}),
      MathPath{.tf32 = true});
  ASSERT_TRUE(p);
  EXPECT_NEAR(p->us, tf32, 1e-9);
  EXPECT_EQ(p->model, "convolution roofline (tf32)");
  p = convolutionPrediction(
      g, "conv2d", shapes({{{64, 3, 224, 224}}, {{64, 3, 7, 7}}, {}}, {"", "", "", "[2, 2]", "[3, 3]", "[1, 1]", "1"}),
      MathPath{.tf32 = false});
  ASSERT_TRUE(p);
  EXPECT_NEAR(p->us, fp32, 1e-9);
  EXPECT_EQ(p->model, "convolution roofline");
  // aten::cudnn_convolution(input, weight, padding, stride, dilation, groups, ...):
  // padding comes before stride; read the other way round the output would be 74x74.
  p = convolutionPrediction(g, "cudnn_convolution",
                            shapes({{{64, 3, 224, 224}}, {{64, 3, 7, 7}}},
                                   {"", "", "[3, 3]", "[2, 2]", "[1, 1]", "1", "True", "False", "True"}),
                            MathPath{.tf32 = true});
  ASSERT_TRUE(p);
  EXPECT_NEAR(p->us, tf32, 1e-9);
  // One value for every dim, as conv2d(stride=2) records it.
  p = convolutionPrediction(g, "conv2d",
                            shapes({{{64, 3, 224, 224}}, {{64, 3, 7, 7}}, {}}, {"", "", "", "2", "3", "1", "1"}),
                            MathPath{.tf32 = true});
  ASSERT_TRUE(p);
  EXPECT_NEAR(p->us, tf32, 1e-9);
  // No model: padding="same", no Concrete Inputs (older traces), a transposed convolution.
  EXPECT_FALSE(convolutionPrediction(
      g, "conv2d", shapes({{{64, 3, 224, 224}}, {{64, 3, 7, 7}}, {}}, {"", "", "", "[1, 1]", "same", "[1, 1]", "1"}),
      MathPath{.tf32 = true}));
  EXPECT_FALSE(convolutionPrediction(g, "conv2d", shapes({{{64, 3, 224, 224}}, {{64, 3, 7, 7}}, {}}, {}),
                                     MathPath{.tf32 = true}));
  EXPECT_FALSE(convolutionPrediction(g, "convolution",
                                     shapes({{{64, 3, 224, 224}}, {{64, 3, 7, 7}}, {}},
                                            {"", "", "", "[2, 2]", "[3, 3]", "[1, 1]", "True", "[0, 0]", "1"}),
                                     MathPath{.tf32 = true}));
}

TEST(ConvModels, BackwardPricesTheGradientsItsMaskAsksFor) {
  const GpuSpec& g = h100();
  // A 1x1 convolution 512 -> 2048 channels at 7x7: grad_output, input, weight, ...
  const auto s = [](std::string mask) {
    return shapes({{{64, 2048, 7, 7}}, {{64, 512, 7, 7}}, {{2048, 512, 1, 1}}, {}},
                  {"", "", "", "[0]", "[1, 1]", "[0, 0]", "[1, 1]", "False", "[0, 0]", "1", mask});
  };
  const double flops = 2.0 * 64 * 2048 * 7 * 7 * 512;
  const double bytes = (64.0 * 2048 * 49 + 64.0 * 512 * 49 + 2048.0 * 512) * 4;
  const double one = std::max({flops / (g.tf32 * 1e12) * 1e6, g.dramUs(bytes), g.kernelFloorUs});
  auto both = convolutionPrediction(g, "convolution_backward", s("[True, True, False]"), MathPath{.tf32 = true});
  ASSERT_TRUE(both);
  EXPECT_NEAR(both->us, 2 * one, 1e-9);
  auto weightOnly =
      convolutionPrediction(g, "convolution_backward", s("[False, True, False]"), MathPath{.tf32 = true});  // the stem
  ASSERT_TRUE(weightOnly);
  EXPECT_NEAR(weightOnly->us, one, 1e-9);
}

// cuDNN runs its channels-last kernels on channels-first tensors by transposing around
// them; each transpose reads and writes the tensor its grid names (⌈∏spatial/32⌉,
// ⌈C/32⌉, N), as on the H100 ResNet-50 trace's 3x3 convolutions at 56x56.
TEST(ConvModels, CudnnLayoutTransposesAreTwoPassesOverTheTensorTheirGridNames) {
  const GpuSpec& g = h100();
  const OpShapes fwd =
      shapes({{{64, 64, 56, 56}}, {{64, 64, 3, 3}}, {}}, {"", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "1"});
  const MathPath path{.tf32 = true};
  const auto bare = convolutionPrediction(g, "conv2d", fwd, path);
  ASSERT_TRUE(bare);
  const double x = 64.0 * 64 * 56 * 56 * 4, w = 64.0 * 64 * 9 * 4;
  const std::vector<KernelLaunch> kernels{
      KernelLaunch("void cudnn::engines_precompiled::nchwToNhwcKernel<float, float, float, false, true>", {98, 2, 64}),
      KernelLaunch("void cudnn::engines_precompiled::nchwToNhwcKernel<float, float, float, false, true>", {1, 2, 64}),
      KernelLaunch("sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw", {1, 1568, 1})};
  const auto withTransposes = convolutionPrediction(g, "conv2d", fwd, path, kernels);
  ASSERT_TRUE(withTransposes);
  const double transposes = memoryBoundUs(g, 2 * x, 98 * 2 * 64) + memoryBoundUs(g, 2 * w, 128);
  EXPECT_NEAR(withTransposes->us, bare->us + transposes, 1e-9);
  EXPECT_GT(transposes, 30.0);                    // 103 MB of activation moved twice: ~31 µs at 3.35 TB/s
  EXPECT_EQ(withTransposes->model, bare->model);  // calibration shares stay per model
  // The output back to NCHW (nhwcToNchw over N x K x 56 x 56), and a transpose whose grid
  // fits no tensor of the op: the kernel floor.
  const auto out =
      convolutionPrediction(g, "conv2d", fwd, path,
                            {KernelLaunch("void cudnn::engines_precompiled::nhwcToNchwKernel<float>", {98, 2, 64}),
                             KernelLaunch("void cudnn::engines_precompiled::nhwcToNchwKernel<float>", {5, 5, 5}),
                             KernelLaunch("void cudnn::engines_precompiled::nhwcToNchwKernel<float>")});
  ASSERT_TRUE(out);
  EXPECT_NEAR(out->us, bare->us + memoryBoundUs(g, 2 * x, 98 * 2 * 64) + 2 * g.kernelFloorUs, 1e-9);
  // Backward: grad_output, input and weight name the transposed tensors.
  const OpShapes back =
      shapes({{{64, 256, 14, 14}}, {{64, 1024, 14, 14}}, {{256, 1024, 1, 1}}, {}},
             {"", "", "", "[0]", "[1, 1]", "[0, 0]", "[1, 1]", "False", "[0, 0]", "1", "[True, True, False]"});
  const auto backBare = convolutionPrediction(g, "convolution_backward", back, path);
  const auto backT = convolutionPrediction(
      g, "convolution_backward", back, path,
      {KernelLaunch("nchwToNhwcKernel", {7, 8, 64}), KernelLaunch("nhwcToNchwKernel", {7, 32, 64})});
  ASSERT_TRUE(backBare && backT);
  EXPECT_NEAR(
      backT->us - backBare->us,
      memoryBoundUs(g, 2 * 64.0 * 256 * 196 * 4, 7 * 8 * 64) + memoryBoundUs(g, 2 * 64.0 * 1024 * 196 * 4, 7 * 32 * 64),
      1e-9);
}

TEST(ConvModels, BatchNormAndPoolingAreTheirBytesOverDram) {
  const GpuSpec& g = h100();
  const double act = 64.0 * 64 * 112 * 112 * 4;  // one 64x64x112x112 float activation
  // batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn)
  auto train = normOrPoolPrediction(g, "batch_norm",
                                    shapes({{{64, 64, 112, 112}}, {{64}}, {{64}}, {{64}}, {{64}}, {}, {}, {}, {}},
                                           {"", "", "", "", "", "True", "0.1", "1e-05", "True"}));
  ASSERT_TRUE(train);
  EXPECT_NEAR(train->us, g.dramUs(3 * act), 1e-9);
  EXPECT_EQ(train->model, "memory-bound (batch norm)");
  auto eval = normOrPoolPrediction(g, "batch_norm",
                                   shapes({{{64, 64, 112, 112}}, {{64}}, {{64}}, {{64}}, {{64}}, {}, {}, {}, {}},
                                          {"", "", "", "", "", "False", "0.1", "1e-05", "True"}));
  ASSERT_TRUE(eval);
  EXPECT_NEAR(eval->us, g.dramUs(2 * act), 1e-9);
  auto back = normOrPoolPrediction(g, "cudnn_batch_norm_backward",
                                   shapes({{{64, 64, 112, 112}}, {{64, 64, 112, 112}}, {{64}}}, {}));
  ASSERT_TRUE(back);
  EXPECT_NEAR(back->us, g.dramUs(5 * act), 1e-9);
  // cuDNN's kernel: one block per channel, 64 of the 132 SMs.
  auto narrow = normOrPoolPrediction(g, "cudnn_batch_norm_backward",
                                     shapes({{{64, 64, 112, 112}}, {{64, 64, 112, 112}}, {{64}}}, {}), 64);
  ASSERT_TRUE(narrow);
  EXPECT_NEAR(narrow->us, g.dramUs(5 * act) * 132 / 64, 1e-9);
  // max_pool2d_with_indices(input, kernel 3, stride 2, padding 1, dilation 1, ceil False):
  // 56x56 out, with int64 indices.
  auto pool = normOrPoolPrediction(
      g, "max_pool2d_with_indices",
      shapes({{{64, 64, 112, 112}}, {}, {}, {}, {}, {}}, {"", "[3, 3]", "[2, 2]", "[1, 1]", "[1, 1]", "False"}));
  ASSERT_TRUE(pool);
  EXPECT_NEAR(pool->us, g.dramUs(act + 64.0 * 64 * 56 * 56 * (4 + 8)), 1e-9);
  // max_pool2d(kernel 3, stride [] = the kernel): 37x37 out, no indices.
  auto same = normOrPoolPrediction(
      g, "max_pool2d",
      shapes({{{64, 64, 112, 112}}, {}, {}, {}, {}, {}}, {"", "[3, 3]", "[]", "[0, 0]", "[1, 1]", "False"}));
  ASSERT_TRUE(same);
  EXPECT_NEAR(same->us, g.dramUs(act + 64.0 * 64 * 37 * 37 * 4), 1e-9);
  auto adaptive = normOrPoolPrediction(g, "adaptive_avg_pool2d", shapes({{{64, 2048, 7, 7}}, {}}, {"", "[1, 1]"}));
  ASSERT_TRUE(adaptive);
  EXPECT_NEAR(adaptive->us, std::max(g.dramUs(64.0 * 2048 * 49 * 4 + 64.0 * 2048 * 4), g.kernelFloorUs), 1e-9);
  EXPECT_FALSE(normOrPoolPrediction(g, "max_pool2d", shapes({{{64, 64, 112, 112}}, {}, {}, {}, {}, {}}, {})));
  EXPECT_FALSE(normOrPoolPrediction(g, "relu", shapes({{{64, 64, 112, 112}}}, {})));
}

// Shapes from a damaged or hostile file: no model or a finite figure, never an integer
// overflow (the sanitizer build halts on one).
TEST(ConvModels, AbsurdShapesGiveNoModelOrAFiniteFigure) {
  const GpuSpec& g = h100();
  const int64_t huge = std::numeric_limits<int64_t>::max();
  EXPECT_FALSE(convolutionPrediction(
      g, "conv2d", shapes({{{1, 1, huge, 1}}, {{1, 1, 1, 1}}, {}}, {"", "", "", "1", std::to_string(huge), "1", "1"}),
      MathPath{.tf32 = false}));
  auto p = convolutionPrediction(g, "convolution_backward",
                                 shapes({{{huge, 2, 1, 1}}, {{huge, 2, 1, 1}}, {{2, 2, 1, 1}}, {}}, {}),
                                 MathPath{.tf32 = false});
  ASSERT_TRUE(p);
  EXPECT_TRUE(std::isfinite(p->us));
  EXPECT_GT(p->us, 0);
}

// On the real trace (PyTorch 2.11 on an H100): the batch norms of the 64-channel layers
// at 56x56 launch 64 blocks; priced at the share of the bandwidth those reach, their
// error is under half of what the full bandwidth gives.
TEST(ConvModels, RealResNetBatchNormsFollowTheirGrid) {
  LoadResult r = loadTraceFile(OPSCOPE_SOURCE_DIR "/tests/data/pytorch_h100/h100_resnet50_train.pt.trace.json.gz");
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const GpuSpec& g = h100();
  const std::vector<OpRow> rows = predictOps(*r.trace, OpModels(g), std::nullopt);
  const double bytes = 3 * 64.0 * 64 * 56 * 56 * 4;
  size_t seen = 0;
  double errGrid = 0, errFull = 0;
  for (const OpRow& row : rows) {
    if (r.trace->name(row.op) != "aten::batch_norm" || !row.shapes.starts_with("[[64,64,56,56]")) continue;
    ++seen;
    ASSERT_TRUE(row.predictedUs);
    EXPECT_NEAR(*row.predictedUs, memoryBoundUs(g, bytes, 64), 1e-9);
    const double measured = static_cast<double>(row.measuredGpu) / 1e3;
    errGrid += std::abs(*row.predictedUs - measured) / measured;
    errFull += std::abs(memoryBoundUs(g, bytes) - measured) / measured;
  }
  ASSERT_EQ(seen, 18u);  // 6 per iteration, 3 iterations
  EXPECT_LT(errGrid, errFull / 2);
}

}  // namespace
}  // namespace opscope
