// opscope: one binary for the headless commands and the GUI.
#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "hierarchy/iterations.h"
#include "io/trace_loader.h"
#include "analysis/kernel_stats.h"
#include "analysis/overview.h"
#include "io/atomic_file.h"
#include "report/analysis_report.h"
#include "report/summary_report.h"

namespace {

// Exit codes, documented in README and --help.
enum Exit : int {
  kOk = 0,
  kInternal = 1,
  kUsage = 2,
  kIoError = 3,
  kInvalidInput = 4,
  kCancelled = 5,
};

const char* kUsageHead =
    "usage: opscope [FILE]                  the GUI\n"
    "       opscope <command> [options] FILE  headless\n"
    "\n"
    "GUI:\n";

const char* kGuiUsage =
    "  opscope [FILE]          the GUI, opening FILE when given\n"
    "  opscope --screenshot OUT.png [--select NAME] [--range START_US:END_US] [--search TEXT]\n"
    "                          [--size WxH] [--dark] FILE\n"
    "                          load FILE, lay out the window at a fixed size (1600x1000), render, save\n"
    "                          a PNG and exit; --select selects the longest event named NAME (or whose\n"
    "                          name contains it), --range shows that span (µs since the trace start);\n"
    "                          OUT.pdf writes the timeline as a vector PDF instead\n"
    "  opscope --bench-render [--frames N] FILE\n"
    "                          frame times of the timeline at every zoom level (median, worst)\n";

const char* kUsageText =
    "\n"
    "commands:\n"
    "  summary [--json] [--iteration-marker NAME] [--iterations FIRST[:COUNT]] FILE\n"
    "                          what is in a trace: GPU streams and busy time, iterations,\n"
    "                          top kernels and top-level ops (JSON with --json)\n"
    "      --iteration-marker NAME  without ProfilerStep#N, iterations start at each slice\n"
    "                               named NAME (or containing it), e.g. \"## forward ##\"\n"
    "      --iterations FIRST[:COUNT]  only events starting in iterations FIRST..FIRST+COUNT-1\n"
    "                               (0-based, ProfilerStep or marker iterations; COUNT 1 by default)\n"
    "      --timing                 print the time of each phase and the model's memory to stderr\n"
    "  export --chart {overview,kernel-stats} --format {json,csv} [--iteration N] [--batch-size B]\n"
    "         [--top N] FILE -o OUT\n"
    "                          the data behind an analysis (OUT '-' for standard output; written\n"
    "                          to a temporary file and renamed); overview: wall, host runtime,\n"
    "                          GPU activity per stream, step-time breakdown; kernel-stats: per\n"
    "                          kernel count/total/mean/min/max/std/share and kernel classes\n"
    "      --iteration N            only iteration N (0-based ProfilerStep)\n"
    "      --batch-size B           samples per iteration, for samples/s (overview)\n"
    "      --top N                  the N kernels with the largest total (kernel-stats)\n"
    "\n"
    "options:\n"
    "  -h, --help              this text\n"
    "  --version               program version\n"
    "\n"
    "FILE: Chrome trace JSON as PyTorch's profiler (Kineto) or its legacy dialect writes it,\n"
    "plain or gzip-compressed (detected from the content, not the name).\n"
    "\n"
    "exit codes: 0 ok, 1 internal error, 2 usage error, 3 cannot read the file,\n"
    "            4 not a trace or malformed, 5 cancelled\n";

// The GUI lives in a module loaded only here, so headless commands never load Qt: next
// to the binary in a build tree, under lib/opscope when installed.
int runGui(int argc, char** argv, const std::vector<std::string>& args) {
  std::string dir;
  char self[4096];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    dir.assign(self, static_cast<size_t>(n));
    dir.erase(dir.find_last_of('/') + 1);
  }
  std::string tried;
  void* module = nullptr;
  for (const std::string& path : {dir + "opscope-gui.so", dir + OPSCOPE_GUI_DIR_FROM_BIN "/opscope-gui.so"}) {
    module = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (module) break;
    tried += (tried.empty() ? "" : "; ") + std::string(::dlerror());
  }
  if (!module) {
    std::fprintf(stderr, "opscope: cannot load the GUI module: %s\n", tried.c_str());
    return kInternal;
  }
  using Entry = int (*)(int, char**, const char* const*, int);
  auto entry = reinterpret_cast<Entry>(::dlsym(module, "opscope_gui_main"));
  if (!entry) {
    std::fprintf(stderr, "opscope: the GUI module has no entry point: %s\n", ::dlerror());
    return kInternal;
  }
  std::vector<const char*> raw;
  for (const std::string& a : args) raw.push_back(a.c_str());
  // The module stays loaded until exit: Qt's atexit handlers live in it.
  return entry(argc, argv, raw.data(), static_cast<int>(raw.size()));
}

void printUsage(FILE* out) {
  std::fputs(kUsageHead, out);
  std::fputs(kGuiUsage, out);
  std::fputs(kUsageText, out);
}

