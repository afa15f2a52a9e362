// opscope: one binary for the headless commands and the GUI.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include "hierarchy/iterations.h"
#include "io/byte_source.h"
#include "io/trace_loader.h"

#include "ranks/rank_metrics.h"
#include "report/analysis_catalog.h"
#include "report/rank_metrics_json.h"
#include "report/summary_report.h"
#include "report/version_info.h"
#include "text/json_text.h"

#include "advise_command.h"
#include "cli_common.h"
#include "critical_path_command.h"
#include "diff_command.h"
#include "et/chakra_et.h"
#include "et/execution_trace.h"
#include "export_command.h"
#include "link_command.h"
#include "malloc_policy.h"
#include "multi_rank_command.h"
#include "predict_command.h"
#include "roofline_command.h"

namespace {

using namespace opscope::app;

const char* kUsageHead =
    "usage: opscope [FILE]                  the GUI\n"
    "       opscope <command> [options] FILE  headless\n"
    "\n"
    "GUI:\n";

const char* kGuiUsage =
    "  opscope [FILE [--et ET]]  the GUI, opening FILE when given (and linking the execution\n"
    "                          trace ET recorded with it: File > Open execution trace)\n"
    "  opscope DIR             the GUI on a folder of rank traces: every rank in one timeline\n"
    "  opscope --screenshot OUT.png [--select NAME] [--range START_US:END_US] [--search TEXT]\n"
    "                          [--size WxH] [--dark] [--whole-list] [--analysis CHART [--iteration N] [--op NAME]]\n"
    "                          [--layout-json L.json]\n"
    "                          [--prediction [--gpu NAME] [--compare NAME]] [--et ET] [--diff B] [FILE]\n"
    "                          load FILE, lay out the window at a fixed size (1600x1000), render, save\n"
    "                          a PNG and exit (without FILE: the empty window); --select selects the longest event "
    "named NAME (or whose\n"
    "                          name contains it), --range shows that span (µs since the trace start);\n"
    "                          OUT.pdf writes the timeline as a vector PDF instead; --whole-list\n"
    "                          writes the timeline alone with every track, however tall; --analysis shows\n"
    "                          the Analysis dock on that chart's tab (CHART as for export); --op\n"
    "                          with op-kernels: the kernels of op NAME by input shape;\n"
    "                          --prediction [--gpu NAME] [--compare NAME] shows the Prediction dock;\n"
    "                          --diff B shows the Compare dock: FILE against B (File > Compare with);\n"
    "                          --layout-json writes where the window put the timeline, its tracks, the\n"
    "                          selection and the docks (JSON, window coordinates)\n"
    "  opscope --bench-render [--frames N] FILE\n"
    "                          frame times of the timeline at every zoom level (median, worst)\n"
    "  opscope --bench-open [--size WxH] [--open-dock analysis|prediction] FILE\n"
    "                          the window opening FILE as File > Open does: seconds to the first\n"
    "                          frame and until every worker is done, the longest event-loop stall\n"
    "                          and peak RSS (one JSON line)\n";

const char* kUsageText =
    "\n"
    "commands:\n"
    "  summary [--json] [--iteration-marker NAME] [--iterations FIRST[:COUNT]] FILE\n"
    "                          what is in a trace: GPU streams and busy time, iterations,\n"
    "                          top kernels and top-level ops (JSON with --json)\n"
    "  summary [--json] [--straggler-pct P] [--jobs N] DIR | FILE FILE... | 'GLOB' | TABLE.jsonl\n"
    "                          a multi-rank job: every rank's summary, iteration times per rank,\n"
    "                          stragglers (mean iteration > P % over the median, default 5),\n"
    "                          clocks aligned at collectives, time waiting in collectives;\n"
    "                          ranks load on N threads; TABLE.jsonl: opscope-cluster's output\n"
    "                          (TABLE.jsonl.partial: an interrupted run's, with a warning)\n"
    "      --iteration-marker NAME  without ProfilerStep#N, iterations start at each slice\n"
    "                               named NAME (or containing it), e.g. \"## forward ##\"\n"
    "      --iterations FIRST[:COUNT]  only events starting in iterations FIRST..FIRST+COUNT-1\n"
    "                               (0-based, ProfilerStep or marker iterations; COUNT 1 by default)\n"
    "      --timing                 print the time of each phase and the model's memory to stderr\n"
    "      --rank-metrics           with --json: the rank's iterations and collectives for a\n"
    "                               multi-rank table (what opscope-cluster asks for)\n"
    "  export --chart CHART --format {pdf,png,svg,csv,json} [options] FILE -o OUT\n"
    "                          a chart as a picture (PDF vector, PNG, SVG; drawn offscreen, no\n"
    "                          display needed) or the data behind it (CSV, JSON; OUT '-' for\n"
    "                          standard output); always written to a temporary file and renamed\n";

// After the CHART list, which comes from the analysis catalog.
const char* kUsageAfterCharts =
    "      --iteration N            only iteration N (0-based ProfilerStep)\n"
    "      --batch-size B           samples per iteration, for samples/s (overview)\n"
    "      --top N                  bars or rows to keep (kernel-stats, op-kernels, launch-stats, ...)\n"
    "      --op NAME [--by-shape]   op-kernels: the kernels of one op, grouped by Input Dims;\n"
    "                               kernel-sequences: the ops whose names contain NAME\n"
    "      --cpu-event-overhead-us X, --gpu-event-overhead-us X, --launch-length-us X\n"
    "                               the profiler's costs (default: estimated from the trace)\n"
    "      --t1-max-gap-us X        longer gaps between ops are data loading, not T1 (200)\n"
    "      --log                    histogram counts on a log scale (overheads)\n"
    "      --size WxH, --dpi N, --dark  picture size (1200x800), PNG resolution (96), theme\n"
    "      --timing                 csv/json: seconds to load and to analyse, to stderr\n"
    "  export --trace OUT.json [--no-critical-path] FILE|DIR\n"
    "                          the trace written back as Chrome/Kineto JSON (Perfetto, chrome://tracing,\n"
    "                          opscope): the critical path marked (\"critical\": 1, flows of category\n"
    "                          critical_path), queue-length and memory-bandwidth counter tracks; a\n"
    "                          folder of ranks as one file\n"
    "      --no-critical-path       leave the critical path out\n"
    "  predict [--gpu NAME] [--gpu-file SPECS.json] [--overheads FILE] [--microbench CSV]...\n"
    "          [--rooflines] [--datasheet | --efficiency FILE] [--fit-samples CSV] [--et ET]\n"
    "          [--replay | --kernels {models,measured}] [--calibrate] [--json|--csv]\n"
    "          [-o OUT] FILE\n"
    "                          per-op GPU time from performance models of a GPU and each\n"
    "                          ProfilerStep iteration simulated end to end (critical path)\n"
    "      --gpu NAME               a preset (see --list-gpus; default: the trace's device); another GPU\n"
    "                               than the trace's is a what-if: its errors are the ratio to the\n"
    "                               trace's own times (JSON what_if)\n"
    "      --gpu-file SPECS.json    GPUs of your own (resources/gpu/gpu_specs.json's shape)\n"
    "      --overheads FILE         T1-T5 statistics (export --chart overheads --format json);\n"
    "                               default: measured on this trace\n"
    "      --microbench CSV         measured GEMMs (batch_size,M,N,K,kernel_runtime in us) or convolutions\n"
    "                               (pass,grads,N,C,K,H,W,R,S,stride,padding,dtype,kernel_runtime; as\n"
    "                               tools/record_gpu_traces.py convbench writes); give both with two\n"
    "                               --microbench. A kind not given comes from the preset's built-in\n"
    "                               table where it has one (H100-SXM: convolutions)\n"
    "      --rooflines              no built-in microbenchmark tables: rooflines of the preset only\n"
    "      --datasheet              no learned efficiency: the preset's datasheet figures alone\n"
    "      --efficiency FILE        achieved-efficiency curves fitted by tools/fit_efficiency.py instead of\n"
    "                               the built-in ones (JSON efficiency says which priced the trace)\n"
    "      --fit-samples CSV        also write every op a model prices, datasheet and measured time, for\n"
    "                               tools/fit_efficiency.py\n"
    "      --et ET                  shapes from the linked execution trace where FILE has none\n"
    "      --replay                 measured kernel times and overheads: the simulator's self-check\n"
    "      --kernels measured       GPU events at their measured times, host modelled: the host\n"
    "                               model's self-check (always reported as self_check; default models)\n"
    "      --calibrate              learn the kernel floor, the achieved DRAM bandwidth and each model's\n"
    "                               achieved share of the datasheet from the first iteration; errors\n"
    "                               over the other iterations (out of sample). Without it the same\n"
    "                               calibrated run is reported beside the datasheet one (JSON calibrated);\n"
    "                               on another GPU than the trace's, fitted on the trace's own and carried\n"
    "      --list-gpus              the presets and exit\n"
    "  diff [--json] [--top N] [--per-iteration] [--iterations R [--iterations-b R]] [-o OUT] A [B]\n"
    "                          two runs compared: ops by name and input shapes, GPU kernels,\n"
    "                          memcpys and memsets by name; count, total, mean, delta, ratio per\n"
    "                          row, rows only in A or only in B, largest change first\n"
    "      --iterations R           only iterations R (FIRST[:COUNT]) of A, and of B unless\n"
    "      --iterations-b R         names B's own; with one trace, two ranges of it\n"
    "      --per-iteration          totals per iteration (runs profiled for different step counts)\n"
    "      --top N                  rows of each table in the text output (25)\n"
    "  advise [--json] [-o OUT] FILE|DIR\n"
    "                          recommendations with measured evidence, most time at stake first:\n"
    "                          launch-bound GPU idle, tiny kernels, blocking syncs, pageable\n"
    "                          copies, input loading, exposed communication, stragglers\n"
    "  critical-path [--json|--csv] [--iteration N | --annotation NAME [--instance K]] [-o OUT] FILE\n"
    "                          the critical path across CPU threads and GPU streams (HTA's graph:\n"
    "                          op nesting, launch -> kernel, stream order, synchronisations): its\n"
    "                          length, time by category, the ops and kernels on it, its segments\n"
    "      --iteration N            only iteration N (0-based ProfilerStep; default: whole trace)\n"
    "      --annotation NAME        the K-th (0-based, default 0) slice whose name contains NAME\n"
    "  roofline [--json|--csv] [--gpu NAME] [--iteration N] [-o OUT] FILE\n"
    "                          how far each op is from the hardware: per op and input shape its\n"
    "                          FLOPs, bytes, intensity, achieved TFLOP/s and TB/s, the roof for its\n"
    "                          dtype, % of it, the bound and the time at stake\n"
    "      --gpu NAME               the GPU's roofs (default: the trace's own, as predict)\n"
    "  link --et ET --kineto TRACE -o OUT [--annotation NAME] [--report-json FILE] [--force]\n"
    "                          join a PyTorch execution trace with the Kineto trace of the same\n"
    "                          run (ET+): CPU nodes gain ts/dur/inclusive_dur/exclusive_dur, GPU\n"
    "                          events become child nodes; what could not be linked is listed\n"
    "      --annotation NAME        iterations for order matching (default ProfilerStep)\n"
    "      --report-json FILE       every unlinked item with its reason, as JSON\n"
    "      --force                  pair ops in order even when the ET and the trace come from\n"
    "                               different processes and no id pairs them (refused otherwise)\n"
    "\n"
    "options:\n"
    "  -h, --help              this text\n"
    "  --version               program version\n"
    "\n"
    "FILE: Chrome trace JSON as PyTorch's profiler (Kineto) or its legacy dialect writes it, an\n"
    "Nsight Systems SQLite export, a rocprofv3 JSON result, a JAX/TensorFlow XPlane profile\n"
    "(*.xplane.pb), a PyTorch or Chakra (.et) execution trace, PyTorch's raw memory timeline,\n"
    "a dv/dt or PlaidML log; plain or gzip-compressed (detected from the content, not the\n"
    "name). After a command,\n"
    "-- ends its options: every later argument is a FILE, even one that starts with '-'.\n"
    "\n"
    "exit codes: 0 ok, 1 internal error, 2 usage error, 3 cannot read the file,\n"
    "            4 not a trace or malformed, 5 cancelled\n"
    "\nmore: man opscope (every command, option and exit code), docs/ in the source tree\n";

// "      CHART: overview      wall, host runtime, ..." then one line per kind.
std::string chartUsage() {
  std::string out;
  for (const opscope::AnalysisKind* k : opscope::analysisCatalog()) {
    std::string name(k->name);
    name.resize(std::max<size_t>(name.size() + 2, 14), ' ');
    out += (out.empty() ? "      CHART: " : "             ") + name + std::string(k->help) + "\n";
  }
  return out;
}

// The CHART list of opscope(1), in troff: the build splices it into the page
// (packaging/CMakeLists.txt), so the page lists what the catalog holds.
std::string chartManPage() {
  std::string out;
  auto escape = [](std::string_view s) {
    std::string e;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s.substr(i, 2) == "->") {
        e += "\\(->";
        ++i;
      } else if (s[i] == '-') {
        e += "\\-";
      } else if (s[i] == '\\') {
        e += "\\e";
      } else {
        e += s[i];
      }
    }
    return e;
  };
  for (const opscope::AnalysisKind* k : opscope::analysisCatalog())
    out += std::string(out.empty() ? ".TP 14\n" : ".TP\n") + ".B " + escape(k->name) + "\n" + escape(k->help) + "\n";
  return out;
}

