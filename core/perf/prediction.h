#pragma once
// One prediction run over a trace, as `opscope predict` and the prediction pane do it:
// per-op GPU time from the models of a GPU, the iterations simulated end to end, and
// the error figures of the per-op predictions.
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/overhead_model.h"
#include "perf/calibration.h"
#include "perf/iteration_sim.h"
#include "perf/op_models.h"

namespace opscope {

struct PredictionSetup {
  GpuSpec gpu;
  std::string gpuSource;  // why this GPU ("--gpu", "device ...", "default ...")
  bool replay = false;
  // Predict with every GPU event at its measured time (host modelled only): --kernels measured.
  bool measuredKernels = false;
  // Learn the kernel floor and achieved DRAM bandwidth from the first iteration
  // (perf/calibration.h) and predict with them; error figures then leave that
  // iteration's ops out (out of sample). Needs two iterations or more.
  bool calibrate = false;
  // A calibration fitted on another run of the same trace (the main GPU's, for a
  // what-if GPU): applied as it is, never refitted (a what-if GPU fitted to times the
  // trace's own GPU measured would lose its difference).
  std::optional<Calibration> carriedCalibration;
  // Also run the calibrated prediction beside a datasheet one (PredictionResult::
  // calibratedRun), so every report shows both: what the presets alone give and what
  // the trace's own first iteration teaches (its out-of-sample error is the figure the
  // models are judged by).
  bool withCalibratedRun = false;
  // The trace's own GPU when gpu is a what-if (another GPU than the trace's): calibrate
  // and the calibrated run fit on it and carry the result to gpu (fitting the what-if's
  // models to the trace's times would cancel the what-if). Unset: fitted on gpu.
  std::optional<GpuSpec> calibrationGpu;
  std::optional<OverheadModel> overheads;  // default: measured from the trace itself
  std::string overheadsSource;             // file name, or "this trace"
  // Measured GEMMs and convolutions (either optional; gemmBenchSource / convBenchSource
  // say what each is, "" for none). A kind the caller gave none of comes from the
  // preset's built-in table (builtinMicrobenchmarks) unless builtinMicrobench is false
  // (--rooflines); runPrediction then fills its source.
  const Microbenchmarks* microbench = nullptr;
  bool builtinMicrobench = true;
  std::string gemmBenchSource, convBenchSource;
  // Learned achieved-efficiency curves (learned_efficiency.h) that price every model's
  // ops, the built-in ones unless the user gave a table or asked for --datasheet;
  // nullptr: datasheet figures. Not used by --calibrate (which fits its own shares on
  // the datasheet) or --replay. Outlives the setup.
  const EfficiencyTables* efficiency = nullptr;
  std::optional<TimeWindow> window;  // ops of this window only (iterations: all)
  // Shapes of ops the Kineto trace recorded none for (a linked execution trace's).
  std::shared_ptr<const std::map<uint64_t, OpShapes>> extraShapes;
  std::string shapesSource = "the trace's Input Dims";
};

// Ops whose measured GPU time is at most this are left out of the error figures:
// Kineto's sampled-out ops (their kernels not recorded) measure 1 µs whatever they did.
inline constexpr double kSampledOutUs = 1.0;

// Error figures by the op's measured GPU time: < 20 µs, 20-200 µs, > 200 µs (the
// paper's small, medium and large ops); JSON keys in kSizeBucketKeys.
inline constexpr size_t kSizeBuckets = 3;
inline constexpr std::array<const char*, kSizeBuckets> kSizeBucketKeys{"lt_20us", "20_to_200us", "gt_200us"};
inline size_t sizeBucket(double measuredUs) { return measuredUs < 20 ? 0 : measuredUs <= 200 ? 1 : 2; }

struct ErrorFigures {
  uint64_t count = 0;  // predictions compared
  double gmaePct = 0;  // geometric mean of |error| (each at least 0.01 %), the paper's GMAE
  double meanPct = 0;  // mean of |error|
  double stdPct = 0;   // population std of |error|
  double signedMeanPct = 0;
};
struct OpTypeFigures {
  std::string name;
  uint64_t calls = 0, modelled = 0;
  double measuredUs = 0, predictedUs = 0;  // predicted: modelled calls only
  std::string model;
  ErrorFigures error;
  std::array<ErrorFigures, kSizeBuckets> errorBySize;
  uint64_t sampledOut = 0;  // modelled calls left out of the errors (kSampledOutUs)
};

// The calibrated companion of a datasheet run (PredictionSetup::withCalibratedRun).
struct CalibratedRun {
  Calibration calibration;
  bool carried = false;  // fitted on the trace's own GPU and carried to a what-if GPU
  std::vector<IterationPrediction> iterations;
  double errorPctMean = 0;                        // every iteration, the fitting one included
  std::optional<double> errorPctMeanOutOfSample;  // the iterations after the fitting one
  ErrorFigures opError;                           // ops outside the fitting iteration
  std::array<ErrorFigures, kSizeBuckets> opErrorBySize;
};

struct PredictionResult {
  PredictionSetup setup;
  std::vector<OpRow> ops;  // empty in replay mode
  std::vector<IterationPrediction> iterations;
  ErrorFigures opError;  // over modelled ops, sampled-out ones excepted
  std::array<ErrorFigures, kSizeBuckets> opErrorBySize;
  uint64_t sampledOut = 0;              // modelled ops measured at <= kSampledOutUs
  std::vector<OpTypeFigures> byOpType;  // measured GPU time descending
  double iterationErrorPctMean = 0;     // mean |error| of the iterations
  // Predict mode: the same iterations with measured kernel times and the host modelled
  // (the paper's self-check of the host model, whatever the main run's kernels); empty
  // in replay mode.
  std::vector<IterationPrediction> selfCheck;
  double selfCheckErrorPctMean = 0;
  std::optional<Calibration> calibration;  // when setup.calibrate and the trace has two iterations
  std::string calibrationNote;             // why not, when it was asked for and not done
  // Calibrated: mean |error| of the iterations the calibration was not fitted on.
  std::optional<double> iterationErrorPctMeanOutOfSample;
  std::optional<CalibratedRun> calibratedRun;  // setup.withCalibratedRun, two iterations or more
  double coverage = 0;                         // share of measured GPU time whose op has a model
  // With learned efficiency: the trace's fingerprint (traceFingerprint) and whether the
  // tables were fitted on this trace (then its figures are in sample).
  std::string fingerprint;
  bool traceInFit = false;
  // The learned tables that priced the ops (setup.efficiency, unless calibration priced
  // them); null: datasheet figures. What the reports name.
  const EfficiencyTables* efficiency = nullptr;
};

// error of one prediction in percent of the measured value
inline double errorPct(double predicted, double measured) {
  return measured > 0 ? 100.0 * (predicted - measured) / measured : 0;
}
ErrorFigures errorFigures(const std::vector<double>& errorsPct);

// inputs: the trace's op args, shapes and pairings, shared by every pass of the
// prediction and by further predictions on the same trace (a what-if GPU); nullptr:
// read for this prediction alone. Each op's args are read from the trace once.
PredictionResult runPrediction(const Trace& trace, PredictionSetup setup, const OpInputs* inputs = nullptr);

// A prediction on another GPU than the trace ran on (setup.calibrationGpu set, see
// chooseCalibrationGpu; a replay runs on nothing) compares with times that GPU
// measured: its "errors" are the what-if's speed-up or slow-down, not the model's
// accuracy.
bool isWhatIf(const PredictionResult& r);
// The mean over the iterations of predicted / measured when isWhatIf; nullopt
// otherwise and without iterations.
std::optional<double> whatIfRatio(const PredictionResult& r);

// Every op a model of its own prices (predictOps' leaves, sub-ops included) over the
// whole trace with setup.gpu's datasheet figures and tables and no learned efficiency:
// the samples tools/fit_efficiency.py fits curves on (`predict --fit-samples CSV`).
std::vector<OpRow> datasheetLeaves(const Trace& trace, const PredictionSetup& setup);

// The calibration of gpu's models fitted on the trace's first iteration (floor and
// bandwidth, then each model's share); nullopt with why in note when the trace has
// fewer than two iterations (nothing would be left to check it on).
std::optional<Calibration> fitOnFirstIteration(const Trace& trace, const GpuSpec& gpu,
                                               const Microbenchmarks* microbench,
                                               const std::map<uint64_t, OpShapes>* extraShapes, std::string& note,
                                               const OpInputs* inputs = nullptr);

// Where a prediction on setup.gpu calibrates: sets setup.calibrationGpu to the trace's
// own GPU (gpuForTrace) when setup.gpu is another; false, with why, when the trace's
// GPU has no preset and setup.gpu is not known to be it (nothing to fit on).
bool chooseCalibrationGpu(PredictionSetup& setup, const Trace& trace, const GpuSpecSet& set, std::string& why);

// The preset for a trace: its deviceProperties (gpuForDeviceProperties), else the
// architecture its kernel names reveal (kernelArchitecture; the first preset of that
// architecture); nullopt when nothing fits, and reason says why (an MTIA or CPU-only
// trace, an unknown device): then the user picks.
std::optional<GpuSpec> gpuForTrace(const Trace& trace, const GpuSpecSet& set, std::string& reason);

// gpuForTrace, else the first preset of the set (fuzzing and internal checks, which
// must predict on something); source says which.
GpuSpec defaultGpu(const Trace& trace, const GpuSpecSet& set, std::string& source);

}  // namespace opscope