// A first argument that names a command rather than a file to open: a plain word that
// is not an existing path (so "opscope trace" still opens a file called trace).
bool isCommandWord(const std::string& a) {
  if (a.empty() || a[0] == '-') return false;
  if (a.find_first_of("./") != std::string::npos) return false;
  FILE* f = std::fopen(a.c_str(), "rb");
  if (f) {
    std::fclose(f);
    return false;
  }
  return true;
}

int exitFor(opscope::LoadStatus s) {
  switch (s) {
    case opscope::LoadStatus::Ok: return kOk;
    case opscope::LoadStatus::IoError: return kIoError;
    case opscope::LoadStatus::InvalidInput: return kInvalidInput;
    case opscope::LoadStatus::Cancelled: return kCancelled;
  }
  return kInternal;
}

// "3" or "3:2" -> (3, 1) or (3, 2); false when malformed.
bool parseIterationRange(const std::string& text, size_t& first, size_t& count) {
  const size_t colon = text.find(':');
  try {
    size_t used = 0;
    const unsigned long f = std::stoul(text.substr(0, colon), &used);
    if (used != (colon == std::string::npos ? text.size() : colon)) return false;
    unsigned long c = 1;
    if (colon != std::string::npos) {
      const std::string rest = text.substr(colon + 1);
      c = std::stoul(rest, &used);
      if (used != rest.size() || c == 0) return false;
    }
    first = f;
    count = c;
    return text.find('-') == std::string::npos;
  } catch (...) {
    return false;
  }
}

// `opscope export`: the data behind an analysis as JSON or CSV, written atomically.
int runExport(const std::vector<std::string>& args) {
  std::string chart, format, file, out, iteration, batch, top;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string* value = a == "--chart" ? &chart : a == "--format" ? &format : a == "-o" ? &out
                         : a == "--iteration" ? &iteration : a == "--batch-size" ? &batch : a == "--top" ? &top : nullptr;
    if (value) {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "opscope export: %s needs a value\n", a.c_str());
        return kUsage;
      }
      *value = args[++i];
    } else if (a == "-h" || a == "--help") {
      printUsage(stdout);
      return kOk;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      std::fprintf(stderr, "opscope export: unknown option %s\n", a.c_str());
      return kUsage;
    } else if (file.empty()) {
      file = a;
    } else {
      std::fprintf(stderr, "opscope export: more than one FILE given (%s)\n", a.c_str());
      return kUsage;
    }
  }
  if (chart != "overview" && chart != "kernel-stats") {
    std::fprintf(stderr, "opscope export: --chart must be overview or kernel-stats (got '%s')\n", chart.c_str());
    return kUsage;
  }
  if (format != "json" && format != "csv") {
    std::fprintf(stderr, "opscope export: --format must be json or csv (got '%s')\n", format.c_str());
    return kUsage;
  }
  if (file.empty() || out.empty()) {
    std::fputs("opscope export: needs FILE and -o OUT (- for standard output)\n", stderr);
    return kUsage;
  }
  auto number = [](const std::string& text, const char* what, uint64_t& v) {
    try {
      size_t used = 0;
      v = std::stoull(text, &used);
      if (used == text.size() && text.find('-') == std::string::npos) return true;
    } catch (...) {
    }
    std::fprintf(stderr, "opscope export: %s expects a non-negative integer, got '%s'\n", what, text.c_str());
    return false;
  };
  uint64_t iterationIndex = 0, batchSize = 0, topN = 0;
  if (!iteration.empty() && !number(iteration, "--iteration", iterationIndex)) return kUsage;
  if (!batch.empty() && !number(batch, "--batch-size", batchSize)) return kUsage;
  if (!top.empty() && !number(top, "--top", topN)) return kUsage;

  opscope::LoadResult r = opscope::loadTraceFile(file == "-" ? "/dev/stdin" : file);
  if (r.status != opscope::LoadStatus::Ok) {
    std::fprintf(stderr, "opscope: %s: %s\n", file.c_str(), r.error.c_str());
    return exitFor(r.status);
  }
  std::optional<opscope::TimeWindow> window;
  if (!iteration.empty()) {
    window = opscope::iterationWindow(r.trace->iterations, iterationIndex, 1);
    if (!window) {
      std::fprintf(stderr, "opscope: %s: no iteration %llu (the trace has %zu)\n", file.c_str(),
                   static_cast<unsigned long long>(iterationIndex), r.trace->iterations.size());
      return kInvalidInput;
    }
  }
  std::string classesError;
  const opscope::KernelClassifier classifier = opscope::KernelClassifier::withUserOverrides(classesError);
  if (!classesError.empty()) std::fprintf(stderr, "opscope: %s (using the built-in kernel classes)\n", classesError.c_str());
  std::string text;
  if (chart == "overview") {
    opscope::OverviewOptions options;
    options.window = window;
    if (!batch.empty()) options.batchSize = batchSize;
    options.classifier = &classifier;
    const opscope::Overview o = opscope::computeOverview(*r.trace, options);
    text = format == "json" ? opscope::overviewJson(o, *r.trace, file) : opscope::overviewCsv(o);
  } else {
    const opscope::KernelStats k = opscope::kernelStatistics(*r.trace, classifier, window);
    text = format == "json" ? opscope::kernelStatsJson(k, *r.trace, file, topN) : opscope::kernelStatsCsv(k, *r.trace, topN);
  }
  if (out == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return std::fflush(stdout) == 0 ? kOk : kIoError;
  }
  std::string error;
  if (!opscope::writeFileAtomically(out, text, error)) {
    std::fprintf(stderr, "opscope: %s\n", error.c_str());
    return kIoError;
  }
  return kOk;
}

