// Op models from recorded shapes, on a fixture whose answers follow from the formulas.
#include "perf/op_models.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace opscope {
namespace {

// Thread 1: addmm (2048x1024 @ 1024x4096), add of two 1024x1024 floats and a scalar,
// a backward node over two mm, and an op nothing models; each launches one kernel.
const char* kOps = R"([
  {"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":1,"tid":1,"ts":0,"dur":10,
   "args":{"Input Dims":[[4096],[2048,1024],[1024,4096],[],[]],"Input type":["float","float","float","Scalar","Scalar"]}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":2,"dur":3,"args":{"correlation":1}},
  {"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":20,"dur":5,
   "args":{"Input Dims":[[1024,1024],[1024,1024],[]],"Input type":["float","float","Scalar"]}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":21,"dur":3,"args":{"correlation":2}},
  {"ph":"X","cat":"cpu_op","name":"AddmmBackward0","pid":1,"tid":1,"ts":40,"dur":30},
  {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":41,"dur":10,
   "args":{"Input Dims":[[2048,4096],[4096,1024]],"Input type":["c10::BFloat16","c10::BFloat16"]}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":42,"dur":3,"args":{"correlation":3}},
  {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":55,"dur":10,
   "args":{"Input Dims":[[1024,2048],[2048,4096]],"Input type":["float","float"]}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":56,"dur":3,"args":{"correlation":4}},
  {"ph":"X","cat":"cpu_op","name":"custom::op","pid":1,"tid":1,"ts":80,"dur":5},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":81,"dur":3,"args":{"correlation":5}},
  {"ph":"X","cat":"kernel","name":"sgemm","pid":0,"tid":7,"ts":5,"dur":900,"args":{"correlation":1,"stream":7,"device":0}},
  {"ph":"X","cat":"kernel","name":"add_kernel","pid":0,"tid":7,"ts":906,"dur":8,"args":{"correlation":2,"stream":7,"device":0}},
  {"ph":"X","cat":"kernel","name":"bf16gemm","pid":0,"tid":7,"ts":915,"dur":60,"args":{"correlation":3,"stream":7,"device":0}},
  {"ph":"X","cat":"kernel","name":"sgemm","pid":0,"tid":7,"ts":976,"dur":800,"args":{"correlation":4,"stream":7,"device":0}},
  {"ph":"X","cat":"kernel","name":"mystery","pid":0,"tid":7,"ts":1777,"dur":50,"args":{"correlation":5,"stream":7,"device":0}}
])";

TEST(OpModels, ShapesOfGemmsAndTheirModels) {
  OpShapes s;
  s.dimsText = "x";
  s.inputs = {{{8, 64, 32}}, {{32, 16}}};
  s.types = {DType::F16, DType::F16};
  auto g = OpModels::gemmShape("aten::matmul", s);  // batch dims fold into M against a matrix
  ASSERT_TRUE(g);
  EXPECT_EQ(g->m, 8 * 64);
  EXPECT_EQ(g->n, 16);
  EXPECT_EQ(g->k, 32);
  s.inputs = {{{8, 64, 32}}, {{8, 32, 16}}};
  g = OpModels::gemmShape("aten::bmm", s);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->batch, 8);
  EXPECT_EQ(g->dtype, DType::F16);
  s.inputs = {{{8, 64, 32}}, {{8, 31, 16}}};  // inner dims disagree: not a GEMM we can trust
  EXPECT_FALSE(OpModels::gemmShape("aten::bmm", s));
  s.inputs = {{{4, 10, 300}}, {{200, 300}}, {{200}}};
  g = OpModels::gemmShape("aten::linear", s);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->m, 40);
  EXPECT_EQ(g->n, 200);
  EXPECT_EQ(g->k, 300);
}

TEST(OpModels, PredictOpsOnTheFixture) {
  auto t = test::loadOk(kOps);
  ASSERT_TRUE(t);
  const GpuSpec& a100 = *builtinGpuSpecs().find("A100-SXM4-80GB");
  const OpModels models(a100);
  const std::vector<OpRow> rows = predictOps(*t, models, std::nullopt);
  ASSERT_EQ(rows.size(), 4u);  // the top-level ops that launched GPU work, in time order

  EXPECT_EQ(t->name(rows[0].op), "aten::addmm");
  EXPECT_EQ(rows[0].measuredGpu, 900'000);
  EXPECT_EQ(rows[0].model, "gemm roofline");
  ASSERT_TRUE(rows[0].predictedUs);
  EXPECT_NEAR(*rows[0].predictedUs, gemmRooflineUs(a100, {1, 2048, 4096, 1024, DType::F32}), 1e-9);
  EXPECT_NEAR(*rows[0].predictedUs, 2.0 * 2048 * 4096 * 1024 / 19.5e12 * 1e6, 1e-6);  // compute bound
  EXPECT_NE(rows[0].shapes.find("2048"), std::string::npos);

  EXPECT_EQ(rows[1].model, "memory-bound");  // reads two 4 MiB tensors, writes one
  ASSERT_TRUE(rows[1].predictedUs);
  EXPECT_NEAR(*rows[1].predictedUs, 3.0 * 1024 * 1024 * 4 / 2039e3, 1e-9);

  EXPECT_EQ(t->name(rows[2].op), "AddmmBackward0");
  EXPECT_EQ(rows[2].model, "sum of sub-ops");
  EXPECT_EQ(rows[2].measuredGpu, 860'000);
  ASSERT_TRUE(rows[2].predictedUs);
  EXPECT_NEAR(*rows[2].predictedUs,
              gemmRooflineUs(a100, {1, 2048, 1024, 4096, DType::BF16}) +
                  gemmRooflineUs(a100, {1, 1024, 4096, 2048, DType::F32}),
              1e-9);

  EXPECT_EQ(t->name(rows[3].op), "custom::op");
  EXPECT_EQ(rows[3].model, "no model");
  EXPECT_FALSE(rows[3].predictedUs);  // never a silent zero
  EXPECT_EQ(rows[3].measuredGpu, 50'000);
}

// Autocast (PyTorch 2.11's bf16 transformer in tests/data/pytorch_h100): aten::linear
// of floats casts bias, weight and input to bf16 and calls aten::linear again; the float
// shapes would price it at the FP32 peak, 15x slower than the bf16 GEMM that ran.
const char* kAutocast = R"([
  {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":0,"dur":300,
   "args":{"Input Dims":[[512,16,1024],[3072,1024],[3072]],"Input type":["float","float","float"]}},
  {"ph":"X","cat":"cpu_op","name":"aten::to","pid":1,"tid":1,"ts":10,"dur":20,
   "args":{"Input Dims":[[3072,1024],[],[],[],[]],"Input type":["float","Scalar","Scalar","Scalar",""]}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":12,"dur":5,"args":{"correlation":1}},
  {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":100,"dur":150,
   "args":{"Input Dims":[[512,16,1024],[3072,1024],[3072]],"Input type":["c10::BFloat16","c10::BFloat16","c10::BFloat16"]}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":110,"dur":5,"args":{"correlation":2}},
  {"ph":"X","cat":"kernel","name":"elementwise_cast","pid":0,"tid":7,"ts":20,"dur":10,"args":{"correlation":1,"stream":7,"device":0}},
  {"ph":"X","cat":"kernel","name":"nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT","pid":0,"tid":7,"ts":120,"dur":90,"args":{"correlation":2,"stream":7,"device":0}}
])";

TEST(OpModels, AnAutocastWrapperIsTheSumOfWhatRanInsideIt) {
  auto t = test::loadOk(kAutocast);
  ASSERT_TRUE(t);
  const GpuSpec& h100 = *builtinGpuSpecs().find("H100-SXM");
  const OpModels models(h100);
  const std::vector<OpRow> rows = predictOps(*t, models, std::nullopt);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].model, "sum of sub-ops");
  ASSERT_TRUE(rows[0].predictedUs);
  const double cast = memoryBoundUs(h100, 3072.0 * 1024 * 4 * 2);  // aten::to: float read, same size written
  const double gemm = gemmRooflineUs(h100, {1, 512 * 16, 3072, 1024, DType::BF16});
  EXPECT_NEAR(*rows[0].predictedUs, cast + gemm, 1e-9);
}

// nll_loss reads one input element per target, not the whole input: its kernel is one
// block, so counting the (2048, 50304) logits would price 412 MB through one SM.
TEST(OpModels, NllLossReadsOneElementPerTarget) {
  const GpuSpec& a100 = *builtinGpuSpecs().find("A100-SXM4-80GB");
  OpShapes s;
  s.dimsText = "x";
  s.inputs = {{{2048, 50304}}, {{2048}}, {}, {}, {}};
  s.types = {DType::F32, DType::I64, DType::Unknown, DType::Unknown, DType::Unknown};
  const OpModels models(a100);
  const auto p = models.own("aten::nll_loss_forward", s,
                            {KernelLaunch("nll_loss_forward_reduce_cuda_kernel_2d<float, float, long>", {1, 1, 1})});
  ASSERT_TRUE(p);
  EXPECT_EQ(p->model, "memory-bound");
  EXPECT_NEAR(p->us, memoryBoundUs(a100, 2048.0 * 8 + 2048.0 * 4, 1), 1e-9);
  EXPECT_LT(p->us, 10.0);
  s.inputs[1].clear();  // no target: no model
  EXPECT_FALSE(models.own("aten::nll_loss_forward", s));
}

TEST(OpModels, MicrobenchmarkReplacesTheRoofline) {
  auto t = test::loadOk(kOps);
  ASSERT_TRUE(t);
  const GpuSpec& a100 = *builtinGpuSpecs().find("A100-SXM4-80GB");
  std::string error;
  Microbenchmarks mb;
  mb.gemm = GemmMicrobench::fromCsv("batch_size,M,N,K,kernel_runtime\n1,2048,4096,1024,777\n", error);
  ASSERT_TRUE(mb.gemm) << error;
  const OpModels models(a100, &mb);
  const std::vector<OpRow> rows = predictOps(*t, models, std::nullopt);
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0].model, "gemm microbenchmark");
  EXPECT_DOUBLE_EQ(*rows[0].predictedUs, 777);  // measured exactly
}

}  // namespace
}  // namespace opscope
