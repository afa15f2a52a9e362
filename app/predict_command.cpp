#include "predict_command.h"

#include <algorithm>
#include <cstdio>

#include "cli_common.h"
#include "io/side_input.h"
#include "io/trace_loader.h"
#include "perf/et_shapes.h"
#include "perf/prediction.h"
#include "perf/prediction_policy.h"
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

// A side input read (readSide) and parsed by parse(text, error) -> optional; on failure
// prints one line, sets exit and returns nullopt.
template <class Parse>
auto readParsed(const std::string& path, SideInputKind kind, Parse parse, int& exit) {
  std::string text, error;
  decltype(parse(text, error)) value;
  if (!readSide(path, kind, text, exit)) return value;
  value = parse(text, error);
  if (!value) {
    std::fprintf(stderr, "opscope: %s: %s\n", path.c_str(), error.c_str());
    exit = kInvalidInput;
  }
  return value;
}

}  // namespace

int runPredict(const std::vector<std::string>& args) {
  std::string file, gpuName, gpuFile, overheadsFile, etFile, kernels = "models", out = "-", efficiencyFile,
                                                             fitSamplesFile;
  std::vector<std::string> microbenchFiles;  // one GEMM and one convolution table at most
  bool replay = false, json = false, csv = false, listGpus = false, calibrate = false, rooflines = false,
       datasheet = false;
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
    else if (a == "--datasheet") datasheet = true;
    else if (a == "--efficiency") ok = value(efficiencyFile);
    else if (a == "--fit-samples") ok = value(fitSamplesFile);
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
    int exit = 0;
    auto user = readParsed(gpuFile, SideInputKind::GpuFile, parseGpuSpecs, exit);
    if (!user) return exit;
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

  if (datasheet && !efficiencyFile.empty()) {
    std::fprintf(stderr, "opscope predict: --datasheet and --efficiency exclude each other\n");
    return kUsage;
  }
  if (replay && (datasheet || !efficiencyFile.empty())) {
    std::fprintf(stderr, "opscope predict: --replay models nothing; --datasheet and --efficiency do not apply\n");
    return kUsage;
  }

  // What the user asked for; prediction_policy.h decides the setup, as the dock does.
  PredictionRequest request;
  request.gpuName = gpuName;
  request.gpus = &specs;
  request.userGpuDefault = !gpuFile.empty();
  request.userGpuSource = gpuFile;
  request.replay = replay;
  request.measuredKernels = kernels == "measured";
  request.calibrate = calibrate;
  request.rooflines = rooflines;
  request.datasheet = datasheet;
  if (!efficiencyFile.empty()) {
    int exit = 0;
    auto tables = readParsed(efficiencyFile, SideInputKind::Efficiency, parseEfficiencyTables, exit);
    if (!tables) return exit;
    tables->source = efficiencyFile;
    request.efficiency = std::make_shared<const EfficiencyTables>(std::move(*tables));
  }
  auto microbench = std::make_shared<Microbenchmarks>();
  std::vector<MicrobenchKind> seen;
  for (const std::string& microbenchFile : microbenchFiles) {
    if (int exit = 0; !readSide(microbenchFile, SideInputKind::Microbench, text, exit)) return exit;
    const auto kind = addMicrobenchmarkCsv(*microbench, text, error);
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
    (*kind == MicrobenchKind::Gemm ? request.gemmBenchSource : request.convBenchSource) = microbenchFile;
  }
  request.microbench = microbench;
  if (!overheadsFile.empty()) {
    int exit = 0;
    request.overheads = readParsed(overheadsFile, SideInputKind::Overheads, parseOverheadModel, exit);
    if (!request.overheads) return exit;
    request.overheadsSource = overheadsFile;
  }
  // A name no GPU has is a usage error, before the trace is read.
  if (!gpuName.empty() && !findGpu(specs, gpuName, error)) {
    std::fprintf(stderr, "opscope predict: %s\n", error.c_str());
    return kUsage;
  }

  LoadOptions load;
  load.keepWhatOpModelsRead();  // every op's shapes and kernel's launch, kept while loading
  LoadResult r = loadTraceFile(file == "-" ? "/dev/stdin" : file, load);
  if (r.status != LoadStatus::Ok) {
    std::fprintf(stderr, "opscope: %s: %s\n", file.c_str(), r.error.c_str());
    return exitFor(r.status);
  }
  if (!etFile.empty()) {
    auto et = loadExecutionTrace(etFile, error);
    if (!et) {
      std::fprintf(stderr, "opscope: %s: %s\n", etFile.c_str(), error.c_str());
      return kInvalidInput;
    }
    const EtLink link = linkExecutionTrace(*et, *r.trace);
    if (!link.refused.empty()) {
      std::fprintf(stderr, "opscope: %s: %s\n", etFile.c_str(), link.refused.c_str());
      return kInvalidInput;
    }
    std::fprintf(stderr, "opscope: %s: %s\n", etFile.c_str(), link.summaryLine().c_str());
    request.extraShapes = std::make_shared<const std::map<uint64_t, OpShapes>>(etOpShapes(*et, link));
    request.extraShapesSource = "the execution trace " + etFile;
  }
  PredictionPlan plan = planPrediction(*r.trace, request);
  switch (plan.error) {
    case PlanError::None:
      break;
    case PlanError::UnknownGpu:
      std::fprintf(stderr, "opscope predict: %s\n", plan.message.c_str());
      return kUsage;
    case PlanError::NoGpuForTrace:
      std::fprintf(
          stderr, "opscope: %s: %s; name one with --gpu (opscope predict --list-gpus) or describe it with --gpu-file\n",
          file.c_str(), plan.message.c_str());
      return kUsage;
    case PlanError::CannotCalibrate:
      std::fprintf(stderr, "opscope predict: --calibrate: %s\n", plan.message.c_str());
      return kUsage;
  }
  PredictionSetup setup = std::move(*plan.setup);
  if (!fitSamplesFile.empty()) {
    const int exit =
        writeOutput(fitSamplesFile, fitSamplesCsv(*r.trace, datasheetLeaves(*r.trace, setup), setup.gpu, file));
    if (exit != kOk) return exit;
  }
  const PredictionResult result = runPrediction(*r.trace, std::move(setup));
  const std::string output = json  ? predictionJson(*r.trace, result, file)
                             : csv ? predictionCsv(*r.trace, result)
                                   : predictionText(*r.trace, result, file);
  return writeOutput(out, output);
}

}  // namespace opscope::app