int runGui(int argc, char** argv, const std::vector<std::string>& args) {
  using Entry = int (*)(int, char**, const char* const*, int);
  auto entry = reinterpret_cast<Entry>(opscope::app::guiModuleSymbol("opscope_gui_main"));
  if (!entry) return kInternal;
  std::vector<const char*> raw;
  for (const std::string& a : args) raw.push_back(a.c_str());
  return entry(argc, argv, raw.data(), static_cast<int>(raw.size()));
}

}  // namespace

namespace opscope::app {
void printUsage(FILE* out) {
  std::fputs(kUsageHead, out);
  std::fputs(kGuiUsage, out);
  std::fputs(kUsageText, out);
  std::fputs(chartUsage().c_str(), out);
  std::fputs(kUsageAfterCharts, out);
}
}  // namespace opscope::app

namespace {

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

// "3" or "3:2" -> (3, 1) or (3, 2); false when malformed.
int runSummary(const std::vector<std::string>& args) {
  bool json = false, timing = false, withRankMetrics = false;
  std::string file, marker, range;
  std::vector<std::string> inputs;
  MultiRankRequest multi;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      json = true;
    } else if (a == "--timing") {
      timing = true;
    } else if (a == "--rank-metrics") {
      withRankMetrics = true;
    } else if (a == "--iteration-marker" || a == "--iterations") {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "opscope summary: %s needs a value\n", a.c_str());
        return kUsage;
      }
      (a == "--iterations" ? range : marker) = args[++i];
    } else if (a == "--straggler-pct" || a == "--jobs") {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "opscope summary: %s needs a value\n", a.c_str());
        return kUsage;
      }
      const std::string v = args[++i];
      try {
        size_t used = 0;
        if (a == "--jobs") {
          const unsigned long n = std::stoul(v, &used);
          if (used != v.size() || n == 0 || n > 256) throw std::invalid_argument(v);
          multi.jobs = static_cast<unsigned>(n);
        } else {
          multi.stragglerPct = std::stod(v, &used);
          if (used != v.size() || !(multi.stragglerPct >= 0)) throw std::invalid_argument(v);
        }
      } catch (const std::exception&) {
        std::fprintf(stderr, "opscope summary: %s expects %s, got '%s'\n", a.c_str(),
                     a == "--jobs" ? "a count from 1 to 256" : "a percentage >= 0", v.c_str());
        return kUsage;
      }
    } else if (a == "-h" || a == "--help") {
      printUsage(stdout);
      return kOk;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      std::fprintf(stderr, "opscope summary: unknown option %s\n", a.c_str());
      return kUsage;
    } else {
      inputs.push_back(a);
    }
  }
  if (inputs.empty()) {
    std::fputs("opscope summary: no FILE given\n", stderr);
    return kUsage;
  }
  if (isMultiRankInput(inputs)) {
    if (!range.empty()) {
      std::fputs("opscope summary: --iterations applies to one trace, not to a set of ranks\n", stderr);
      return kUsage;
    }
    multi.inputs = inputs;
    multi.json = json;
    multi.summary.iterationMarker = marker;
    return runMultiRankSummary(multi);
  }
  file = inputs[0];
  // The input is opened once (it may be a pipe): an execution trace is told from a
  // Kineto trace by its first bytes, which are handed on to whichever loader reads it.
  const std::string path = file == "-" ? "/dev/stdin" : file;
  std::string openError;
  auto src = opscope::ByteSource::open(path, openError);
  if (!src) {
    std::fprintf(stderr, "opscope: %s: %s\n", file.c_str(), openError.c_str());
    return kIoError;
  }
  const std::string head = opscope::peekHead(*src, 1 << 16);
  if (opscope::looksLikeExecutionTrace(head) || opscope::looksLikeChakraEt(head)) {
    if (!marker.empty() || !range.empty()) {
      std::fputs("opscope summary: --iteration-marker and --iterations apply to Kineto traces, not execution traces\n",
                 stderr);
      return kUsage;
    }
    std::string error;
    auto et = opscope::loadExecutionTrace(*src, error);
    if (!et) {
      std::fprintf(stderr, "opscope: %s: %s\n", file.c_str(), error.c_str());
      return kInvalidInput;
    }
    const std::string text = json ? opscope::etSummaryJson(*et, file) : opscope::etSummaryText(*et, file);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return std::fflush(stdout) == 0 ? kOk : kIoError;
  }
  opscope::LoadResult r = opscope::loadTraceSource(*src, path);
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
    const auto its = !r.trace->iterations.empty() || marker.empty() ? r.trace->iterations
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
    std::fprintf(
        stderr,
        "opscope: timing: parse %.3f s (%u part%s), hierarchy %.3f s, summary %.3f s; model %.1f MiB for %llu slices "
        "(args %.1f MiB, strings %.1f MiB in %zu)\n",
        r.timings.parseSeconds, r.parts, r.parts == 1 ? "" : "s", r.timings.hierarchySeconds, summarySeconds,
        static_cast<double>(r.trace->memoryBytes()) / (1 << 20), static_cast<unsigned long long>(r.trace->sliceCount()),
        static_cast<double>(argsBytes) / (1 << 20), static_cast<double>(r.trace->strings.memoryBytes()) / (1 << 20),
        r.trace->strings.size());
  }
  std::string out = json ? opscope::summaryJson(s, file) : opscope::summaryText(s, file);
  if (json && withRankMetrics) {  // for opscope-cluster's table: see report/rank_metrics_json.h
    auto j = nlohmann::ordered_json::parse(out);
    j["rank_metrics"] = opscope::rankMetricsJson(opscope::measureRank(*r.trace));
    out = opscope::jsonText(j, 2) + "\n";
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (!json && r.trace->diagnostics.problems() > 0)
    std::fprintf(stderr, "opscope: %s: warnings: %s\n", file.c_str(), r.trace->diagnostics.oneLine().c_str());
  return std::fflush(stdout) == 0 ? kOk : kIoError;
}

}  // namespace

