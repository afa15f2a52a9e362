#include "perf/measured_scaling.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "analysis/kernel_classes.h"

namespace opscope {

namespace {

bool has(const std::string& lower, std::string_view word) { return lower.find(word) != std::string::npos; }

// The math type a compute kernel's name carries.
const char* computeType(const std::string& n) {
  if (has(n, "fp8") || has(n, "e4m3") || has(n, "e5m2")) return "fp8";
  if (has(n, "int8") || has(n, "i8i8") || has(n, "imma")) return "int8";
  if (has(n, "bf16")) return "bf16";
  if (has(n, "fp16") || has(n, "f16") || has(n, "half") || has(n, "h884") || has(n, "h1688") || has(n, "h16816") ||
      has(n, "hmma"))
    return "fp16";
  if (has(n, "tf32") || has(n, "s1688") || has(n, "s16816")) return "tf32";
  return "fp32";
}

double computePeak(const GpuSpec& g, std::string_view type) {
  const double half = g.fp16 > 0 ? g.fp16 : g.fp32;
  if (type == "fp8") return g.fp8 > 0 ? g.fp8 : half;
  if (type == "int8") return g.int8 > 0 ? g.int8 : half;
  if (type == "bf16") return g.bf16 > 0 ? g.bf16 : half;
  if (type == "fp16") return half;
  if (type == "tf32") return g.tf32 > 0 ? g.tf32 : g.fp32;
  return g.fp32;
}

double roofOf(const GpuSpec& g, std::string_view roof) {
  if (roof == "dram") return g.dramGBs;
  if (roof == "pcie") return g.pcieGBs;
  if (roof == "link") return g.nvlinkGBs > 0 ? g.nvlinkGBs : g.pcieGBs;
  return computePeak(g, roof);
}

}  // namespace

const char* scalingRoof(std::string_view name, SliceKind kind) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (kind == SliceKind::Memset) return "dram";
  if (kind == SliceKind::Memcpy)
    return has(lower, "htod") || has(lower, "dtoh") || has(lower, "pageable") || has(lower, "pinned") ? "pcie"
           : has(lower, "ptop") || has(lower, "peer")                                                 ? "link"
                                                                                                      : "dram";
  const std::string cls = KernelClassifier::builtin().classify(name);
  if (cls == "gemm" || cls == "gemv" || cls == "conv" || cls == "attention") return computeType(lower);
  if (cls == "nccl") return "link";
  return "dram";
}

TimeNs scaledToGpu(const GpuSpec& from, const GpuSpec& to, std::string_view name, SliceKind kind, TimeNs dur) {
  const char* roof = scalingRoof(name, kind);
  const double a = roofOf(from, roof), b = roofOf(to, roof);
  const double scaled = a > 0 && b > 0 ? static_cast<double>(dur) * a / b : static_cast<double>(dur);
  return static_cast<TimeNs>(std::max(scaled, to.kernelFloorUs * 1000.0));
}

}  // namespace opscope
