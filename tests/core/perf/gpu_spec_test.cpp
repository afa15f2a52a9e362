#include "perf/gpu_spec.h"

#include "io/device_properties_json.h"

#include <gtest/gtest.h>

namespace opscope {
namespace {

TEST(GpuSpec, BuiltinPresetsParseAndHoldTheIssueFigures) {
  const GpuSpecSet& set = builtinGpuSpecs();
  ASSERT_GE(set.gpus.size(), 3u);
  const GpuSpec* v100 = set.find("v100");  // case-insensitive
  ASSERT_TRUE(v100);
  EXPECT_EQ(v100->dramGBs, 809);
  EXPECT_EQ(v100->l2GBs, 2888);
  EXPECT_EQ(v100->l2Bytes, 6.0 * 1024 * 1024);
  EXPECT_EQ(v100->sms, 80);
  EXPECT_EQ(v100->fp32, 12.2);
  const GpuSpec* h100 = set.find("H100-SXM");
  ASSERT_TRUE(h100);
  // Datasheet throughout, like the other presets (no measured figure mixed in).
  EXPECT_EQ(h100->dramGBs, 3350);
  EXPECT_EQ(h100->bf16, 989);
  EXPECT_NE(h100->source.find("datasheet"), std::string::npos);
  EXPECT_EQ(h100->source.find("measured"), std::string::npos);
  EXPECT_TRUE(set.find("A100-SXM4-80GB"));
  // Missing units fall back to wider types.
  EXPECT_EQ(v100->peakFlops(DType::BF16), v100->fp16 * 1e12);
  EXPECT_EQ(v100->peakFlops(DType::F32), 12.2e12);
}

TEST(GpuSpec, DefaultFromDeviceProperties) {
  const GpuSpecSet& set = builtinGpuSpecs();
  std::string reason;
  auto a = gpuForDeviceProperties(
      set, parseDeviceProperties(R"([{"id":0,"name":"NVIDIA A100-SXM4-40GB","numSms":108}])"), reason);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->name, "A100-SXM4-40GB");  // the longest match wins over "A100"
  // Only "A100" in the name: the memory decides (alexnet_train_cuda's device).
  a = gpuForDeviceProperties(
      set, parseDeviceProperties(R"([{"name":"NVIDIA A100-PG509-200","totalGlobalMem":42297524224,"numSms":108}])"),
      reason);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->name, "A100-SXM4-40GB");
  EXPECT_NE(reason.find("39.4 GiB"), std::string::npos) << reason;
  a = gpuForDeviceProperties(
      set, parseDeviceProperties(R"([{"name":"NVIDIA A100-PG509-400","totalGlobalMem":85198045184}])"), reason);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->name, "A100-SXM4-80GB");
  a = gpuForDeviceProperties(set, parseDeviceProperties(R"([{"name":"NVIDIA H100 80GB HBM3"}])"), reason);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->name, "H100-SXM");
  // ROCm names every device "AMD Radeon Graphics": SM count and warp size decide.
  a = gpuForDeviceProperties(
      set,
      parseDeviceProperties(
          R"([{"name":"AMD Radeon Graphics","numSms":104,"warpSize":64,"computeMajor":9,"computeMinor":0}])"),
      reason);  // ROCm's gfx90a says 9.0: not an sm90
  ASSERT_TRUE(a);
  EXPECT_EQ(a->name, "MI250-GCD");
  EXPECT_NE(reason.find("104 SMs"), std::string::npos) << reason;
  // "L4" is not in "L40S" (word boundaries): the L40S has its own preset since 2026-11.
  a = gpuForDeviceProperties(set, parseDeviceProperties(R"([{"name":"NVIDIA L40S","numSms":142}])"), reason);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->name, "L40S");
  // The GPUs of 2026 by their deviceProperties names: never a silent substitute (a GeForce
  // RTX 2080 Ti was priced as a V100; a B200 was refused).
  const std::pair<const char*, const char*> named[] = {
      {R"([{"name":"NVIDIA GeForce RTX 2080 Ti","numSms":68,"computeMajor":7,"computeMinor":5}])", "RTX-2080-Ti"},
      {R"([{"name":"NVIDIA B200","numSms":148,"computeMajor":10,"computeMinor":0}])", "B200"},
      {R"([{"name":"NVIDIA GB200","numSms":152,"computeMajor":10,"computeMinor":0}])", "GB200"},
      {R"([{"name":"NVIDIA H100 PCIe","numSms":114,"computeMajor":9,"computeMinor":0}])", "H100-PCIe"},
      {R"([{"name":"NVIDIA H20","numSms":78,"computeMajor":9,"computeMinor":0}])", "H20"},
      {R"([{"name":"NVIDIA H200","numSms":132,"computeMajor":9,"computeMinor":0}])", "H200"},
      {R"([{"name":"NVIDIA GeForce RTX 4090","numSms":128}])", "RTX-4090"},
      {R"([{"name":"NVIDIA RTX 6000 Ada Generation","numSms":142}])", "RTX-6000-Ada"},
      {R"([{"name":"NVIDIA RTX A6000","numSms":84}])", "RTX-A6000"},
      {R"([{"name":"NVIDIA GeForce RTX 3090","numSms":82}])", "RTX-3090"},
      {R"([{"name":"Tesla T4","numSms":40}])", "T4"},
      {R"([{"name":"AMD Instinct MI325X","numSms":304,"warpSize":64}])", "MI325X"},
      {R"([{"name":"AMD Instinct MI355X","numSms":256,"warpSize":64}])", "MI355X"}};
  for (const auto& [props, want] : named) {
    a = gpuForDeviceProperties(set, parseDeviceProperties(props), reason);
    ASSERT_TRUE(a) << props << ": " << reason;
    EXPECT_EQ(a->name, want) << props;
  }
  // No preset of its name: the nearest of its architecture (sm86: the RTX 3080's 68 SMs are
  // nearest the A10G's 80), said so.
  a = gpuForDeviceProperties(
      set,
      parseDeviceProperties(R"([{"name":"NVIDIA GeForce RTX 3080","numSms":68,"computeMajor":8,"computeMinor":6}])"),
      reason);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->arch, "sm86");
  EXPECT_NE(reason.find("has no preset: the nearest of its architecture, " + a->name), std::string::npos) << reason;
  // No preset of its architecture either (Pascal): refused, with the list.
  EXPECT_FALSE(gpuForDeviceProperties(
      set,
      parseDeviceProperties(
          R"([{"name":"NVIDIA GeForce GTX 1060 6GB","numSms":10,"computeMajor":6,"computeMinor":1}])"),
      reason));
  EXPECT_NE(reason.find("(sm61) matches no preset"), std::string::npos) << reason;
  EXPECT_NE(reason.find("the presets: V100, "), std::string::npos) << reason;
  // An MTIA device is no GPU preset.
  EXPECT_FALSE(gpuForDeviceProperties(
      set, parseDeviceProperties(R"([{"name":"ARTEMIS","totalGlobalMem":68719476736}])"), reason));
  EXPECT_FALSE(gpuForDeviceProperties(set, parseDeviceProperties(""), reason));
  EXPECT_FALSE(gpuForDeviceProperties(set, parseDeviceProperties("[]"), reason));
}

