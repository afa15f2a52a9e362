#include "perf/prediction_policy.h"

namespace opscope {

const GpuSpec* findGpu(const GpuSpecSet& set, const std::string& name, std::string& message) {
  if (const GpuSpec* g = set.find(name)) return g;
  std::string names;
  for (const GpuSpec& s : set.gpus) names += (names.empty() ? "" : ", ") + s.name;
  message = "no GPU named '" + name + "' (known: " + names + ")";
  return nullptr;
}

PredictionPlan planPrediction(const Trace& trace, const PredictionRequest& request) {
  PredictionPlan plan;
  const GpuSpecSet& gpus = *request.gpus;
  PredictionSetup setup;
  setup.replay = request.replay;
  setup.measuredKernels = request.measuredKernels;
  setup.calibrate = request.calibrate;
  setup.builtinMicrobench = !request.rooflines;
  plan.microbench = request.microbench;
  // Learned efficiency prices every run but a replay and a calibration (which fits its
  // own shares on the datasheet figures).
  plan.efficiency = request.efficiency;
  if (!request.datasheet && !request.replay && !request.calibrate)
    setup.efficiency = request.efficiency ? request.efficiency.get() : builtinEfficiencyTables();
  if (request.microbench && !request.microbench->empty()) setup.microbench = request.microbench.get();
  setup.gemmBenchSource = request.gemmBenchSource;
  setup.convBenchSource = request.convBenchSource;
  if (request.overheads) {
    setup.overheads = request.overheads;
    setup.overheadsSource = request.overheadsSource;
  }
  if (request.extraShapes) {
    setup.extraShapes = request.extraShapes;
    setup.shapesSource = "the trace's Input Dims, else " + request.extraShapesSource;
  }
  // The GPU: named, else the user's own, else the trace's device; never a silent guess
  // (an MTIA or unknown device predicted on a V100 misleads), but a replay models
  // nothing and runs on any preset.
  if (!request.gpuName.empty()) {
    const GpuSpec* g = findGpu(gpus, request.gpuName, plan.message);
    if (!g) {
      plan.error = PlanError::UnknownGpu;
      return plan;
    }
    setup.gpu = *g;
    setup.gpuSource = request.gpuNameSource;
  } else if (request.userGpuDefault && !gpus.gpus.empty()) {
    setup.gpu = gpus.gpus.front();
    setup.gpuSource = request.userGpuSource;
  } else if (auto g = gpuForTrace(trace, gpus, setup.gpuSource)) {
    setup.gpu = *g;
  } else if (request.replay && !gpus.gpus.empty()) {
    setup.gpu = gpus.gpus.front();
    setup.gpuSource = "none matches (" + setup.gpuSource + "); the replay uses no GPU figures";
  } else {
    plan.error = PlanError::NoGpuForTrace;
    plan.message = "no GPU preset matches this trace (" + setup.gpuSource + ")";
    return plan;
  }
  // Calibration fits on the trace's own GPU: a what-if GPU carries the fit over; with
  // the trace's GPU unknown there is nothing to fit on. Every run reports its calibrated
  // companion when it can be fitted.
  if (!request.replay && !request.measuredKernels) {
    std::string why;
    const bool canFit = chooseCalibrationGpu(setup, trace, gpus, why);
    if (request.calibrate && !canFit) {
      plan.error = PlanError::CannotCalibrate;
      plan.message = "calibrating on " + setup.gpu.name +
                     " needs the trace's own GPU to fit on, and no preset matches it (" + why + ")";
      return plan;
    }
    setup.withCalibratedRun = !request.calibrate && canFit;
  }
  plan.setup = std::move(setup);
  return plan;
}

}  // namespace opscope
