#include "export_command.h"

#include <chrono>
#include <cstdio>

#include <algorithm>

#include "analysis/critical_path.h"
#include "analysis/kernel_classes.h"
#include "cli_common.h"
#include "io/trace_loader.h"
#include "ranks/rank_session.h"
#include "report/analysis_catalog.h"
#include "report/export_request.h"
#include "report/trace_writer.h"

namespace opscope::app {

void printUsage(FILE* out);

namespace {

// export --trace OUT [--no-critical-path] FILE: the trace written back (report/trace_writer.h).
int runExportTrace(const std::vector<std::string>& args) {
  std::string out, file;
  bool critical = true;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--trace") {
      if (i + 1 >= args.size()) {
        std::fputs("opscope export: --trace needs a value\n", stderr);
        return kUsage;
      }
      out = args[++i];
    } else if (a == "--no-critical-path") {
      critical = false;
    } else if (a == "-h" || a == "--help") {
      printUsage(stdout);
      return kOk;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      std::fprintf(stderr, "opscope export: %s does not go with --trace\n", a.c_str());
      return kUsage;
    } else if (file.empty()) {
      file = a;
    } else {
      std::fprintf(stderr, "opscope export: more than one FILE given (%s)\n", a.c_str());
      return kUsage;
    }
  }
  if (file.empty()) {
    std::fputs("opscope export: --trace needs a FILE to read\n", stderr);
    return kUsage;
  }
  LoadResult r = loadTraceOrSession(file == "-" ? "/dev/stdin" : file);
  if (r.status != LoadStatus::Ok) {
    std::fprintf(stderr, "opscope: %s: %s\n", file.c_str(), r.error.c_str());
    return exitFor(r.status);
  }
  reportRanksNotLoaded(r, file);
  // The counter tracks the window adds (queue length, memory bandwidth, ...): one list,
  // the catalog's.
  for (const AnalysisKind* k : analysisCatalog())
    if (k->addTimelineCounters) k->addTimelineCounters(*r.trace);
  TraceWriteOptions options;
  CriticalPath path;
  if (critical) {
    if (const auto window = criticalPathWindowOfTrace(*r.trace)) path = computeCriticalPath(*r.trace, *window);
    else path.error = "the trace has no slices";
    if (path.ok()) options.criticalPath = &path;
    else std::fprintf(stderr, "opscope: %s: no critical path to mark (%s)\n", file.c_str(), path.error.c_str());
  }
  return writeOutputWith(out, [&](const TextSink& write) { writeChromeTrace(*r.trace, options, write); });
}

}  // namespace

int runExport(const std::vector<std::string>& args) {
  if (std::find(args.begin(), args.end(), "--trace") != args.end()) return runExportTrace(args);
  std::string error;
  bool help = false;
  const auto request = parseExportArgs(args, error, help);
  if (help) {
    printUsage(stdout);
    return kOk;
  }
  if (!request) {
    std::fprintf(stderr, "opscope export: %s\n", error.c_str());
    return kUsage;
  }
  if (isPicture(request->format)) {
    using Entry = int (*)(const char* const*, int);
    auto entry = reinterpret_cast<Entry>(guiModuleSymbol("opscope_export_chart"));
    if (!entry) return kInternal;
    std::vector<const char*> raw;
    for (const std::string& a : args) raw.push_back(a.c_str());
    return entry(raw.data(), static_cast<int>(raw.size()));
  }
  const auto t0 = std::chrono::steady_clock::now();
  LoadOptions load;
  if (request->chart && request->chart->readsOpShapes) load.keepWhatOpModelsRead();
  LoadResult r = loadTraceOrSession(request->file == "-" ? "/dev/stdin" : request->file, load);
  if (r.status != LoadStatus::Ok) {
    std::fprintf(stderr, "opscope: %s: %s\n", request->file.c_str(), r.error.c_str());
    return exitFor(r.status);
  }
  reportRanksNotLoaded(r, request->file);
  std::optional<TimeWindow> window;
  if (!exportWindow(*r.trace, *request, window, error)) {
    std::fprintf(stderr, "opscope: %s: %s\n", request->file.c_str(), error.c_str());
    return kInvalidInput;
  }
  std::string classesError;
  const KernelClassifier classifier = KernelClassifier::withUserOverrides(classesError);
  if (!classesError.empty())
    std::fprintf(stderr, "opscope: %s (using the built-in kernel classes)\n", classesError.c_str());
  const auto t1 = std::chrono::steady_clock::now();
  const std::string text = exportDataText(*r.trace, *request, classifier);
  if (request->timing) {
    const auto t2 = std::chrono::steady_clock::now();
    std::fprintf(stderr, "opscope: timing: load %.3f s, %s %.3f s\n", std::chrono::duration<double>(t1 - t0).count(),
                 std::string(request->chart->name).c_str(), std::chrono::duration<double>(t2 - t1).count());
  }
  return writeOutput(request->out, text);
}

}  // namespace opscope::app
