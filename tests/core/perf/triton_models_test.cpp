// Triton kernels of torch.compile, priced from the launch records Inductor writes (the
// names and argument shapes of PyTorch's own test/inductor/test_profiler.py, scaled up
// so the bytes matter), worked by hand.
#include "perf/triton_models.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace opscope {
namespace {

const GpuSpec& a100() { return *builtinGpuSpecs().find("A100-SXM4-80GB"); }

OpShapes shapes(std::vector<std::vector<int64_t>> args, DType t = DType::F32) {
  OpShapes s;
  s.dimsText = "recorded";
  for (auto& a : args) {
    s.inputs.push_back(a.empty() ? std::vector<std::vector<int64_t>>{} : std::vector<std::vector<int64_t>>{a});
    s.types.push_back(a.empty() ? DType::Unknown : t);
  }
  return s;
}

TEST(TritonModels, StreamingKernelsMoveEachTensorArgumentOnce) {
  const GpuSpec& g = a100();
  // triton_poi_fused_add_cos_sin_0: in_ptr0, in_ptr1, out_ptr0, xnumel.
  auto p = tritonPrediction(g, "triton_poi_fused_add_cos_sin_0", shapes({{4096, 4096}, {4096, 4096}, {4096, 4096}, {}}),
                            {}, 0);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->model, "memory-bound (triton)");
  EXPECT_DOUBLE_EQ(p->us, memoryBoundUs(g, 3.0 * 4096 * 4096 * 4));
  // A reduction reads its input and writes one value per row; a broadcast bias counts once.
  p = tritonPrediction(g, "triton_red_fused_sum_1", shapes({{8192, 1024}, {1024}, {8192}, {}, {}}, DType::BF16), {}, 0);
  ASSERT_TRUE(p);
  EXPECT_DOUBLE_EQ(p->us, memoryBoundUs(g, (8192.0 * 1024 + 1024 + 8192) * 2));
  // triton_for_fused_0 (a foreach over three pairs): nine tensors. A grid of 27 blocks
  // reaches 27 of the A100's 108 SMs.
  std::vector<std::vector<int64_t>> nine(9, std::vector<int64_t>{2048, 2048});
  p = tritonPrediction(g, "triton_for_fused_0", shapes(nine), {}, 27);
  ASSERT_TRUE(p);
  EXPECT_DOUBLE_EQ(p->us, memoryBoundUs(g, 9.0 * 2048 * 2048 * 4, 27));
  EXPECT_GT(p->us, memoryBoundUs(g, 9.0 * 2048 * 2048 * 4));
  // Only scalars recorded (a trace without shapes of its tensors): nothing to price.
  EXPECT_FALSE(tritonPrediction(g, "triton_per_fused_native_layer_norm_2", shapes({{}, {}}), {}, 0));
  EXPECT_FALSE(tritonPrediction(g, "triton__0d1d2d", shapes({{1024}, {1024}, {1024}}), {}, 0));  // 2023's names
  EXPECT_FALSE(isTritonKernelName("triton__0d1d2d"));
  EXPECT_TRUE(isTritonKernelName("triton_per_fused_native_layer_norm_2"));
}