TEST(GpuSpec, KernelNamesTellTheArchitecture) {
  using V = std::vector<std::string_view>;
  EXPECT_EQ(kernelArchitecture(V{"sm80_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x16", "elementwise_kernel"}),
            "sm80");
  EXPECT_EQ(kernelArchitecture(V{"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_16x3_nn_align4>(...)"}),
            "sm80");
  EXPECT_EQ(kernelArchitecture(V{"ampere_sgemm_128x64_nn", "volta_sgemm_128x64_nn", "ampere_fp16_s1688gemm"}), "sm80");
  EXPECT_EQ(kernelArchitecture(V{"sm90_xmma_gemm_bf16bf16_bf16f32", "_sm90_cutlass"}), "sm90");
  EXPECT_EQ(kernelArchitecture(V{"volta_h884gemm_64x64_ldg8_nn"}), "sm70");
  // Words that merely contain "sm" and digits elsewhere say nothing.
  EXPECT_EQ(kernelArchitecture(V{"softmax_warp_forward<float, 1024>", "cunn_SoftMaxForward<4>", "asm12_kernel"}), "");
  EXPECT_EQ(kernelArchitecture(V{}), "");
  // One name at a time, and the version number of an architecture.
  EXPECT_EQ(kernelNameArchitecture("sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw"), "sm80");
  EXPECT_EQ(kernelNameArchitecture("nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT"), "sm90");
  EXPECT_EQ(kernelNameArchitecture("void cudnn::engines_precompiled::nchwToNhwcKernel<float>"), "");
  EXPECT_EQ(smVersion("sm80"), 80);
  EXPECT_EQ(smVersion("sm100"), 100);
  EXPECT_EQ(smVersion("gfx90a"), 0);
  EXPECT_EQ(smVersion("sm"), 0);
  EXPECT_EQ(smVersion("sm9x"), 0);
}