int runSummary(const std::vector<std::string>& args) {
  bool json = false, timing = false;
  std::string file, marker, range;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      json = true;
    } else if (a == "--timing") {
      timing = true;
    } else if (a == "--iteration-marker" || a == "--iterations") {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "opscope summary: %s needs a value\n", a.c_str());
        return kUsage;
      }
      (a == "--iterations" ? range : marker) = args[++i];
    } else if (a == "-h" || a == "--help") {
      printUsage(stdout);
      return kOk;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      std::fprintf(stderr, "opscope summary: unknown option %s\n", a.c_str());
      return kUsage;
    } else if (file.empty()) {
      file = a;
    } else {
      std::fprintf(stderr, "opscope summary: more than one FILE given (%s)\n", a.c_str());
      return kUsage;
    }
  }
  if (file.empty()) {
    std::fputs("opscope summary: no FILE given\n", stderr);
    return kUsage;
  }
  opscope::LoadResult r = opscope::loadTraceFile(file == "-" ? "/dev/stdin" : file);
  if (r.status != opscope::LoadStatus::Ok) {
    std::fprintf(stderr, "opscope: %s: %s\n", file.c_str(), r.error.c_str());
    return exitFor(r.status);
  }
  opscope::SummaryOptions options;
  options.iterationMarker = marker;
  if (!range.empty()) {
    size_t first = 0, count = 1;
    if (!parseIterationRange(range, first, count)) {
      std::fprintf(stderr, "opscope summary: --iterations expects FIRST or FIRST:COUNT, got '%s'\n", range.c_str());
      return kUsage;
    }
    const auto its = !r.trace->iterations.empty() || marker.empty()
                         ? r.trace->iterations
                         : opscope::findMarkerIterations(*r.trace, marker);
    const auto window = opscope::iterationWindow(its, first, count);
    if (!window) {
      std::fprintf(stderr, "opscope: %s: no iteration %zu (the trace has %zu%s)\n", file.c_str(), first, its.size(),
                   marker.empty() && its.empty() ? "; try --iteration-marker NAME" : "");
      return kInvalidInput;
    }
    options.window = window;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const opscope::Summary s = opscope::summarize(*r.trace, options);
  if (timing) {
    const double summarySeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    size_t argsBytes = 0;
    for (const auto& t : r.trace->tracks) argsBytes += t.slices.argsBlob.size();
    std::fprintf(stderr,
                 "opscope: timing: parse %.3f s, hierarchy %.3f s, summary %.3f s; model %.1f MiB for %llu slices "
                 "(args %.1f MiB, strings %.1f MiB in %zu)\n",
                 r.timings.parseSeconds, r.timings.hierarchySeconds, summarySeconds,
                 static_cast<double>(r.trace->memoryBytes()) / (1 << 20),
                 static_cast<unsigned long long>(r.trace->sliceCount()), static_cast<double>(argsBytes) / (1 << 20),
                 static_cast<double>(r.trace->strings.memoryBytes()) / (1 << 20), r.trace->strings.size());
  }
  const std::string out = json ? opscope::summaryJson(s, file) : opscope::summaryText(s, file);
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (!json && r.trace->diagnostics.total() > 0)
    std::fprintf(stderr, "opscope: %s: warnings: %s\n", file.c_str(), r.trace->diagnostics.oneLine().c_str());
  return std::fflush(stdout) == 0 ? kOk : kIoError;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && (args[0] == "-h" || args[0] == "--help")) {
    printUsage(stdout);
    return kOk;
  }
  if (args[0] == "--version") {
    std::printf("opscope %s\n", OPSCOPE_VERSION);
    return kOk;
  }
  // No command word: the GUI (a file, options such as --screenshot, or nothing).
  if (args.empty() || !isCommandWord(args[0])) {
    try {
      return runGui(argc, argv, args);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "opscope: internal error: %s\n", e.what());
      return kInternal;
    }
  }
  const std::string command = args[0];
  args.erase(args.begin());
  try {
    if (command == "summary") return runSummary(args);
    if (command == "export") return runExport(args);
  } catch (const std::bad_alloc&) {
    std::fputs("opscope: out of memory\n", stderr);
    return kInternal;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "opscope: internal error: %s\n", e.what());
    return kInternal;
  }
  std::fprintf(stderr, "opscope: unknown command '%s' (try opscope --help)\n", command.c_str());
  return kUsage;
}
