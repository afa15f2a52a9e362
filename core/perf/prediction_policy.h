#pragma once
// How a prediction is set up for a trace and what the user asked for: which GPU, whether
// and where calibration fits, the microbenchmark tables, overheads and extra shapes. One
// place for `opscope predict` and the Prediction dock, so both decide alike and refuse
// alike: a request that cannot be honoured gets one line, the same in both (each front
// end adds how to fix it in its own terms: an option, a control).
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "perf/gpu_spec.h"
#include "perf/prediction.h"

namespace opscope {

struct PredictionRequest {
  // The GPU to predict on, by name (--gpu; the dock's GPU box); empty: the trace's own
  // device (gpuForTrace), or the first of the user's GPUs when userGpuDefault.
  std::string gpuName;
  std::string gpuNameSource = "--gpu";  // what the reports say chose it ("chosen" in the dock)
  // Where names are looked up and the trace's device matched: the user's GPUs
  // (--gpu-file, the dock's Edit the GPU's figures…) before the presets. Must be set and outlive the plan.
  const GpuSpecSet* gpus = nullptr;
  bool userGpuDefault = false;  // --gpu-file without --gpu: its first GPU, named by userGpuSource
  std::string userGpuSource;
  bool replay = false;           // --replay: measured times; no GPU figures are used
  bool measuredKernels = false;  // --kernels measured
  bool calibrate = false;        // --calibrate; the dock's Calibrate box
  bool rooflines = false;        // --rooflines; the dock's "No microbenchmark"
  // --datasheet: no learned efficiency, the presets' figures alone. Otherwise the
  // user's table (--efficiency FILE) or the built-in one.
  bool datasheet = false;
  std::shared_ptr<const EfficiencyTables> efficiency;
  std::string efficiencySource;
  // Tables, overheads and shapes the user gave (each optional), with what to call them.
  std::shared_ptr<const Microbenchmarks> microbench;
  std::string gemmBenchSource, convBenchSource;
  std::optional<OverheadModel> overheads;
  std::string overheadsSource;
  std::shared_ptr<const std::map<uint64_t, OpShapes>> extraShapes;
  std::string extraShapesSource;  // "the execution trace ET"
};

enum class PlanError {
  None,
  UnknownGpu,       // no GPU of that name
  NoGpuForTrace,    // no name given and no preset matches the trace's device
  CannotCalibrate,  // calibration asked for, and the trace's own GPU (to fit on) is unknown
};

struct PredictionPlan {
  std::optional<PredictionSetup> setup;  // set when error is None
  PlanError error = PlanError::None;
  std::string message;  // one line when error is not None
  // The microbenchmarks the setup points at (setup.microbench), kept alive with it.
  std::shared_ptr<const Microbenchmarks> microbench;
  std::shared_ptr<const EfficiencyTables> efficiency;  // the user's table, kept alive with the setup
};

// The GPU named name in set, or nullptr with message "no GPU named 'X' (known: …)".
const GpuSpec* findGpu(const GpuSpecSet& set, const std::string& name, std::string& message);

PredictionPlan planPrediction(const Trace& trace, const PredictionRequest& request);

}  // namespace opscope
