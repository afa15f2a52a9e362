#include "critical_path_command.h"

#include <charconv>
#include <cstdio>

#include "analysis/critical_path.h"
#include "cli_common.h"
#include "io/trace_loader.h"
#include "report/critical_path_report.h"

namespace opscope::app {

void printUsage(FILE* out);

namespace {

bool parseIndex(const std::string& s, size_t& v) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

}  // namespace

int runCriticalPath(const std::vector<std::string>& args) {
  enum class Format { Text, Json, Csv } format = Format::Text;
  std::string file, out = "-", annotation, iterationText, instanceText;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const auto value = [&](std::string& into) {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "opscope critical-path: %s needs a value\n", a.c_str());
        return false;
      }
      into = args[++i];
      return true;
    };
    if (a == "--json") {
      format = Format::Json;
    } else if (a == "--csv") {
      format = Format::Csv;
    } else if (a == "-o" || a == "--iteration" || a == "--annotation" || a == "--instance") {
      if (!value(a == "-o"             ? out
                 : a == "--iteration"  ? iterationText
                 : a == "--annotation" ? annotation
                                       : instanceText))
        return kUsage;
    } else if (a == "-h" || a == "--help") {
      printUsage(stdout);
      return kOk;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "opscope critical-path: unknown option %s\n", a.c_str());
      return kUsage;
    } else if (file.empty()) {
      file = a;
    } else {
      std::fprintf(stderr, "opscope critical-path: more than one FILE given (%s)\n", a.c_str());
      return kUsage;
    }
  }
  if (file.empty()) {
    std::fputs("opscope critical-path: no FILE given\n", stderr);
    return kUsage;
  }
  size_t iteration = 0, instance = 0;
  if (!iterationText.empty() && !parseIndex(iterationText, iteration)) {
    std::fprintf(stderr, "opscope critical-path: --iteration expects a 0-based number, got '%s'\n",
                 iterationText.c_str());
    return kUsage;
  }
  if (!instanceText.empty() && (annotation.empty() || !parseIndex(instanceText, instance))) {
    std::fprintf(stderr, "opscope critical-path: --instance expects a 0-based number after --annotation NAME\n");
    return kUsage;
  }
  if (!iterationText.empty() && !annotation.empty()) {
    std::fputs("opscope critical-path: give --iteration or --annotation, not both\n", stderr);
    return kUsage;
  }
  const LoadResult r = loadTraceFile(file);
  if (r.status != LoadStatus::Ok) {
    std::fprintf(stderr, "opscope: %s: %s\n", file.c_str(), r.error.c_str());
    return exitFor(r.status);
  }
  const Trace& t = *r.trace;
  std::optional<CriticalPathWindow> window;
  if (!iterationText.empty()) {
    window = criticalPathWindowOfIteration(t, iteration);
    if (!window) {
      std::fprintf(stderr, "opscope: %s: no iteration %zu (the trace has %zu ProfilerStep iterations)\n", file.c_str(),
                   iteration, t.iterations.size());
      return kInvalidInput;
    }
  } else if (!annotation.empty()) {
    window = criticalPathWindowOfAnnotation(t, annotation, instance);
    if (!window) {
      std::fprintf(stderr, "opscope: %s: no instance %zu of a slice named like '%s'\n", file.c_str(), instance,
                   annotation.c_str());
      return kInvalidInput;
    }
  } else {
    window = criticalPathWindowOfTrace(t);
    if (!window) {
      std::fprintf(stderr, "opscope: %s: the trace has no slices\n", file.c_str());
      return kInvalidInput;
    }
  }
  const CriticalPath path = computeCriticalPath(t, *window);
  if (!path.ok()) {
    std::fprintf(stderr, "opscope: %s: %s\n", file.c_str(), path.error.c_str());
    return kInvalidInput;
  }
  switch (format) {
    case Format::Json:
      return writeOutputWith(out, [&](const TextSink& put) { writeCriticalPathJson(path, t, file, put); });
    case Format::Csv:
      return writeOutput(out, criticalPathCsv(path, t));
    case Format::Text:
      break;
  }
  return writeOutput(out, criticalPathText(path, t, file));
}

}  // namespace opscope::app
