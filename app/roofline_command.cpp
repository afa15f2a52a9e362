#include "roofline_command.h"

#include <cstdio>

#include "cli_common.h"
#include "hierarchy/iterations.h"
#include "io/trace_loader.h"
#include "perf/prediction_policy.h"
#include "perf/roofline.h"
#include "report/roofline_report.h"

namespace opscope::app {

void printUsage(FILE* out);

int runRoofline(const std::vector<std::string>& args) {
  bool json = false, csv = false;
  std::string file, out = "-", gpuName, iterationText;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      json = true;
    } else if (a == "--csv") {
      csv = true;
    } else if (a == "-o" || a == "--gpu" || a == "--iteration") {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "opscope roofline: %s needs a value\n", a.c_str());
        return kUsage;
      }
      (a == "-o" ? out : a == "--gpu" ? gpuName : iterationText) = args[++i];
    } else if (a == "-h" || a == "--help") {
      printUsage(stdout);
      return kOk;
    } else if (a == "--") {
      if (i + 1 < args.size() && file.empty()) file = args[++i];
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      std::fprintf(stderr, "opscope roofline: unknown option %s\n", a.c_str());
      return kUsage;
    } else if (file.empty()) {
      file = a;
    } else {
      std::fprintf(stderr, "opscope roofline: more than one FILE given (%s)\n", a.c_str());
      return kUsage;
    }
  }
  if (file.empty()) {
    std::fputs("opscope roofline: no FILE given\n", stderr);
    return kUsage;
  }
  if (json && csv) {
    std::fputs("opscope roofline: --json and --csv: choose one\n", stderr);
    return kUsage;
  }
  std::optional<size_t> iteration;
  if (!iterationText.empty()) {
    char* end = nullptr;
    const unsigned long long n = std::strtoull(iterationText.c_str(), &end, 10);
    if (end == iterationText.c_str() || *end || iterationText[0] == '-') {
      std::fprintf(stderr, "opscope roofline: --iteration expects a number, got '%s'\n", iterationText.c_str());
      return kUsage;
    }
    iteration = static_cast<size_t>(n);
  }
  LoadOptions load;
  load.keepWhatOpModelsRead();  // every op's shapes and kernel's launch, kept while loading
  LoadResult r = loadTraceFile(file == "-" ? "/dev/stdin" : file, load);
  if (r.status != LoadStatus::Ok) {
    std::fprintf(stderr, "opscope: %s: %s\n", file.c_str(), r.error.c_str());
    return exitFor(r.status);
  }
  std::optional<TimeWindow> window;
  if (iteration) {
    window = iterationWindow(r.trace->iterations, *iteration, 1);
    if (!window) {
      std::fprintf(stderr, "opscope: %s: no iteration %zu (the trace has %zu ProfilerStep iterations)\n", file.c_str(),
                   *iteration, r.trace->iterations.size());
      return kInvalidInput;
    }
  }
  // The GPU as predict picks it (perf/prediction_policy.h): named, else the trace's own.
  PredictionRequest request;
  request.gpuName = gpuName;
  request.gpus = &builtinGpuSpecs();
  request.datasheet = true;
  const PredictionPlan plan = planPrediction(*r.trace, request);
  if (plan.error == PlanError::UnknownGpu) {
    std::fprintf(stderr, "opscope roofline: %s\n", plan.message.c_str());
    return kUsage;
  }
  if (plan.error != PlanError::None || !plan.setup) {
    std::fprintf(stderr, "opscope: %s: %s; name one with --gpu (opscope predict --list-gpus)\n", file.c_str(),
                 plan.message.c_str());
    return kUsage;
  }
  const Roofline roof = computeRoofline(*r.trace, plan.setup->gpu, window);
  const std::string& source = plan.setup->gpuSource;
  return writeOutput(out, json  ? rooflineJson(roof, *r.trace, file, source)
                          : csv ? rooflineCsv(roof)
                                : rooflineText(roof, file, source));
}

}  // namespace opscope::app
