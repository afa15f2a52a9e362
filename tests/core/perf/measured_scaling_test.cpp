// Scaling a measured kernel to another GPU by the roof its name says it is bound by.
#include "perf/measured_scaling.h"

#include <gtest/gtest.h>

namespace opscope {
namespace {

TEST(MeasuredScaling, EachKernelClassTakesItsRoofsRatio) {
  const GpuSpec& v100 = *builtinGpuSpecs().find("V100");
  const GpuSpec& h100 = *builtinGpuSpecs().find("H100-SXM");
  const TimeNs ms = 1'000'000;
  struct Case {
    const char* name;
    SliceKind kind;
    const char* roof;
    double ratio;  // V100 time / H100 time
  };
  const Case cases[] = {
      {"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64", SliceKind::Kernel, "bf16", 989.0 / 125},
      {"volta_fp16_s884gemm_fp16_128x128_ldg8_f2f_nn", SliceKind::Kernel, "fp16", 989.0 / 125},
      {"sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw", SliceKind::Kernel, "tf32", 495.0 / 12.2},
      {"volta_sgemm_128x64_nn", SliceKind::Kernel, "fp32", 67.0 / 12.2},
      {"void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>>", SliceKind::Kernel, "dram",
       3350.0 / 809},
      {"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)", SliceKind::Kernel, "link", 900.0 / 300},
      {"Memcpy HtoD (Pageable -> Device)", SliceKind::Memcpy, "pcie", 64.0 / 16},
      {"Memcpy DtoD (Device -> Device)", SliceKind::Memcpy, "dram", 3350.0 / 809},
      {"Memset (Device)", SliceKind::Memset, "dram", 3350.0 / 809}};
  for (const Case& c : cases) {
    EXPECT_STREQ(scalingRoof(c.name, c.kind), c.roof) << c.name;
    EXPECT_NEAR(static_cast<double>(ms) / static_cast<double>(scaledToGpu(v100, h100, c.name, c.kind, ms)), c.ratio,
                1e-3 * c.ratio)
        << c.name;
  }
  // Never below the target's kernel floor (2 µs).
  EXPECT_EQ(scaledToGpu(v100, h100, "volta_sgemm_128x64_nn", SliceKind::Kernel, 3'000), 2'000);
}

}  // namespace
}  // namespace opscope