TEST(GpuSpec, UserFilesRoundTripAndBadOnesSayWhat) {
  const GpuSpec& h100 = *builtinGpuSpecs().find("H100-SXM");
  std::string error;
  auto back = parseGpuSpecs(gpuSpecJson(h100), error);  // one object is a file too
  ASSERT_TRUE(back) << error;
  ASSERT_EQ(back->gpus.size(), 1u);
  EXPECT_EQ(back->gpus[0].dramGBs, h100.dramGBs);
  EXPECT_EQ(back->gpus[0].l2Bytes, h100.l2Bytes);
  EXPECT_EQ(back->gpus[0].bf16, h100.bf16);
  EXPECT_EQ(back->gpus[0].match, h100.match);

  EXPECT_FALSE(parseGpuSpecs(R"({"gpus":[{"name":"X","sms":10,"l2_gbs":1,"l2_mib":1,"fp32_tflops":1}]})", error));
  EXPECT_EQ(error, "GPU \"X\": missing \"dram_gbs\"");
  EXPECT_FALSE(parseGpuSpecs(
      R"({"gpus":[{"name":"X","sms":10,"dram_gbs":"fast","l2_gbs":1,"l2_mib":1,"fp32_tflops":1}]})", error));
  EXPECT_NE(error.find("\"dram_gbs\" must be a number"), std::string::npos);
  EXPECT_FALSE(parseGpuSpecs(R"({"gpus": [)", error));
  EXPECT_NE(error.find("byte"), std::string::npos);
  EXPECT_FALSE(parseGpuSpecs(R"({"gpus": []})", error));
  EXPECT_FALSE(parseGpuSpecs(R"({"gpus":[{"sms":1}]})", error));
  EXPECT_NE(error.find("no \"name\""), std::string::npos);
}

TEST(GpuSpec, ProfilerTypeNames) {
  EXPECT_EQ(dtypeFromProfilerName("float"), DType::F32);
  EXPECT_EQ(dtypeFromProfilerName("c10::BFloat16"), DType::BF16);
  EXPECT_EQ(dtypeFromProfilerName("c10::Half"), DType::F16);
  EXPECT_EQ(dtypeFromProfilerName("long int"), DType::I64);
  EXPECT_EQ(dtypeFromProfilerName("Scalar"), DType::Unknown);
  EXPECT_EQ(dtypeBytes(DType::BF16), 2);
  EXPECT_EQ(dtypeBytes(DType::I64), 8);
}

// Counts kept as int are bounded before the cast (the fuzzer's "sms": 1.4e87 was
// undefined behaviour; tests/fuzz/regressions/gpu_file/huge_sm_count).
TEST(GpuSpec, CountsBeyondAnIntAreOneLineErrors) {
  std::string error;
  const std::string base = R"({"gpus":[{"name":"X","dram_gbs":1,"l2_gbs":1,"l2_mib":1,"fp32_tflops":1,)";
  EXPECT_FALSE(parseGpuSpecs(base + R"("sms":1.4e87}]})", error));
  EXPECT_NE(error.find("\"sms\" must be at most 1000000"), std::string::npos) << error;
  EXPECT_FALSE(parseGpuSpecs(base + R"("sms":10,"warp":1e30}]})", error));
  EXPECT_NE(error.find("\"warp\" must be 1 to 1024"), std::string::npos) << error;
  EXPECT_TRUE(parseGpuSpecs(base + R"("sms":132,"warp":32}]})", error)) << error;
}

// Every preset names the document its figures come from, and has the figures a roofline
// needs (bandwidth, FP32 and a half-precision peak).
TEST(GpuSpec, EveryPresetCitesItsSource) {
  for (const GpuSpec& g : builtinGpuSpecs().gpus) {
    EXPECT_GT(g.source.size(), 20u) << g.name << ": " << g.source;
    EXPECT_TRUE(g.source.find("datasheet") != std::string::npos || g.source.find("whitepaper") != std::string::npos ||
                g.source.find("product brief") != std::string::npos)
        << g.name << ": " << g.source;
    EXPECT_GT(g.dramGBs, 0) << g.name;
    EXPECT_GT(g.fp16, 0) << g.name;
    EXPECT_FALSE(g.arch.empty()) << g.name;
  }
  EXPECT_GE(builtinGpuSpecs().gpus.size(), 22u);
}

}  // namespace
}  // namespace opscope
