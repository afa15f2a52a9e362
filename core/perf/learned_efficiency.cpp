#include "perf/learned_efficiency.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>

#include "io/side_input.h"

namespace opscope {

extern const unsigned char kBuiltinEfficiencyJson[];

double EfficiencyCurve::ratioAt(double datasheetUsPerEvent) const {
  if (knots.empty() || !(datasheetUsPerEvent > 0)) return 1;
  const double x = std::log10(datasheetUsPerEvent);
  if (x <= knots.front().log10Us) return knots.front().ratio;
  if (x >= knots.back().log10Us) return knots.back().ratio;
  const auto hi =
      std::upper_bound(knots.begin(), knots.end(), x, [](double v, const Knot& k) { return v < k.log10Us; });
  const auto lo = hi - 1;
  // Linear in log ratio: a ratio halfway between 2 and 8 is 4, not 5.
  const double f = (x - lo->log10Us) / (hi->log10Us - lo->log10Us);
  return std::exp(std::log(lo->ratio) + f * (std::log(hi->ratio) - std::log(lo->ratio)));
}

bool learnsEfficiency(std::string_view model) {
  return !model.starts_with("collective") && model.find("microbenchmark") == std::string_view::npos;
}

bool EfficiencyCurve::covers(double datasheetUsPerEvent) const {
  if (knots.empty() || !(datasheetUsPerEvent > 0)) return false;
  const double x = std::log10(datasheetUsPerEvent);
  return x >= knots.front().log10Us - kCurveReach && x <= knots.back().log10Us + kCurveReach;
}

namespace {

std::string_view familyOf(std::string_view model) {
  const size_t paren = model.find(" (");
  if (paren != std::string_view::npos) model = model.substr(0, paren);
  const size_t space = model.find(' ');
  if (space != std::string_view::npos && model.substr(0, space) != "memory-bound") model = model.substr(0, space);
  return model;
}

std::string_view vendorOf(const GpuSpec& gpu) {
  if (gpu.arch.starts_with("sm")) return "nvidia";
  if (gpu.arch.starts_with("gfx")) return "amd";
  return "";
}

}  // namespace

std::string gpuVendor(const GpuSpec& gpu) { return std::string(vendorOf(gpu)); }

std::string modelFamily(std::string_view model) { return std::string(familyOf(model)); }

const char* dtypeKey(DType t) {
  switch (t) {
    case DType::F64:
      return "f64";
    case DType::F32:
      return "f32";
    case DType::F16:
      return "f16";
    case DType::BF16:
      return "bf16";
    case DType::I64:
      return "i64";
    case DType::I32:
      return "i32";
    case DType::I16:
      return "i16";
    case DType::I8:
      return "i8";
    case DType::Bool:
      return "bool";
    case DType::Unknown:
      break;
  }
  return "";
}

std::string curveDtypeKey(DType t, bool unaligned) {
  std::string key = dtypeKey(t);
  if (!key.empty() && unaligned) key += " unaligned";
  return key;
}

const EfficiencyCurve* EfficiencyTables::find(const GpuSpec& gpu, std::string_view model, double datasheetUsPerEvent,
                                              std::string* which, std::string_view op, std::string_view dtype) const {
  // Called for every op a model prices: the names are views, the two joined ones built
  // in buffers kept from call to call (no allocation per op once they have grown).
  thread_local std::string byOp, byOpDtype;
  std::array<std::string_view, 4> names;
  size_t n = 0;
  if (!op.empty()) {
    byOp.assign(model).append("|").append(op);
    if (!dtype.empty()) names[n++] = byOpDtype.assign(byOp).append("|").append(dtype);
    names[n++] = byOp;
  }
  names[n++] = model;
  names[n++] = familyOf(model);
  for (const std::string_view key : {std::string_view(gpu.name), vendorOf(gpu), std::string_view("any")}) {
    if (key.empty()) continue;
    const auto g = curves.find(key);
    if (g == curves.end()) continue;
    for (size_t i = 0; i < n; ++i) {
      const auto c = g->second.find(names[i]);
      if (c == g->second.end() || !c->second.covers(datasheetUsPerEvent)) continue;
      if (which) which->assign(key).append(" / ").append(names[i]);
      return &c->second;
    }
  }
  return nullptr;
}

bool EfficiencyTables::fittedOnTrace(std::string_view fingerprint) const {
  return std::any_of(fittedOn.begin(), fittedOn.end(),
                     [&](const FittedTrace& t) { return t.fingerprint == fingerprint; });
}

namespace {

std::optional<EfficiencyCurve> curveFrom(const nlohmann::json& j, const std::string& where, std::string& error) {
  EfficiencyCurve c;
  if (!j.is_object() || !j.contains("knots") || !j.at("knots").is_array()) {
    error = where + ": expected an object with a \"knots\" array";
    return std::nullopt;
  }
  for (const auto& k : j.at("knots")) {
    if (!k.is_array() || k.size() != 2 || !k[0].is_number() || !k[1].is_number()) {
      error = where + ": each knot is [log10 datasheet us, measured / datasheet]";
      return std::nullopt;
    }
    const double x = k[0].get<double>(), r = k[1].get<double>();
    if (!std::isfinite(x) || !std::isfinite(r) || r < kMinRatio || r > kMaxRatio) {
      error = where + ": a knot's ratio must be in [" + std::to_string(kMinRatio).substr(0, 4) + ", " +
              std::to_string(static_cast<int>(kMaxRatio)) + "]";
      return std::nullopt;
    }
    if (!c.knots.empty() && x <= c.knots.back().log10Us) {
      error = where + ": knots must be sorted by their first value, each distinct";
      return std::nullopt;
    }
    c.knots.push_back({x, r});
  }
  if (c.knots.empty()) {
    error = where + ": no knots";
    return std::nullopt;
  }
  if (j.contains("samples") && j.at("samples").is_number_unsigned()) c.samples = j.at("samples").get<uint64_t>();
  return c;
}

}  // namespace

std::optional<EfficiencyTables> parseEfficiencyTables(std::string_view text, std::string& error) {
  auto parsed = parseSideJson(text, error);
  if (!parsed) return std::nullopt;
  const nlohmann::json& j = *parsed;
  if (!j.is_object() || !j.contains("curves") || !j.at("curves").is_object()) {
    error = "not an efficiency table: expected an object with \"curves\" (tools/fit_efficiency.py writes one)";
    return std::nullopt;
  }
  EfficiencyTables t;
  if (j.contains("description") && j.at("description").is_string()) t.description = j.at("description");
  for (const auto& [gpu, models] : j.at("curves").items()) {
    if (!models.is_object()) {
      error = "curves." + gpu + ": expected an object of models";
      return std::nullopt;
    }
    for (const auto& [model, curve] : models.items()) {
      auto c = curveFrom(curve, "curves." + gpu + "." + model, error);
      if (!c) return std::nullopt;
      t.curves[gpu][model] = std::move(*c);
    }
  }
  if (j.contains("fitted_on") && j.at("fitted_on").is_array())
    for (const auto& f : j.at("fitted_on")) {
      if (!f.is_object()) continue;
      FittedTrace ft;
      if (f.contains("file") && f.at("file").is_string()) ft.file = f.at("file");
      if (f.contains("gpu") && f.at("gpu").is_string()) ft.gpu = f.at("gpu");
      if (f.contains("fingerprint") && f.at("fingerprint").is_string()) ft.fingerprint = f.at("fingerprint");
      t.fittedOn.push_back(std::move(ft));
    }
  return t;
}

const EfficiencyTables* builtinEfficiencyTables() {
  static const EfficiencyTables tables = [] {
    std::string error;
    auto t = parseEfficiencyTables(reinterpret_cast<const char*>(kBuiltinEfficiencyJson), error);
    EfficiencyTables out = t ? std::move(*t) : EfficiencyTables{};  // the resource is tested to parse
    out.source = "built-in (resources/gpu/efficiency.json)";
    return out;
  }();
  return &tables;
}

std::string traceFingerprint(const Trace& trace) {
  uint64_t kernels = 0;
  uint64_t ns = 0;  // wraps rather than overflows on absurd durations: it only has to identify
  for (const Track& t : trace.tracks) {
    if (t.kind != TrackKind::GpuStream) continue;
    for (size_t i = 0; i < t.slices.size(); ++i)
      if (t.slices.kind[i] == SliceKind::Kernel) {
        ++kernels;
        ns += static_cast<uint64_t>(t.slices.dur[i]);
      }
  }
  return "kernels=" + std::to_string(kernels) + " kernel_ns=" + std::to_string(ns);
}

}  // namespace opscope
