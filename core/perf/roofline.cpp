#include "perf/roofline.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace opscope {

namespace {

const char* typeKey(DType t, bool tensorCore) {
  switch (t) {
    case DType::F64:
      return "fp64";
    case DType::F16:
      return "fp16";
    case DType::BF16:
      return "bf16";
    case DType::I8:
      return "int8";
    case DType::F32:
    case DType::Unknown:
      return tensorCore ? "tf32" : "fp32";
    default:
      return "int";
  }
}

// The compute roof of a row's math, TFLOP/s.
double peakOf(const GpuSpec& g, DType t, bool tensorCore) {
  if ((t == DType::F32 || t == DType::Unknown) && tensorCore && g.tf32 > 0) return g.tf32;
  if (t == DType::I8 && g.int8 > 0) return g.int8;
  return g.peakFlops(t) / 1e12;
}

}  // namespace

std::string modelCategory(std::string_view model) {
  for (std::string_view cut : {" roofline", " microbenchmark", " ("}) {
    const size_t at = model.find(cut);
    if (at != std::string_view::npos) model = model.substr(0, at);
  }
  return std::string(model);
}

double RooflineRow::tflopsS() const {
  return kernelTotal > 0 ? flops * static_cast<double>(count) / (static_cast<double>(kernelTotal) * 1e-9) / 1e12 : 0;
}

double RooflineRow::tbs() const {
  return kernelTotal > 0 ? bytes * static_cast<double>(count) / (static_cast<double>(kernelTotal) * 1e-9) / 1e12 : 0;
}

double RooflineRow::roofUs(double dramTBs) const {
  if (linkTBs > 0) return bytes / (linkTBs * 1e12) * 1e6;
  const double compute = peakTflops > 0 ? flops / (peakTflops * 1e12) * 1e6 : 0;
  const double memory = dramTBs > 0 ? bytes / (dramTBs * 1e12) * 1e6 : 0;
  return std::max(compute, memory);
}

double RooflineRow::roofPct(double dramTBs) const {
  const double mean = kernelMeanUs();
  return mean > 0 ? 100.0 * roofUs(dramTBs) / mean : 0;
}

const char* RooflineRow::bound(double dramTBs) const {
  return linkTBs > 0 ? "link" : computeBound(dramTBs) ? "compute" : "memory";
}

bool RooflineRow::computeBound(double dramTBs) const {
  if (linkTBs > 0) return false;
  return bytes > 0 && dramTBs > 0 && peakTflops > 0 ? flopsPerByte() >= peakTflops / dramTBs : flops > 0;
}

double RooflineRow::atStakeUs(double dramTBs) const {
  return std::max(0.0, static_cast<double>(kernelTotal) / 1000.0 * (1 - roofPct(dramTBs) / 100));
}

Roofline computeRoofline(const Trace& trace, const GpuSpec& gpu, std::optional<TimeWindow> window,
                         const std::map<uint64_t, OpShapes>* extraShapes) {
  Roofline r;
  r.gpu = gpu;
  r.window = window;
  r.dramTBs = gpu.dramGBs / 1000.0;
  const std::pair<const char*, double> peaks[] = {{"fp64", gpu.fp64}, {"fp32", gpu.fp32}, {"tf32", gpu.tf32},
                                                  {"bf16", gpu.bf16}, {"fp16", gpu.fp16}, {"fp8", gpu.fp8},
                                                  {"int8", gpu.int8}, {"fp4", gpu.fp4}};
  for (const auto& [k, v] : peaks)
    if (v > 0) r.peaks.emplace_back(k, v);
  // The leaves a model of its own prices, each with its measured kernels (sub-ops'
  // included); the window applies to their start, as predict's does.
  std::vector<OpRow> leaves;
  predictOps(trace, OpModels(gpu), window, extraShapes, &leaves);
  std::map<std::tuple<std::string, std::string, std::string>, RooflineRow> groups;
  for (const OpRow& l : leaves) {
    if (!l.predictedUs || l.gpuEvents == 0) continue;
    if (window && (trace.start(l.op) < window->start || trace.start(l.op) >= window->end)) continue;
    const char* dtype = typeKey(l.dtype, l.tensorCore);
    RooflineRow& row = groups[{std::string(trace.name(l.op)), l.shapes, dtype}];
    if (row.count == 0) {
      row.name = std::string(trace.name(l.op));
      row.inputDims = l.shapes;
      row.dtype = dtype;
      row.category = modelCategory(l.model);
      row.flops = l.flops;
      row.bytes = l.bytes;
      row.tensorCore = l.tensorCore;
      row.linkTBs = l.linkGBs / 1000.0;
      row.peakTflops = row.linkTBs > 0 ? 0 : peakOf(gpu, l.dtype, l.tensorCore);
      row.longest = l.op;
    }
    ++row.count;
    addTo(row.kernelTotal, l.measuredGpu);
    if (row.count > 1) {  // per call: the mean (a collective's size can differ under one name and dims text)
      const double n = static_cast<double>(row.count);
      row.flops += (l.flops - row.flops) / n;
      row.bytes += (l.bytes - row.bytes) / n;
    }
    if (trace.dur(l.op) > trace.dur(row.longest)) row.longest = l.op;
  }
  for (auto& [key, row] : groups) r.ops.push_back(std::move(row));
  const double bw = r.dramTBs;
  std::stable_sort(r.ops.begin(), r.ops.end(),
                   [bw](const RooflineRow& a, const RooflineRow& b) { return a.atStakeUs(bw) > b.atStakeUs(bw); });
  return r;
}

}  // namespace opscope