TEST(TritonModels, GemmTemplatesAreGemms) {
  const GpuSpec& g = a100();
  // triton_tem_fused_mm_0: A [M, K], B [K, N], out [M, N].
  auto p = tritonPrediction(g, "triton_tem_fused_mm_0", shapes({{2048, 512}, {512, 4096}, {2048, 4096}}), {}, 0);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->model, "gemm roofline (triton)");
  EXPECT_DOUBLE_EQ(p->us, gemmRooflineUs(g, GemmShape{1, 2048, 4096, 512, DType::F32}));
  // A bias before A and B is skipped (1-D); the epilogue's relu changes nothing.
  p = tritonPrediction(g, "triton_tem_fused_addmm_relu_1",
                       shapes({{4096}, {2048, 512}, {512, 4096}, {2048, 4096}}, DType::BF16), {}, 0);
  ASSERT_TRUE(p);
  EXPECT_DOUBLE_EQ(p->us, gemmRooflineUs(g, GemmShape{1, 2048, 4096, 512, DType::BF16}));
  p = tritonPrediction(g, "triton_tem_fused_bmm_2", shapes({{16, 256, 64}, {16, 64, 256}, {16, 256, 256}}), {}, 0);
  ASSERT_TRUE(p);
  EXPECT_DOUBLE_EQ(p->us, gemmRooflineUs(g, GemmShape{16, 256, 256, 64, DType::F32}));
  // TF32 when the op's kernels say so.
  p = tritonPrediction(g, "triton_tem_fused_mm_0", shapes({{2048, 512}, {512, 4096}, {2048, 4096}}), MathPath{true}, 0);
  ASSERT_TRUE(p);
  EXPECT_DOUBLE_EQ(p->us, gemmRooflineUs(g, GemmShape{1, 2048, 4096, 512, DType::F32, true}));
  // Nothing chains, or not a GEMM template: no model.
  EXPECT_FALSE(tritonPrediction(g, "triton_tem_fused_mm_0", shapes({{2048, 512}, {256, 4096}, {2048, 4096}}), {}, 0));
  EXPECT_FALSE(tritonPrediction(g, "triton_tem_fused_convolution_0", shapes({{8, 64, 56, 56}, {64, 64, 3, 3}}), {}, 0));
}

// A compiled graph as Kineto records it: CompiledFunction holds the compiled region's
// annotation, which holds each Triton launch record (over its cuLaunchKernel) and the
// extern GEMM the graph calls; the graph is the sum of the two.
TEST(TritonModels, ACompiledGraphIsTheSumOfItsKernels) {
  auto t = test::loadOk(
      R"({"deviceProperties":[{"id":0,"name":"NVIDIA A100-SXM4-80GB","totalGlobalMem":85100000000,"numSms":108}],
  "traceEvents":[
    {"ph":"X","cat":"cpu_op","name":"CompiledFunction","pid":1,"tid":1,"ts":0,"dur":100},
    {"ph":"X","cat":"user_annotation","name":"## Call CompiledFxGraph fabc ##","pid":1,"tid":1,"ts":1,"dur":98},
    {"ph":"X","cat":"cpu_op","name":"triton_poi_fused_add_cos_sin_0","pid":1,"tid":1,"ts":2,"dur":20,
     "args":{"Input Dims":[[4096,4096],[4096,4096],[4096,4096],[]],"Input type":["float","float","float","Int"],"Concrete Inputs":["","","","16777216"]}},
    {"ph":"X","cat":"cuda_driver","name":"cuLaunchKernel","pid":1,"tid":1,"ts":3,"dur":5,"args":{"correlation":1}},
    {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":30,"dur":20,
     "args":{"Input Dims":[[4096,4096],[4096,4096]],"Input type":["float","float"]}},
    {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":31,"dur":5,"args":{"correlation":2}},
    {"ph":"X","cat":"kernel","name":"triton_poi_fused_add_cos_sin_0","pid":0,"tid":7,"ts":10,"dur":300,
     "args":{"correlation":1,"stream":7,"device":0,"grid":[16384,1,1],"block":[128,1,1]}},
    {"ph":"X","cat":"kernel","name":"ampere_sgemm_128x64_nn","pid":0,"tid":7,"ts":320,"dur":5000,
     "args":{"correlation":2,"stream":7,"device":0,"grid":[64,32,1],"block":[128,1,1]}}]})");
  ASSERT_TRUE(t);
  const GpuSpec& g = a100();
  const std::vector<OpRow> rows = predictOps(*t, OpModels(g), std::nullopt);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(t->name(rows[0].op), "CompiledFunction");
  EXPECT_EQ(rows[0].model, "sum of sub-ops");
  ASSERT_TRUE(rows[0].predictedUs);
  const double triton = memoryBoundUs(g, 3.0 * 4096 * 4096 * 4, 16384);
  const double mm = gemmRooflineUs(g, GemmShape{1, 4096, 4096, 4096, DType::F32});
  EXPECT_DOUBLE_EQ(*rows[0].predictedUs, triton + mm);
}

}  // namespace
}  // namespace opscope
