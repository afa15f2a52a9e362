#include "diff_command.h"

#include <cstdio>
#include <future>
#include <memory>

#include "analysis/trace_diff.h"
#include "cli_common.h"
#include "io/trace_loader.h"
#include "report/diff_report.h"

namespace opscope::app {

void printUsage(FILE* out);

namespace {

// The window of RANGE ("FIRST[:COUNT]") in trace; prints the one-line error when the
// range is malformed (kUsage) or the trace lacks those iterations (kInvalidInput).
int windowOf(const Trace& trace, const std::string& file, const std::string& range, std::optional<TimeWindow>& window) {
  if (range.empty()) return kOk;
  size_t first = 0, count = 1;
  if (!parseIterationRange(range, first, count)) {
    std::fprintf(stderr, "opscope diff: --iterations expects FIRST or FIRST:COUNT, got '%s'\n", range.c_str());
    return kUsage;
  }
  window = iterationWindow(trace.iterations, first, count);
  if (!window) {
    std::fprintf(stderr, "opscope: %s: no iteration %zu (the trace has %zu ProfilerStep iterations)\n", file.c_str(),
                 first, trace.iterations.size());
    return kInvalidInput;
  }
  return kOk;
}

}  // namespace

int runDiff(const std::vector<std::string>& args) {
  bool json = false;
  size_t top = 25;
  std::string out = "-";
  DiffLabels labels;
  std::vector<std::string> files;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& v) {
      if (i + 1 >= args.size()) return false;
      v = args[++i];
      return true;
    };
    bool ok = true;
    if (a == "--json") json = true;
    else if (a == "--per-iteration") labels.perIteration = true;
    else if (a == "--iterations") ok = value(labels.iterationsA);
    else if (a == "--iterations-b") ok = value(labels.iterationsB);
    else if (a == "-o") ok = value(out);
    else if (a == "--top") {
      std::string v;
      ok = value(v);
      if (ok) {
        try {
          size_t used = 0;
          const unsigned long n = std::stoul(v, &used);
          if (used != v.size() || n == 0 || v[0] == '-') throw std::invalid_argument(v);
          top = n;
        } catch (const std::exception&) {
          std::fprintf(stderr, "opscope diff: --top expects a count >= 1, got '%s'\n", v.c_str());
          return kUsage;
        }
      }
    } else if (a == "-h" || a == "--help") {
      printUsage(stdout);
      return kOk;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "opscope diff: unknown option %s\n", a.c_str());
      return kUsage;
    } else {
      files.push_back(a);
    }
    if (!ok) {
      std::fprintf(stderr, "opscope diff: %s needs a value\n", a.c_str());
      return kUsage;
    }
  }
  if (files.empty() || files.size() > 2) {
    std::fputs("opscope diff: give two traces (A B), or one trace with --iterations and --iterations-b\n", stderr);
    return kUsage;
  }
  // One trace: two of its iteration ranges. Two traces: --iterations applies to both
  // unless --iterations-b names B's own.
  if (files.size() == 1) {
    if (labels.iterationsA.empty() || labels.iterationsB.empty()) {
      std::fputs("opscope diff: one trace needs --iterations and --iterations-b (the two ranges to compare)\n", stderr);
      return kUsage;
    }
    files.push_back(files[0]);
  } else if (labels.iterationsB.empty()) {
    labels.iterationsB = labels.iterationsA;
  }
  labels.a = files[0];
  labels.b = files[1];

  // Two traces load at once (B on a thread of its own): each load keeps about one core
  // busy, so on two cores the pair takes little more than the larger one. Errors are
  // told after both, A's first (and then only A's, as when B was not read).
  // Each op's shapes are kept while loading (the diff keys ops by them), not read back
  // from the file afterwards.
  LoadResult ra, rb;
  const bool same = files[1] == files[0];
  LoadOptions load;
  load.keepOpShapes = true;
  std::future<LoadResult> loadB;
  if (!same) loadB = std::async(std::launch::async, [&] { return loadTraceFile(files[1], load); });
  ra = loadTraceFile(files[0], load);
  if (!same) rb = loadB.get();
  for (const auto& [file, r] : {std::pair{&files[0], &ra}, std::pair{&files[1], same ? &ra : &rb}})
    if (r->status != LoadStatus::Ok) {
      std::fprintf(stderr, "opscope: %s: %s\n", file->c_str(), r->error.c_str());
      return exitFor(r->status);
    }
  const Trace& a = *ra.trace;
  const Trace& b = same ? a : *rb.trace;

  DiffOptions options;
  options.perIteration = labels.perIteration;
  if (const int rc = windowOf(a, files[0], labels.iterationsA, options.windowA); rc != kOk) return rc;
  if (const int rc = windowOf(b, files[1], labels.iterationsB, options.windowB); rc != kOk) return rc;
  const TraceDiff d = diffTraces(a, b, options);
  if (labels.perIteration && (d.iterationWallA.empty() || d.iterationWallB.empty())) {
    std::fprintf(stderr, "opscope: %s: --per-iteration needs ProfilerStep iterations, and it has none\n",
                 (d.iterationWallA.empty() ? files[0] : files[1]).c_str());
    return kInvalidInput;
  }
  return writeOutput(out, json ? traceDiffJson(d, labels) : traceDiffText(d, labels, top));
}

}  // namespace opscope::app
