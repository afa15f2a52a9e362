#include "predict_command.h"

#include <algorithm>
#include <cstdio>

#include "cli_common.h"
#include "io/side_input.h"
#include "io/trace_loader.h"
#include "perf/et_shapes.h"
#include "perf/prediction.h"
#include "report/predict_report.h"

namespace opscope::app {

void printUsage(FILE* out);

namespace {

// A side input read with its kind's ceiling; on failure prints one line and sets exit.
bool readSide(const std::string& path, SideInputKind kind, std::string& text, int& exit) {
  SideRead r = readSideInput(path, kind);
  if (r.status != SideReadStatus::Ok) {
    std::fprintf(stderr, "opscope: %s: %s\n", path.c_str(), r.error.c_str());
    exit = r.status == SideReadStatus::IoError ? kIoError : kInvalidInput;
    return false;
  }
  text = std::move(r.text);
  return true;
}

}  // namespace

int runPredict(const std::vector<std::string>& args) {
  std::string file, gpuName, gpuFile, overheadsFile, etFile, kernels = "models", out = "-";
  std::vector<std::string> microbenchFiles;  // one GEMM and one convolution table at most
  bool replay = false, json = false, csv = false, listGpus = false, calibrate = false, rooflines = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& v) {
      if (i + 1 >= args.size()) return false;
      v = args[++i];
      return true;
    };
    bool ok = true;
    if (a == "--gpu") ok = value(gpuName);
    else if (a == "--gpu-file") ok = value(gpuFile);
    else if (a == "--overheads") ok = value(overheadsFile);
    else if (a == "--microbench") ok = value(microbenchFiles.emplace_back());
    else if (a == "--et") ok = value(etFile);
    else if (a == "--kernels") ok = value(kernels);
    else if (a == "-o") ok = value(out);
    else if (a == "--replay") replay = true;
    else if (a == "--calibrate") calibrate = true;
    else if (a == "--rooflines") rooflines = true;
    else if (a == "--json") json = true;
    else if (a == "--csv") csv = true;
    else if (a == "--list-gpus") listGpus = true;
    else if (a == "-h" || a == "--help") {
      printUsage(stdout);
      return kOk;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      std::fprintf(stderr, "opscope predict: unknown option %s (try opscope --help)\n", a.c_str());
      return kUsage;
    } else if (file.empty()) {
      file = a;
    } else {
      std::fprintf(stderr, "opscope predict: more than one FILE given: %s\n", a.c_str());
      return kUsage;
    }
    if (!ok) {
      std::fprintf(stderr, "opscope predict: %s needs a value\n", a.c_str());
      return kUsage;
    }
  }
  if (json && csv) {
    std::fprintf(stderr, "opscope predict: --json and --csv exclude each other\n");
    return kUsage;
  }

  std::string error, text;
  GpuSpecSet specs = builtinGpuSpecs();
  if (!gpuFile.empty()) {
    if (int exit = 0; !readSide(gpuFile, SideInputKind::GpuFile, text, exit)) return exit;
    auto user = parseGpuSpecs(text, error);
    if (!user) {
      std::fprintf(stderr, "opscope: %s: %s\n", gpuFile.c_str(), error.c_str());
      return kInvalidInput;
    }
    // The user's GPUs first: they win a name clash and are the default of the file.
    user->gpus.insert(user->gpus.end(), specs.gpus.begin(), specs.gpus.end());
    specs = std::move(*user);
  }
  if (listGpus) {
    for (const GpuSpec& g : specs.gpus)
      std::printf("%-16s %4d SMs  %6.0f GB/s DRAM  FP32 %6.1f  BF16 %7.1f TFLOP/s  (%s)\n", g.name.c_str(), g.sms,
                  g.dramGBs, g.fp32, g.bf16, g.source.c_str());
    return kOk;
  }
  if (file.empty()) {
    std::fprintf(stderr, "opscope predict: no FILE given (try opscope --help)\n");
    return kUsage;
  }
  if (replay && (!overheadsFile.empty() || !microbenchFiles.empty() || !etFile.empty())) {
    std::fprintf(
        stderr,
        "opscope predict: --replay uses the trace's own times; --overheads, --microbench and --et do not apply\n");
    return kUsage;
  }

  if (kernels != "models" && kernels != "measured") {
    std::fprintf(stderr, "opscope predict: --kernels %s: expected models or measured\n", kernels.c_str());
    return kUsage;
  }
  if (replay && calibrate) {
    std::fprintf(stderr, "opscope predict: --replay models nothing; --calibrate does not apply\n");
    return kUsage;
  }
  if (replay && kernels == "measured") {
    std::fprintf(stderr,
                 "opscope predict: --replay already uses measured kernel times; --kernels measured does not apply\n");
    return kUsage;
  }

  PredictionSetup setup;
  setup.replay = replay;
  setup.measuredKernels = kernels == "measured";
  setup.calibrate = calibrate;
  Microbenchmarks microbench;
  std::vector<MicrobenchKind> seen;
  for (const std::string& microbenchFile : microbenchFiles) {
    if (int exit = 0; !readSide(microbenchFile, SideInputKind::Microbench, text, exit)) return exit;
    const auto kind = addMicrobenchmarkCsv(microbench, text, error);
    if (!kind) {
      std::fprintf(stderr, "opscope: %s: %s\n", microbenchFile.c_str(), error.c_str());
      return kInvalidInput;
    }
    if (std::find(seen.begin(), seen.end(), *kind) != seen.end()) {
      std::fprintf(stderr,
                   "opscope predict: --microbench takes one GEMM and one convolution table; %s is a second %s one\n",
                   microbenchFile.c_str(), microbenchKindName(*kind));
      return kUsage;
    }
    seen.push_back(*kind);
    (*kind == MicrobenchKind::Gemm ? setup.gemmBenchSource : setup.convBenchSource) = microbenchFile;
  }
  setup.builtinMicrobench = !rooflines;
  if (!microbench.empty()) setup.microbench = &microbench;
  if (!overheadsFile.empty()) {
    if (int exit = 0; !readSide(overheadsFile, SideInputKind::Overheads, text, exit)) return exit;
    setup.overheads = parseOverheadModel(text, error);
    if (!setup.overheads) {
      std::fprintf(stderr, "opscope: %s: %s\n", overheadsFile.c_str(), error.c_str());
      return kInvalidInput;
    }
    setup.overheadsSource = overheadsFile;
  }
  if (!gpuName.empty()) {
    const GpuSpec* g = specs.find(gpuName);
    if (!g) {
      std::string names;
      for (const GpuSpec& s : specs.gpus) names += (names.empty() ? "" : ", ") + s.name;
      std::fprintf(stderr, "opscope predict: no GPU named '%s' (known: %s)\n", gpuName.c_str(), names.c_str());
      return kUsage;
    }
    setup.gpu = *g;
    setup.gpuSource = "--gpu";
  }

  LoadResult r = loadTraceFile(file == "-" ? "/dev/stdin" : file);
  if (r.status != LoadStatus::Ok) {
    std::fprintf(stderr, "opscope: %s: %s\n", file.c_str(), r.error.c_str());
    return exitFor(r.status);
  }
  if (gpuName.empty()) {
    if (!gpuFile.empty()) {
      setup.gpu = specs.gpus.front();
      setup.gpuSource = gpuFile;
    } else if (auto g = gpuForTrace(*r.trace, specs, setup.gpuSource)) {
      setup.gpu = *g;
    } else if (setup.replay) {
      setup.gpu = specs.gpus.front();  // the replay models nothing: any preset does
      setup.gpuSource = "none matches (" + setup.gpuSource + "); the replay uses no GPU figures";
    } else {
      // Never a silent guess: an MTIA or unknown device predicted on a V100 misleads.
      std::fprintf(stderr,
                   "opscope: %s: no GPU preset matches this trace (%s); name one with --gpu (opscope predict "
                   "--list-gpus) or describe it with --gpu-file\n",
                   file.c_str(), setup.gpuSource.c_str());
      return kUsage;
    }
  }
  if (!replay && kernels == "models") {
    // The datasheet run gets its calibrated companion; --calibrate makes the calibrated
    // run the main one. A what-if GPU is calibrated on the trace's own.
    std::string why;
    const bool canFit = chooseCalibrationGpu(setup, *r.trace, specs, why);
    if (calibrate && !canFit) {
      std::fprintf(
          stderr,
          "opscope predict: --calibrate on %s needs the trace's own GPU to fit on, and no preset matches it (%s)\n",
          setup.gpu.name.c_str(), why.c_str());
      return kUsage;
    }
    setup.withCalibratedRun = !calibrate && canFit;
  }
  if (!etFile.empty()) {
    auto et = loadExecutionTrace(etFile, error);
    if (!et) {
      std::fprintf(stderr, "opscope: %s: %s\n", etFile.c_str(), error.c_str());
      return kInvalidInput;
    }
    const EtLink link = linkExecutionTrace(*et, *r.trace);
    std::fprintf(stderr, "opscope: %s: %s\n", etFile.c_str(), link.summaryLine().c_str());
    setup.extraShapes = std::make_shared<const std::map<uint64_t, OpShapes>>(etOpShapes(*et, link));
    setup.shapesSource = "the trace's Input Dims, else the execution trace " + etFile;
  }
  const PredictionResult result = runPrediction(*r.trace, std::move(setup));
  const std::string output = json  ? predictionJson(*r.trace, result, file)
                             : csv ? predictionCsv(*r.trace, result)
                                   : predictionText(*r.trace, result, file);
  return writeOutput(out, output);
}

}  // namespace opscope::app
