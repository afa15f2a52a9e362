#pragma once
// How far each op is from the hardware (AMD TraceLens' per-op roofline, opscope's models):
// for every op a model prices (predictOps' leaves: GEMMs, convolutions, attention,
// element-wise ops, reductions, norms, embeddings), grouped by name, recorded input dims
// and dtype: the work per call the model counts (FLOPs, DRAM bytes), the op's measured
// kernel time (its own kernels and its sub-ops'), what that achieves (TFLOP/s, TB/s), and
// the roof at its arithmetic intensity on the GPU for its dtype (the tensor-core peak
// when its math runs on tensor cores: half types, TF32 kernels).
//
//   roof time per call = max(flops / peak, bytes / DRAM bandwidth)
//   roof_pct          = 100 · roof time / measured mean      (> 100: caches served bytes)
//   bound             = "compute" when flops / bytes >= peak / bandwidth (the ridge), else "memory"
//   at_stake_us       = total · (1 − roof_pct / 100), at least 0
//
// Rows by at_stake_us, most first. Ops whose model counts no work (a copy's bytes are
// counted, its FLOPs are 0) still have a row: bound "memory". Collectives' rows hold
// nccl-tests' bus bytes, their TB/s is the bus bandwidth achieved and their roof the link
// the collective model uses (NVLink one way inside a node, PCIe without it, the node's
// NICs across nodes): bound "link".
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/trace.h"
#include "perf/gpu_spec.h"
#include "perf/op_models.h"

namespace opscope {

struct RooflineRow {
  std::string name, inputDims, dtype;  // dtype: "fp32", "tf32" (F32 on tensor cores), "bf16", "fp16", "fp64", ...
  std::string category;                // the model's family: "gemm", "convolution", "attention", "memory-bound", ...
  uint64_t count = 0;
  TimeNs kernelTotal = 0;       // measured, summed over the calls
  double flops = 0, bytes = 0;  // per call
  double peakTflops = 0;        // the compute roof for its dtype and path
  bool tensorCore = false;
  double linkTBs = 0;  // collectives: the link's roof; bytes are bus bytes and tbs the bus bandwidth
  EventRef longest;    // its longest call (the chart selects it)
  double kernelMeanUs() const {
    return count ? static_cast<double>(kernelTotal) / 1000.0 / static_cast<double>(count) : 0;
  }
  double flopsPerByte() const { return bytes > 0 ? flops / bytes : 0; }
  double tflopsS() const;               // achieved: flops · count / total time
  double tbs() const;                   // achieved: bytes · count / total time
  double roofUs(double dramTBs) const;  // per call
  double roofPct(double dramTBs) const;
  bool computeBound(double dramTBs) const;
  const char* bound(double dramTBs) const;  // "compute", "memory", or "link" for a collective
  double atStakeUs(double dramTBs) const;
};

struct Roofline {
  GpuSpec gpu;
  double dramTBs = 0;
  std::vector<std::pair<std::string, double>> peaks;  // ("bf16", TFLOP/s) for each type the GPU has
  std::vector<RooflineRow> ops;                       // by at_stake_us, most first
  std::optional<TimeWindow> window;
};

// The analysis catalog's "roofline" (report/analyses/roofline.cpp): the roofline on the
// trace's own GPU, or why there is none (no preset matches its device).
struct RooflineAnalysis {
  std::optional<Roofline> roof;
  std::string gpuSource;  // which preset and why, or why none
};

// Ops starting in window (default: the whole trace), priced by gpu's models for their work.
Roofline computeRoofline(const Trace& trace, const GpuSpec& gpu, std::optional<TimeWindow> window = std::nullopt,
                         const std::map<uint64_t, OpShapes>* extraShapes = nullptr);

// "gemm roofline (tf32)" -> "gemm"; "memory-bound (triton)" -> "memory-bound".
std::string modelCategory(std::string_view model);

}  // namespace opscope
