#include "perf/gpu_spec.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

#include "io/side_input.h"
#include "text/clip.h"
#include "text/json_text.h"

namespace opscope {

extern const char* const kBuiltinGpuSpecsJson;

DType dtypeFromProfilerName(std::string_view n) {
  if (n == "float") return DType::F32;
  if (n == "double") return DType::F64;
  if (n == "c10::Half" || n == "half" || n == "Half") return DType::F16;
  if (n == "c10::BFloat16" || n == "BFloat16") return DType::BF16;
  if (n == "long int" || n == "long" || n == "int64_t") return DType::I64;
  if (n == "int") return DType::I32;
  if (n == "short int" || n == "short") return DType::I16;
  if (n == "signed char" || n == "unsigned char" || n == "c10::Float8_e4m3fn" || n == "c10::Float8_e5m2")
    return DType::I8;
  if (n == "bool") return DType::Bool;
  // c10::ScalarType names, as record_param_comms' "dtype" writes them.
  if (n == "Float") return DType::F32;
  if (n == "Double") return DType::F64;
  if (n == "Long") return DType::I64;
  if (n == "Int") return DType::I32;
  if (n == "Short") return DType::I16;
  if (n == "Char" || n == "Byte" || n.starts_with("Float8")) return DType::I8;
  if (n == "Bool") return DType::Bool;
  // torch.dtype names without "torch." (microbenchmark CSVs).
  if (n == "float32") return DType::F32;
  if (n == "float64") return DType::F64;
  if (n == "float16") return DType::F16;
  if (n == "bfloat16") return DType::BF16;
  return DType::Unknown;
}

double dtypeBytes(DType t) {
  switch (t) {
    case DType::F64:
    case DType::I64:
      return 8;
    case DType::F16:
    case DType::BF16:
    case DType::I16:
      return 2;
    case DType::I8:
    case DType::Bool:
      return 1;
    default:
      return 4;
  }
}

double GpuSpec::peakFlops(DType t) const {
  double tflops = fp32;
  if (t == DType::F64) tflops = fp64 > 0 ? fp64 : fp32;
  if (t == DType::F16) tflops = fp16 > 0 ? fp16 : fp32;
  if (t == DType::BF16) tflops = bf16 > 0 ? bf16 : (fp16 > 0 ? fp16 : fp32);
  return tflops * 1e12;
}

bool iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

namespace {

std::optional<GpuSpec> specFrom(const nlohmann::json& g, std::string& error) {
  if (!g.is_object()) {
    error = "a GPU entry is not an object";
    return std::nullopt;
  }
  GpuSpec s;
  if (!g.contains("name") || !g["name"].is_string() || g["name"].get<std::string>().empty()) {
    error = "a GPU entry has no \"name\"";
    return std::nullopt;
  }
  s.name = g["name"].get<std::string>();
  auto number = [&](const char* key, double& out, bool required) {
    if (!g.contains(key)) {
      if (required) error = "GPU \"" + clipForMessage(s.name) + "\": missing \"" + key + "\"";
      return !required;
    }
    if (!g[key].is_number() || g[key].get<double>() < 0) {
      error = "GPU \"" + clipForMessage(s.name) + "\": \"" + key + "\" must be a number >= 0";
      return false;
    }
    out = g[key].get<double>();
    return true;
  };
  double sms = 0, warp = 32, l2Mib = 0, smemKib = 0, perNode = 8;
  const bool ok = number("sms", sms, true) && number("warp", warp, false) && number("memory_gib", s.memoryGiB, false) &&
                  number("dram_gbs", s.dramGBs, true) && number("l2_gbs", s.l2GBs, true) &&
                  number("l2_mib", l2Mib, true) && number("smem_per_sm_kib", smemKib, false) &&
                  number("fp64_tflops", s.fp64, false) && number("fp32_tflops", s.fp32, true) &&
                  number("tf32_tflops", s.tf32, false) && number("fp16_tflops", s.fp16, false) &&
                  number("bf16_tflops", s.bf16, false) && number("fp8_tflops", s.fp8, false) &&
                  number("int8_tops", s.int8, false) && number("fp4_tflops", s.fp4, false) &&
                  number("pcie_gbs", s.pcieGBs, false) && number("nvlink_gbs", s.nvlinkGBs, false) &&
                  number("kernel_floor_us", s.kernelFloorUs, false) && number("network_gbs", s.networkGBs, false) &&
                  number("gpus_per_node", perNode, false);
  if (!ok) return std::nullopt;
  if (perNode < 1 || perNode > 1024) {
    error = "GPU \"" + clipForMessage(s.name) + "\": \"gpus_per_node\" must be 1 to 1024";
    return std::nullopt;
  }
  s.gpusPerNode = static_cast<int>(perNode);
  if (sms <= 0 || s.dramGBs <= 0 || s.fp32 <= 0) {
    error = "GPU \"" + clipForMessage(s.name) + "\": sms, dram_gbs and fp32_tflops must be > 0";
    return std::nullopt;
  }
  // Counts held as int: bounded before the cast (the fuzzer gave "sms": 1.4e87).
  if (sms > 1e6) {
    error = "GPU \"" + clipForMessage(s.name) + "\": \"sms\" must be at most 1000000";
    return std::nullopt;
  }
  if (warp < 1 || warp > 1024) {
    error = "GPU \"" + clipForMessage(s.name) + "\": \"warp\" must be 1 to 1024";
    return std::nullopt;
  }
  s.sms = static_cast<int>(sms);
  s.warpSize = static_cast<int>(warp);
  s.l2Bytes = l2Mib * 1024 * 1024;
  s.smemPerSmBytes = smemKib * 1024;
  if (g.contains("source") && g["source"].is_string()) s.source = g["source"].get<std::string>();
  if (g.contains("arch") && g["arch"].is_string()) s.arch = g["arch"].get<std::string>();
  if (g.contains("match") && g["match"].is_array())
    for (const auto& m : g["match"])
      if (m.is_string()) s.match.push_back(m.get<std::string>());
  return s;
}

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// needle in hay at word boundaries, case-insensitive ("L4" is not in "L40S").
bool containsWord(std::string_view hay, std::string_view needle) {
  if (needle.empty() || needle.size() > hay.size()) return false;
  for (size_t i = 0; i + needle.size() <= hay.size(); ++i) {
    if (!iequal(hay.substr(i, needle.size()), needle)) continue;
    const bool before = i == 0 || !isWordChar(hay[i - 1]);
    const bool after = i + needle.size() == hay.size() || !isWordChar(hay[i + needle.size()]);
    if (before && after) return true;
  }
  return false;
}

}  // namespace

const GpuSpec* GpuSpecSet::find(std::string_view name) const {
  for (const GpuSpec& g : gpus)
    if (iequal(g.name, name)) return &g;
  return nullptr;
}

std::optional<GpuSpecSet> parseGpuSpecs(std::string_view text, std::string& error) {
  auto parsed = parseSideJson(text, error);
  if (!parsed) return std::nullopt;
  const nlohmann::json& j = *parsed;
  GpuSpecSet set;
  const nlohmann::json* list = nullptr;
  nlohmann::json single;
  if (j.is_object() && j.contains("gpus")) {
    list = &j.at("gpus");
    if (!list->is_array()) {
      error = "\"gpus\" must be an array";
      return std::nullopt;
    }
  } else {
    single = nlohmann::json::array({j});
    list = &single;
  }
  for (const auto& g : *list) {
    auto s = specFrom(g, error);
    if (!s) return std::nullopt;
    set.gpus.push_back(std::move(*s));
  }
  if (set.gpus.empty()) {
    error = "no GPU in the file";
    return std::nullopt;
  }
  return set;
}

const GpuSpecSet& builtinGpuSpecs() {
  static const GpuSpecSet set = [] {
    std::string error;
    auto s = parseGpuSpecs(kBuiltinGpuSpecsJson, error);
    return s ? std::move(*s) : GpuSpecSet{};  // the resource is tested to parse
  }();
  return set;
}

std::string gpuSpecJson(const GpuSpec& s) {
  nlohmann::ordered_json j;
  j["name"] = s.name;
  j["match"] = s.match;
  j["source"] = s.source;
  if (s.memoryGiB > 0) j["memory_gib"] = s.memoryGiB;
  if (!s.arch.empty()) j["arch"] = s.arch;
  j["sms"] = s.sms;
  j["warp"] = s.warpSize;
  j["dram_gbs"] = s.dramGBs;
  j["l2_gbs"] = s.l2GBs;
  j["l2_mib"] = s.l2Bytes / (1024 * 1024);
  j["smem_per_sm_kib"] = s.smemPerSmBytes / 1024;
  j["fp64_tflops"] = s.fp64;
  j["fp32_tflops"] = s.fp32;
  j["tf32_tflops"] = s.tf32;
  j["fp16_tflops"] = s.fp16;
  j["bf16_tflops"] = s.bf16;
  if (s.fp8 > 0) j["fp8_tflops"] = s.fp8;
  if (s.int8 > 0) j["int8_tops"] = s.int8;
  if (s.fp4 > 0) j["fp4_tflops"] = s.fp4;
  j["pcie_gbs"] = s.pcieGBs;
  j["nvlink_gbs"] = s.nvlinkGBs;
  j["kernel_floor_us"] = s.kernelFloorUs;
  j["network_gbs"] = s.networkGBs;
  j["gpus_per_node"] = s.gpusPerNode;
  return jsonText(j, 2);
}

std::optional<GpuSpec> gpuForDeviceProperties(const GpuSpecSet& set, const std::vector<DeviceProperties>& devices,
                                              std::string& reason) {
  if (devices.empty()) {
    reason = "the trace has no deviceProperties";
    return std::nullopt;
  }
  const DeviceProperties& d = devices.front();
  const std::string& name = d.name;
  const double memGiB = d.totalGlobalMem ? *d.totalGlobalMem / (1024.0 * 1024 * 1024) : 0;
  // How far a preset's memory is from the device's: unknown on either side is "far"
  // but equal for all, so it never decides against a known match.
  const auto memoryDistance = [&](const GpuSpec& g) {
    return memGiB > 0 && g.memoryGiB > 0 ? std::abs(g.memoryGiB - memGiB) : 1e9;
  };
  const GpuSpec* best = nullptr;
  size_t bestLength = 0;
  for (const GpuSpec& g : set.gpus)
    for (const std::string& m : g.match)
      if (containsWord(name, m) &&
          (m.size() > bestLength || (m.size() == bestLength && best && memoryDistance(g) < memoryDistance(*best)))) {
        best = &g;
        bestLength = m.size();
      }
  char mem[48] = "";
  if (memGiB > 0) std::snprintf(mem, sizeof mem, " with %.1f GiB", memGiB);
  if (best) {
    reason = "device \"" + name + "\"" + mem;
    return *best;
  }
  const int64_t sms = d.numSms.value_or(0);
  const int64_t warp = d.warpSize.value_or(32);
  // The compute capability, when recorded: an SM count alone does not make two GPUs alike
  // (an RTX 3080 and an RTX 2080 Ti both have 68).
  // (CUDA's only: ROCm reports gfx90a as 9.0 with warp size 64, not an sm90.)
  std::string arch;
  if (d.computeMajor && d.computeMinor && warp == 32)
    arch = "sm" + std::to_string(*d.computeMajor) + std::to_string(*d.computeMinor);
  for (const GpuSpec& g : set.gpus)
    if (sms > 0 && g.sms == sms && g.warpSize == warp && (arch.empty() || g.arch == arch) &&
        (!best || memoryDistance(g) < memoryDistance(*best)))
      best = &g;
  if (best) {
    reason = "device \"" + name + "\"" + mem + " by its " + std::to_string(sms) + " SMs and warp size " +
             std::to_string(warp);
    return *best;
  }
  // No preset of its name or SM count: the nearest of the same architecture (compute
  // capability), said so, never a silent substitute (a GeForce RTX 2080 Ti was priced as a
  // V100 by its cuBLAS kernels' "volta_" names without a word).
  const auto smDistance = [&](const GpuSpec& g) { return sms > 0 ? std::abs(g.sms - sms) : 0; };
  for (const GpuSpec& g : set.gpus)
    if (!arch.empty() && g.arch == arch &&
        (!best ||
         std::make_pair(smDistance(g), memoryDistance(g)) < std::make_pair(smDistance(*best), memoryDistance(*best))))
      best = &g;
  if (best) {
    reason = "device \"" + name + "\"" + mem + " (" + arch + (sms > 0 ? ", " + std::to_string(sms) + " SMs" : "") +
             ") has no preset: the nearest of its architecture, " + best->name + " (" + std::to_string(best->sms) +
             " SMs), was taken";
    return *best;
  }
  std::string names;
  for (const GpuSpec& g : set.gpus) names += (names.empty() ? "" : ", ") + g.name;
  reason = "device \"" + name + "\"" + (arch.empty() ? "" : " (" + arch + ")") +
           " matches no preset and none has its architecture; the presets: " + names;
  return std::nullopt;
}

std::string kernelNameArchitecture(std::string_view n) {
  const auto digitsAfter = [&](size_t at) {
    size_t k = at;
    while (k < n.size() && k - at < 3 && std::isdigit(static_cast<unsigned char>(n[k]))) ++k;
    return k - at >= 2 && (k == n.size() || !std::isdigit(static_cast<unsigned char>(n[k])))
               ? std::string(n.substr(at, k - at))
               : std::string();
  };
  for (const char* prefix : {"sm", "cutlass_"}) {
    for (size_t at = n.find(prefix); at != std::string_view::npos; at = n.find(prefix, at + 1)) {
      // "sm80_xmma", "_sm90_", "cutlass_80_tensorop": a word start, then 2-3 digits.
      if (at > 0 && std::isalnum(static_cast<unsigned char>(n[at - 1]))) continue;
      const std::string d = digitsAfter(at + std::char_traits<char>::length(prefix));
      // Two digits from 50 (Maxwell) on, or three from 100 (Blackwell).
      if ((d.size() == 2 && d[0] >= '5') || (d.size() == 3 && d[0] == '1')) return "sm" + d;
    }
  }
  static const std::pair<const char*, const char*> families[] = {
      {"volta_", "sm70"}, {"turing_", "sm75"}, {"ampere_", "sm80"}, {"hopper_", "sm90"}};
  for (const auto& [word, a] : families)
    if (n.find(word) != std::string_view::npos) return a;
  return {};
}

int smVersion(std::string_view arch) {
  if (!arch.starts_with("sm") || arch.size() < 4 || arch.size() > 5) return 0;
  int v = 0;
  for (char c : arch.substr(2)) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return 0;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::string kernelArchitecture(const std::vector<std::string_view>& kernelNames) {
  // Each name votes once, for the first architecture it names.
  std::map<std::string, size_t> votes;
  for (std::string_view n : kernelNames) {
    const std::string arch = kernelNameArchitecture(n);
    if (!arch.empty()) ++votes[arch];
  }
  std::string best;
  size_t most = 0;
  for (const auto& [arch, count] : votes)
    if (count > most) {
      best = arch;
      most = count;
    }
  return best;
}

}  // namespace opscope
