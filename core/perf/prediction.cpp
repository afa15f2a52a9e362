#include "perf/prediction.h"

#include "perf/op_inputs.h"

#include <algorithm>
#include <cmath>
#include <future>
#include <map>

#include "analysis/overheads.h"

namespace opscope {

ErrorFigures errorFigures(const std::vector<double>& errors) {
  ErrorFigures f;
  f.count = errors.size();
  if (errors.empty()) return f;
  double logSum = 0, sum = 0, signedSum = 0;
  for (double e : errors) {
    logSum += std::log(std::max(std::abs(e), 0.01));
    sum += std::abs(e);
    signedSum += e;
  }
  const double n = static_cast<double>(errors.size());
  f.gmaePct = std::exp(logSum / n);
  f.meanPct = sum / n;
  f.signedMeanPct = signedSum / n;
  double var = 0;
  for (double e : errors) var += (std::abs(e) - f.meanPct) * (std::abs(e) - f.meanPct);
  f.stdPct = std::sqrt(var / n);
  return f;
}

std::optional<GpuSpec> gpuForTrace(const Trace& trace, const GpuSpecSet& set, std::string& reason) {
  std::string why;
  if (auto g = gpuForDeviceProperties(set, trace.meta.devices, why)) {
    reason = "trace: " + why;
    return g;
  }
  // The kernels' architecture guesses the GPU only for a trace that does not name its
  // device: a named one that matched nothing is not a V100 because cuBLAS' kernels on it
  // are called volta_* (sm75 Turing runs them too).
  if (!trace.meta.devices.empty() && !trace.meta.devices.front().name.empty()) {
    reason = why;
    return std::nullopt;
  }
  std::vector<std::string_view> kernels;
  for (const Track& t : trace.tracks)
    if (t.kind == TrackKind::GpuStream)
      for (size_t i = 0; i < t.slices.size(); ++i)
        if (t.slices.kind[i] == SliceKind::Kernel) kernels.push_back(trace.str(t.slices.name[i]));
  const std::string arch = kernelArchitecture(kernels);
  if (!arch.empty())
    for (const GpuSpec& g : set.gpus)
      if (g.arch == arch) {
        reason = "trace: " + why + "; its kernels are built for " + arch;
        return g;
      }
  reason = why + (arch.empty() ? std::string() : "; its kernels' " + arch + " matches no preset");
  return std::nullopt;
}

bool chooseCalibrationGpu(PredictionSetup& setup, const Trace& trace, const GpuSpecSet& set, std::string& why) {
  const std::optional<GpuSpec> own = gpuForTrace(trace, set, why);
  if (!own) return false;
  if (own->name != setup.gpu.name) setup.calibrationGpu = own;
  return true;
}

GpuSpec defaultGpu(const Trace& trace, const GpuSpecSet& set, std::string& source) {
  std::string reason;
  if (auto g = gpuForTrace(trace, set, reason)) {
    source = reason;
    return *g;
  }
  source = "default preset (" + reason + ")";
  return set.gpus.front();
}

std::optional<Calibration> fitOnFirstIteration(const Trace& trace, const GpuSpec& gpu,
                                               const Microbenchmarks* microbench,
                                               const std::map<uint64_t, OpShapes>* extraShapes, std::string& note,
                                               const OpInputs* inputs) {
  if (trace.iterations.size() < 2) {
    note = "calibration needs two iterations or more (fitted on one, checked on the others)";
    return std::nullopt;
  }
  const TimeWindow first{trace.iterations[0].start, trace.iterations[0].end};
  std::vector<OpRow> leaves;
  predictOps(trace, OpModels(gpu, microbench), first, extraShapes, &leaves, inputs);
  Calibration c = fitCalibration(leaves, gpu, first);
  const GpuSpec spec = calibrated(gpu, c);
  leaves.clear();
  predictOps(trace, OpModels(spec, microbench), first, extraShapes, &leaves, inputs);
  fitModelEfficiencies(leaves, spec, c);
  return c;
}

namespace {

bool inWindow(const TimeWindow& w, int64_t ts) { return ts >= w.start && ts < w.end; }

// The caller's tables, and for a kind it gave none of, gpu's built-in one.
Microbenchmarks microbenchmarksFor(const PredictionSetup& setup, const GpuSpec& gpu) {
  Microbenchmarks m = setup.microbench ? *setup.microbench : Microbenchmarks{};
  if (const Microbenchmarks* builtin = setup.builtinMicrobench ? builtinMicrobenchmarks(gpu.name) : nullptr) {
    if (!m.gemm) m.gemm = builtin->gemm;
    if (!m.conv) m.conv = builtin->conv;
  }
  return m;
}

// The host overheads measured from the trace itself (the default of
// PredictionSetup::overheads).
OverheadModel measuredOverheads(const Trace& trace, const OpIndex& index) {
  OverheadOptions o;
  o.index = &index;
  o.costs = estimateProfilerCosts(trace, std::nullopt, &index).costs;
  return overheadModel(computeOverheads(trace, o));
}

// What a calibrated companion run shares with the run it accompanies.
struct CompanionOf {
  // Set: the run it accompanies waits on the trace's measured overheads (identical for
  // both runs), which the companion measures first and hands over, while the other
  // prices its ops. On 2 cores each run measured them itself (0.3 s of a 1 GB trace's
  // 2 s each).
  std::promise<OverheadModel>* overheads = nullptr;
};

PredictionResult run(const Trace& trace, PredictionSetup setup, const OpInputs* shared, const CompanionOf* of);

}  // namespace

PredictionResult runPrediction(const Trace& trace, PredictionSetup setup, const OpInputs* shared) {
  return run(trace, std::move(setup), shared, nullptr);
}

namespace {

// of: set when this run is a calibrated companion (PredictionSetup::withCalibratedRun):
// the caller keeps only what CalibratedRun holds of it, so it skips the self-check.
PredictionResult run(const Trace& trace, PredictionSetup setup, const OpInputs* shared, const CompanionOf* of) {
  std::optional<OpInputs> own;
  if (!shared) own.emplace(trace);
  const OpInputs* inputs = shared ? shared : &*own;
  PredictionResult r;
  if (setup.builtinMicrobench && !setup.replay) {
    const bool ownGemm = setup.microbench && setup.microbench->gemm,
               ownConv = setup.microbench && setup.microbench->conv;
    if (!ownGemm) setup.gemmBenchSource = builtinMicrobenchmarkSource(setup.gpu.name, MicrobenchKind::Gemm);
    if (!ownConv) setup.convBenchSource = builtinMicrobenchmarkSource(setup.gpu.name, MicrobenchKind::Convolution);
  }
  // The calibrated companion runs on a thread of its own beside this run (on a 1 GB
  // trace each takes about a second once the args are read): the inputs are read first,
  // then only read by both (OpInputs::shareBetweenThreads), and each run has its own
  // models and simulation; the companion measures the host overheads for both
  // (CompanionOf) and skips the self-check nobody reads of it.
  // Declared before the companion's future, whose destructor waits for the companion:
  // the promise outlives every use of it, also when this run throws.
  std::promise<OverheadModel> overheadsOfCompanion;
  std::shared_future<OverheadModel> overheadsLater;
  std::future<PredictionResult> companion;
  if (setup.withCalibratedRun && !setup.replay && !setup.measuredKernels && !setup.calibrate &&
      !setup.carriedCalibration && trace.iterations.size() >= 2) {
    PredictionSetup c = setup;
    c.withCalibratedRun = false;
    c.calibrate = true;
    inputs->shareBetweenThreads();
    CompanionOf of;
    if (!setup.overheads) {
      overheadsLater = overheadsOfCompanion.get_future().share();
      of.overheads = &overheadsOfCompanion;
    }
    companion = std::async(std::launch::async, [&trace, inputs, c = std::move(c), of]() mutable {
      try {
        return run(trace, std::move(c), inputs, &of);
      } catch (...) {
        // Whatever failed, also before the overheads were measured (an allocation), the
        // run waiting on them is released with this exception; none is set twice.
        if (of.overheads) {
          try {
            of.overheads->set_exception(std::current_exception());
          } catch (const std::future_error&) {
            // handed over already
          }
        }
        throw;
      }
    });
  }
  // Joins the companion (before any return: it reads this call's inputs).
  auto joinCompanion = [&] {
    if (!companion.valid()) return;
    PredictionResult cr = companion.get();
    if (cr.calibration) {
      CalibratedRun run;
      run.calibration = *cr.calibration;
      run.carried = setup.calibrationGpu.has_value();
      run.iterations = std::move(cr.iterations);
      run.errorPctMean = cr.iterationErrorPctMean;
      run.errorPctMeanOutOfSample = cr.iterationErrorPctMeanOutOfSample;
      run.opError = cr.opError;
      run.opErrorBySize = cr.opErrorBySize;
      r.calibratedRun = std::move(run);
    }
  };
  OverheadModel measured;
  if (of && of->overheads) {
    // First, so that the run waiting on them waits least (on an exception the companion's
    // thread hands that over instead).
    measured = measuredOverheads(trace, inputs->opIndex());
    of->overheads->set_value(measured);
  }
  // By the preset's name, which calibration keeps (it rescales the figures only).
  const Microbenchmarks bench = microbenchmarksFor(setup, setup.gpu);
  if (!setup.replay) {
    if (setup.carriedCalibration) {
      setup.gpu = calibrated(setup.gpu, *setup.carriedCalibration);
      r.calibration = setup.carriedCalibration;
    } else if (setup.calibrate) {
      const GpuSpec& fitGpu = setup.calibrationGpu ? *setup.calibrationGpu : setup.gpu;
      const Microbenchmarks fitBench = microbenchmarksFor(setup, fitGpu);
      r.calibration = fitOnFirstIteration(trace, fitGpu, &fitBench, setup.extraShapes.get(), r.calibrationNote, inputs);
      if (r.calibration) {
        if (setup.calibrationGpu) setup.carriedCalibration = r.calibration;  // the reports say "carried"
        setup.gpu = calibrated(setup.gpu, *r.calibration);
      }
    }
    OpModels models(setup.gpu, &bench);
    if (setup.calibrationGpu) models.setKernelsRanOn(*setup.calibrationGpu);
    if (r.calibration) models.setModelEfficiency(r.calibration->modelEfficiency);
    else if (setup.efficiency && !setup.calibrate) {
      models.setLearnedEfficiency(setup.efficiency);
      r.efficiency = setup.efficiency;
      r.fingerprint = traceFingerprint(trace);
      r.traceInFit = setup.efficiency->fittedOnTrace(r.fingerprint);
    }
    r.ops = predictOps(trace, models, setup.window, setup.extraShapes.get(), nullptr, inputs);
    if (!setup.overheads) {
      if (overheadsLater.valid()) measured = overheadsLater.get();
      else if (!(of && of->overheads)) measured = measuredOverheads(trace, inputs->opIndex());
      setup.overheadsSource = "this trace";
    }
  }
  SimOptions sim;
  sim.replay = setup.replay;
  sim.measuredKernels = setup.measuredKernels;
  sim.overheads = setup.replay ? nullptr : (setup.overheads ? &*setup.overheads : &measured);
  sim.ops = &r.ops;
  sim.index = &inputs->opIndex();
  r.iterations = simulateIterations(trace, sim);
  const auto meanAbsError = [](const std::vector<IterationPrediction>& its) {
    std::vector<double> e;
    for (const IterationPrediction& i : its) e.push_back(std::abs(i.errorPct()));
    return errorFigures(e).meanPct;
  };
  r.iterationErrorPctMean = meanAbsError(r.iterations);
  if (r.calibration) {
    std::vector<IterationPrediction> outside;
    for (const IterationPrediction& i : r.iterations)
      if (i.index >= trace.iterations.size() || !inWindow(r.calibration->fittedOn, trace.iterations[i.index].start))
        outside.push_back(i);
    if (!outside.empty()) r.iterationErrorPctMeanOutOfSample = meanAbsError(outside);
  }
  if (!setup.replay && !of) {
    sim.measuredKernels = true;
    r.selfCheck = setup.measuredKernels ? r.iterations : simulateIterations(trace, sim);
    r.selfCheckErrorPctMean = meanAbsError(r.selfCheck);
  }

  std::vector<double> errors;
  std::array<std::vector<double>, kSizeBuckets> errorsBySize;
  struct TypeErrors {
    std::vector<double> all;
    std::array<std::vector<double>, kSizeBuckets> bySize;
  };
  std::map<std::string, std::pair<OpTypeFigures, TypeErrors>> byName;
  double measuredAll = 0, modelledAll = 0;
  for (const OpRow& row : r.ops) {
    // Calibrated: the fitting iteration's ops are in sample, left out of every figure.
    if (r.calibration && inWindow(r.calibration->fittedOn, trace.start(row.op))) continue;
    const double m = static_cast<double>(row.measuredGpu) / 1e3;
    auto& [fig, errs] = byName[std::string(trace.name(row.op))];
    fig.name = trace.name(row.op);
    ++fig.calls;
    fig.measuredUs += m;
    measuredAll += m;
    // Scaled from measured (a what-if without shapes) is no model: it counts in neither
    // the coverage nor the model's errors, though the iterations use it.
    if (!row.predictedUs || row.model == OpModels::kScaledFromMeasured) continue;
    ++fig.modelled;
    fig.predictedUs += *row.predictedUs;
    fig.model = fig.model.empty() || fig.model == row.model ? row.model : "several";
    modelledAll += m;
    if (m <= kSampledOutUs) {
      ++fig.sampledOut;
      ++r.sampledOut;
      continue;
    }
    const double e = errorPct(*row.predictedUs, m);
    const size_t b = sizeBucket(m);
    errors.push_back(e);
    errorsBySize[b].push_back(e);
    errs.all.push_back(e);
    errs.bySize[b].push_back(e);
  }
  r.opError = errorFigures(errors);
  for (size_t b = 0; b < kSizeBuckets; ++b) r.opErrorBySize[b] = errorFigures(errorsBySize[b]);
  r.coverage = measuredAll > 0 ? modelledAll / measuredAll : 0;
  for (auto& [name, entry] : byName) {
    entry.first.error = errorFigures(entry.second.all);
    for (size_t b = 0; b < kSizeBuckets; ++b) entry.first.errorBySize[b] = errorFigures(entry.second.bySize[b]);
    if (entry.first.model.empty()) entry.first.model = "no model";
    r.byOpType.push_back(std::move(entry.first));
  }
  std::sort(r.byOpType.begin(), r.byOpType.end(),
            [](const OpTypeFigures& a, const OpTypeFigures& b) { return a.measuredUs > b.measuredUs; });
  joinCompanion();
  r.setup = std::move(setup);
  return r;
}

}  // namespace

std::vector<OpRow> datasheetLeaves(const Trace& trace, const PredictionSetup& setup) {
  const Microbenchmarks bench = microbenchmarksFor(setup, setup.gpu);
  std::vector<OpRow> leaves;
  predictOps(trace, OpModels(setup.gpu, &bench), std::nullopt, setup.extraShapes.get(), &leaves);
  return leaves;
}

bool isWhatIf(const PredictionResult& r) { return r.setup.calibrationGpu && !r.setup.replay; }

std::optional<double> whatIfRatio(const PredictionResult& r) {
  if (!isWhatIf(r)) return std::nullopt;
  double sum = 0;
  size_t n = 0;
  for (const IterationPrediction& i : r.iterations)
    if (i.measuredUs > 0) {
      sum += i.predictedUs / i.measuredUs;
      ++n;
    }
  if (n == 0) return std::nullopt;
  return sum / static_cast<double>(n);
}

}  // namespace opscope
