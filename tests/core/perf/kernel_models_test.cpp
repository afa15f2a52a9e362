// Kernel predictors against the DLRM notebook's own examples (computed by its code)
// and against figures worked out by hand.
#include "perf/kernel_models.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "io/trace_loader.h"

#include "perf/gpu_spec.h"
#include "perf/op_models.h"

namespace opscope {
namespace {

const GpuSpec& preset(const char* name) {
  const GpuSpec* g = builtinGpuSpecs().find(name);
  EXPECT_TRUE(g) << name;
  static GpuSpec none;
  return g ? *g : none;
}

// The markers' test as first written (a case-folded std::search for each marker), the
// reference for the one-pass scan.
bool usesTf32BySearch(std::string_view name) {
  const auto has = [&](std::string_view p) {
    return std::search(name.begin(), name.end(), p.begin(), p.end(), [](char a, char b) {
             return (a >= 'A' && a <= 'Z' ? static_cast<char>(a - 'A' + 'a') : a) == b;
           }) != name.end();
  };
  return has("tf32") || has("tensorop_s1688") || has("tensorop_s16816");
}

// The one-pass scan answers as the search did: on every kernel name of real traces
// other tools wrote (CUDA and ROCm, cuDNN, CUTLASS and Triton kernels) and on names
// built around the markers' edges (a marker cut short at the end, upper case, a 't'
// right before one, nothing but the marker).
TEST(KernelModels, Tf32MarkersFoundInOnePassAsBySearch) {
  std::vector<std::string> names = {"",
                                    "t",
                                    "T",
                                    "tf3",
                                    "tf32",
                                    "TF32",
                                    "xtf32",
                                    "ttf32",
                                    "_tensorop_s168",
                                    "tensorop_s1688",
                                    "TENSOROP_S16816GEMM",
                                    "tensorop_s1681",
                                    "tensorop_h1688",
                                    "sm80_xmma_gemm_f32f32_tF32f32",
                                    "ampere_sgemm_128x64_tt",
                                    "ttttf3"};
  size_t found = 0;
  for (const char* f : {"tests/data/pytorch_h100/h100_resnet50_train.pt.trace.json.gz",
                        "tests/data/tracelens/h100_Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
                        "tests/data/tracelens/mi300_google_owlv2-large-patch14-ensemble__1016001.json.gz",
                        "tests/data/tb_plugin/resnet50_memory.pt.trace.json.gz"}) {
    const LoadResult r = loadTraceFile(OPSCOPE_SOURCE_DIR "/" + std::string(f));
    ASSERT_EQ(r.status, LoadStatus::Ok) << f << ": " << r.error;
    for (const Track& t : r.trace->tracks)
      for (size_t i = 0; i < t.slices.size(); ++i)
        if (t.slices.kind[i] == SliceKind::Kernel) names.emplace_back(r.trace->str(t.slices.name[i]));
  }
  ASSERT_GT(names.size(), 1000u);
  for (const std::string& n : names) {
    ASSERT_EQ(usesTf32TensorCores(n), usesTf32BySearch(n)) << n;
    found += usesTf32TensorCores(n);
  }
  EXPECT_GT(found, 5u);  // the edges' own hits at least: both answers are asked of a yes
}

TEST(KernelModels, EmbeddingForwardMatchesTheNotebook) {
  const GpuSpec& v100 = preset("V100");
  // The notebook: embedding_forward_predictor(809, 2888, L2, 80, batch_size=4096,
  // num_embeddings=500000, num_tables=197, bag_size=32, embedding_dim=32,
  // rows_per_block=128, shmem=True) == 4340.7676440049445
  EXPECT_NEAR(embeddingForwardUs(v100, {4096, 500000, 197, 32, 32, 128, true}), 4340.7676440049445, 1e-6);
  // Small tables that fit in L2 (hit rate 1 with shared memory, 0.872 without), from the
  // notebook's function with the 6 MiB L2.
  EXPECT_NEAR(embeddingForwardUs(v100, {64, 500, 8, 20, 32, 32, true}), 0.7746452410383189, 1e-9);
  EXPECT_NEAR(embeddingForwardUs(v100, {64, 500, 8, 20, 32, 32, false}), 0.9010187391841782, 1e-9);
  EXPECT_EQ(embeddingForwardUs(v100, {0, 500, 8, 20, 32, 32, true}), 0);  // no batch: nothing, not NaN
}

TEST(KernelModels, EmbeddingBackwardMatchesTheNotebook) {
  const GpuSpec& v100 = preset("V100");
  // embedding_backward_sgd_predictor(809, batch_size=2048, num_embeddings=200000,
  // num_tables=128, bag_size=128, embedding_dim=128, rows_per_block=32, shmem=False)
  EXPECT_NEAR(embeddingBackwardSgdUs(v100, {2048, 200000, 128, 128, 128, 32, false}), 86291.71294932015, 1e-6);
  // embedding_backward_rowwise_adagrad_approx_predictor(809, the same shape)
  EXPECT_NEAR(embeddingBackwardRowwiseAdagradUs(v100, {2048, 200000, 128, 128, 128, 32, false}), 64226.252103831896,
              1e-6);
}

TEST(KernelModels, GemmRooflineByHand) {
  const GpuSpec& a100 = preset("A100-SXM4-80GB");
  // 2·4096³ FLOP at 19.5 TFLOP/s = 7048.1 µs; 3·4096²·4 bytes at 2039 GB/s = 98.7 µs.
  const GemmShape big{1, 4096, 4096, 4096, DType::F32};
  EXPECT_DOUBLE_EQ(gemmFlops(big), 2.0 * 4096.0 * 4096.0 * 4096.0);
  EXPECT_NEAR(gemmRooflineUs(a100, big), 2.0 * 4096.0 * 4096.0 * 4096.0 / 19.5e12 * 1e6, 1e-6);
  // bf16: 312 TFLOP/s.
  EXPECT_NEAR(gemmRooflineUs(a100, {1, 4096, 4096, 4096, DType::BF16}), 440.5, 0.1);
  // A skinny GEMM is bandwidth bound: (1·8192 + 8192·8192 + 8192)·4 bytes at 2039 GB/s.
  const double bytes = (8192.0 + 8192.0 * 8192.0 + 8192.0) * 4;
  EXPECT_NEAR(gemmRooflineUs(a100, {1, 1, 8192, 8192, DType::F32}), bytes / 2039e3, 1e-6);
  EXPECT_DOUBLE_EQ(gemmRooflineUs(a100, {1, 2, 2, 2, DType::F32}), a100.kernelFloorUs);  // never below the floor
  // Batched: B times the work.
  EXPECT_NEAR(gemmRooflineUs(a100, {8, 1024, 1024, 1024, DType::F32}), 8 * 2.0 * 1024 * 1024 * 1024 / 19.5e12 * 1e6,
              1e-6);
}

// Float GEMMs on Ampere's tensor cores run in TF32 (156 TFLOP/s on an A100, not 19.5):
// the kernel's name says which path it took.
TEST(KernelModels, Tf32TensorCoreGemmsArePricedAtTheTf32Peak) {
  EXPECT_TRUE(usesTf32TensorCores("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x128_32x3_nt_align1>(...)"));
  EXPECT_TRUE(usesTf32TensorCores("sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw"));
  EXPECT_TRUE(usesTf32TensorCores("cutlass_80_tensorop_s16816gemm_relu_128x128_32x3_nn_align4"));
  EXPECT_FALSE(usesTf32TensorCores("ampere_sgemm_32x32_sliced1x4_tn"));                        // FP32 on the SIMT cores
  EXPECT_FALSE(usesTf32TensorCores("cutlass_80_tensorop_h16816gemm_128x128_32x3_nn_align8"));  // FP16
  const GpuSpec& a100 = preset("A100-SXM4-80GB");
  GemmShape big{1, 4096, 4096, 4096, DType::F32};
  big.tf32 = true;
  EXPECT_NEAR(gemmRooflineUs(a100, big), 2.0 * 4096.0 * 4096.0 * 4096.0 / 156e12 * 1e6, 1e-6);
  // A GPU without TF32 units keeps the FP32 peak.
  EXPECT_NEAR(gemmRooflineUs(preset("V100"), big), 2.0 * 4096.0 * 4096.0 * 4096.0 / (preset("V100").fp32 * 1e12) * 1e6,
              1e-6);
  // The op model reads the path from the kernels the op launched.
  OpShapes s;
  s.dimsText = "x";
  s.inputs = {{{4096, 4096}}, {{4096, 4096}}};
  s.types = {DType::F32, DType::F32};
  const OpModels models(a100);
  const auto simt = models.own("aten::mm", s, {"ampere_sgemm_128x128_nn"});
  const auto tc =
      models.own("aten::mm", s, {"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x128_32x3_nn_align1>(...)"});
  ASSERT_TRUE(simt && tc);
  EXPECT_EQ(simt->model, "gemm roofline");
  EXPECT_EQ(tc->model, "gemm roofline (tf32)");
  EXPECT_NEAR(simt->us / tc->us, 156 / 19.5, 1e-9);
}

TEST(KernelModels, MemoryBound) {
  const GpuSpec& a100 = preset("A100-SXM4-80GB");
  EXPECT_NEAR(memoryBoundUs(a100, 1e9), 1e9 / 2039e3, 1e-9);
  EXPECT_DOUBLE_EQ(memoryBoundUs(a100, 10), a100.kernelFloorUs);
}

// cuDNN's channels-first batch norm launches one block per channel: 64 blocks keep 64 of
// an H100's 132 SMs busy (measured on the H100 ResNet-50 trace: 1.25 TB/s, against 2.5
// with 256 blocks or more).
TEST(KernelModels, AGridOfFewerBlocksThanSmsReachesTheirShareOfTheBandwidth) {
  const GpuSpec& h100 = preset("H100-SXM");
  ASSERT_EQ(h100.sms, 132);
  const double full = 1e9 / 3350e3;
  EXPECT_NEAR(memoryBoundUs(h100, 1e9), full, 1e-9);
  EXPECT_NEAR(memoryBoundUs(h100, 1e9, 64), full * 132 / 64, 1e-9);
  EXPECT_NEAR(memoryBoundUs(h100, 1e9, 132), full, 1e-9);
  EXPECT_NEAR(memoryBoundUs(h100, 1e9, 1 << 20), full, 1e-9);
  EXPECT_DOUBLE_EQ(memoryBoundUs(h100, 10, 1), h100.kernelFloorUs);  // still at least the floor
  // The compute roofline too: a dgrad of 66 blocks uses half the SMs, so half the peak.
  MathPath half;
  half.tf32 = true;
  half.grid = 66;
  const double flops = 2.0 * 4096 * 4096 * 4096;
  EXPECT_NEAR(rooflineUs(h100, flops, 0, DType::F32, half), flops / 495e12 * 1e6 * 2, 1e-6);
}

// sm80 tensor-core code on Hopper issues mma.sync, which reaches about half the tensor
// peak; Hopper's own kernels (sm90_xmma, nvjet_sm90) reach all of it, and FP32 on the
// SIMT cores is not affected.
TEST(KernelModels, Sm80TensorCoreKernelsOnHopperRunAtHalfTheTensorPeak) {
  const GpuSpec& h100 = preset("H100-SXM");
  const GpuSpec& a100 = preset("A100-SXM4-80GB");
  const std::vector<KernelLaunch> sm80{"void cudnn::engines_precompiled::nchwToNhwcKernel<float>",
                                       "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw"};
  MathPath p = mathPath(h100, DType::F32, sm80);
  EXPECT_TRUE(p.tf32);
  EXPECT_TRUE(p.legacyTensorCores);
  EXPECT_FALSE(mathPath(a100, DType::F32, sm80).legacyTensorCores);  // built for the GPU it runs on
  EXPECT_FALSE(mathPath(h100, DType::F32,
                        {"sm90_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc",
                         "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw"})
                   .legacyTensorCores);
  EXPECT_FALSE(mathPath(h100, DType::F32, {"void at::native::elementwise_kernel"}).legacyTensorCores);  // says nothing
  const double flops = 2.0 * 8192 * 8192 * 8192;
  EXPECT_NEAR(rooflineUs(h100, flops, 0, DType::F32, p), flops / (495e12 * kLegacyTensorCoreShare) * 1e6, 1e-6);
  MathPath bf16;
  bf16.legacyTensorCores = true;
  EXPECT_NEAR(rooflineUs(h100, flops, 0, DType::BF16, bf16), flops / (989e12 * kLegacyTensorCoreShare) * 1e6, 1e-6);
  // FP32 on the SIMT cores (ampere_sgemm on an H100): the FP32 peak, not halved.
  const MathPath simt = mathPath(h100, DType::F32, {"ampere_sgemm_128x64_nn"});
  EXPECT_TRUE(simt.legacyTensorCores);
  EXPECT_FALSE(simt.tf32);
  EXPECT_NEAR(rooflineUs(h100, flops, 0, DType::F32, simt), flops / (h100.fp32 * 1e12) * 1e6, 1e-6);
  // The op's grid is its widest math kernel's, never a layout transpose's.
  const MathPath grid = mathPath(h100, DType::F32,
                                 {KernelLaunch("nchwToNhwcKernel<float>", {98, 2, 64}),
                                  KernelLaunch("sm90_xmma_dgrad_implicit_gemm", {50, 2, 1})});
  EXPECT_EQ(grid.grid, 100);
}

TEST(KernelModels, MicrobenchmarkExactAndInterpolated) {
  const GpuSpec& v100 = preset("V100");
  // Every point measured at exactly 2x its roofline: any shape in between gets 2x too.
  std::string csv = "kernel_name,batch_size,M,N,K,kernel_runtime,other\n";
  for (int64_t m : {256, 1024})
    for (int64_t n : {256, 1024})
      for (int64_t k : {256, 1024}) {
        const double t = 2 * gemmRooflineUs(v100, {1, m, n, k, DType::F32});
        csv += "volta_sgemm,1," + std::to_string(m) + "," + std::to_string(n) + "," + std::to_string(k) + "," +
               std::to_string(t) + ",x\n";
      }
  csv += "volta_sgemm,1,512,512,,3.0,x\n";  // incomplete rows are dropped, as the notebook's dropna
  std::string error;
  auto mb = GemmMicrobench::fromCsv(csv, error);
  ASSERT_TRUE(mb) << error;
  EXPECT_EQ(mb->size(), 8u);
  const GemmShape exact{1, 1024, 256, 1024, DType::F32};
  EXPECT_NEAR(mb->predictUs(v100, exact), 2 * gemmRooflineUs(v100, exact), 1e-3);
  const GemmShape between{1, 512, 700, 300, DType::F32};
  EXPECT_NEAR(mb->predictUs(v100, between), 2 * gemmRooflineUs(v100, between), 1e-3);
}

TEST(KernelModels, MicrobenchmarkErrorsNameLineAndColumn) {
  std::string error;
  EXPECT_FALSE(GemmMicrobench::fromCsv("batch_size,M,N,kernel_runtime\n1,2,3,4\n", error));
  EXPECT_NE(error.find("\"K\""), std::string::npos) << error;
  EXPECT_FALSE(GemmMicrobench::fromCsv("batch_size,M,N,K,kernel_runtime\n1,2,3,4,5\n1,x,3,4,5\n", error));
  EXPECT_NE(error.find("line 3, column M"), std::string::npos) << error;
  // A dim no int64 holds (found by the microbench fuzz target: the cast overflowed).
  EXPECT_FALSE(GemmMicrobench::fromCsv("batch_size,M,N,K,kernel_runtime\n1,4e96,3,4,5\n", error));
  EXPECT_NE(error.find("line 2, column M: \"4e96\" is not a whole number up to"), std::string::npos) << error;
  EXPECT_FALSE(GemmMicrobench::fromCsv("batch_size,M,N,K,kernel_runtime\n1,2.5,3,4,5\n", error));
  EXPECT_FALSE(GemmMicrobench::fromCsv("", error));
  EXPECT_FALSE(GemmMicrobench::fromCsv("batch_size,M,N,K,kernel_runtime\n", error));
}

}  // namespace
}  // namespace opscope
