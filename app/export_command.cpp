#include "export_command.h"

#include <chrono>
#include <cstdio>

#include "analysis/kernel_classes.h"
#include "cli_common.h"
#include "io/trace_loader.h"
#include "ranks/rank_session.h"
#include "report/export_request.h"

namespace opscope::app {

void printUsage(FILE* out);

int runExport(const std::vector<std::string>& args) {
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
  LoadResult r = loadTraceOrSession(request->file == "-" ? "/dev/stdin" : request->file);
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