namespace {

// Every command's output reaches its reader or the exit says so: a write to a full
// disk or a closed pipe (summary --json > /dev/full exited 0) is one line and exit 3.
int checkedExit(int code) {
  std::cout.flush();
  const bool streamFailed = !std::cout.good();
  const bool flushFailed = std::fflush(stdout) != 0 || std::ferror(stdout);
  if (streamFailed || flushFailed) {
    const int err = errno;
    std::fprintf(stderr, "opscope: writing to the standard output failed: %s\n",
                 err ? std::strerror(err) : "write error");
    return code == kOk ? kIoError : code;
  }
  return code;
}

int runCommand(const std::string& command, const std::vector<std::string>& args, bool& known) {
  known = true;
  if (command == "summary") return runSummary(args);
  if (command == "export") return runExport(args);
  if (command == "predict") return runPredict(args);
  if (command == "link") return runLink(args);
  if (command == "diff") return runDiff(args);
  if (command == "advise") return runAdvise(args);
  if (command == "critical-path") return runCriticalPath(args);
  if (command == "roofline") return runRoofline(args);
  known = false;
  return kUsage;
}

}  // namespace

int main(int argc, char** argv) {
  opscope::app::applyMallocPolicy();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && (args[0] == "-h" || args[0] == "--help")) {
    printUsage(stdout);
    return kOk;
  }
  if (args.size() == 1 && args[0] == "--man-charts") {  // for the build, not in --help
    std::fputs(chartManPage().c_str(), stdout);
    return kOk;
  }
  if (!args.empty() && args[0] == "--version") {
    // The GUI module says which Qt it runs with; without it the rest still prints.
    using QtVersion = const char* (*)();
    auto qt = reinterpret_cast<QtVersion>(opscope::app::guiModuleSymbol("opscope_qt_version", /*quiet=*/true));
    std::fputs(opscope::versionText(qt ? qt() : "").c_str(), stdout);
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
  endOfOptions(args);
  try {
    bool known = false;
    const int code = runCommand(command, args, known);
    if (known) return checkedExit(code);
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
