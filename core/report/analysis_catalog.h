#pragma once
// The analysis catalog: one entry per analysis kind, the only place that names and
// describes them. `opscope export --chart NAME` (JSON and CSV here, pictures through the
// GUI module), the chart list of `opscope --help` and of the man page, the Analysis
// dock's tabs, its data exports and the headless pictures all come from it; the window
// adds only how each kind is drawn (ui/charts/kinds/, keyed by the same name).
//
// An entry lives in core/report/analyses/<name>.cpp and defines
// `const AnalysisKind opscope::analyses::<name>` (the file's stem, '-' as '_'); CMake
// finds the files and generates the list (docs/architecture.md: "A new analysis with its
// chart"). Entries compute on any thread: compute() and the writers only read the trace.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/kernel_classes.h"
#include "analysis/overheads.h"
#include "model/trace.h"

namespace opscope {

// What an analysis covers and the options a user can set, from the command line
// (export's arguments) or the window (its scope box, batch size, cost boxes).
struct AnalysisRequest {
  std::optional<TimeWindow> window;  // one iteration; nullopt: the whole trace
  std::string scopeLabel = "whole trace";
  const KernelClassifier* classifier = nullptr;  // nullptr: the built-in rules
  std::optional<uint64_t> batchSize;             // samples per iteration (overview)
  uint64_t top = 0;                              // bars or rows to keep; 0: the kind's default
  std::string op;                                // op-kernels: one op's kernels by input shape
  bool byShape = false;
  CostOverrides costs;  // overheads: the profiler's costs; unset: estimated from the trace

  const KernelClassifier& kernelClasses() const { return classifier ? *classifier : KernelClassifier::builtin(); }
};

// The result of one analysis. Each kind keeps its own value type T in an
// AnalysisValue<T>; analysisValue<T>() reads it back (std::bad_cast on the wrong type).
class AnalysisResult {
 public:
  virtual ~AnalysisResult() = default;
};

template <class T>
class AnalysisValue final : public AnalysisResult {
 public:
  explicit AnalysisValue(T v) : value(std::move(v)) {}
  T value;
};

template <class T>
std::shared_ptr<const AnalysisResult> analysisResult(T value) {
  return std::make_shared<const AnalysisValue<T>>(std::move(value));
}

template <class T>
const T& analysisValue(const AnalysisResult& r) {
  return dynamic_cast<const AnalysisValue<T>&>(r).value;
}

template <class T>
const T* analysisValueIf(const AnalysisResult* r) {
  const auto* v = dynamic_cast<const AnalysisValue<T>*>(r);
  return v ? &v->value : nullptr;
}

enum class AnalysisScope {
  Window,     // follows the request's window (an iteration or the whole trace)
  WholeTrace  // always the whole trace (memory outlives iterations; ranks and advice compare them)
};

struct AnalysisKind {
  std::string_view name;   // "kernel-stats": export --chart NAME, the key everywhere
  std::string_view title;  // "Kernel statistics": chart titles
  std::string_view tab;    // "Kernels": the Analysis dock's tab
  std::string_view help;   // one line of --help and the man page
  int order = 0;           // position in --help, the man page and the dock
  AnalysisScope scope = AnalysisScope::Window;
  std::shared_ptr<const AnalysisResult> (*compute)(const Trace& trace, const AnalysisRequest& request) = nullptr;
  // The data behind the chart. path: the trace's file as the user named it.
  std::string (*json)(const AnalysisResult& result, const Trace& trace, const AnalysisRequest& request,
                      const std::string& path) = nullptr;
  std::string (*csv)(const AnalysisResult& result, const Trace& trace, const AnalysisRequest& request) = nullptr;
  // Optional: counter series the window adds to its timeline when it opens a trace
  // (drawn like the trace's own counters).
  void (*addTimelineCounters)(Trace& trace) = nullptr;
  // Holds hundreds of MB while it runs on a 1 GB trace (the roofline's op inputs): a front
  // end that runs the kinds beside the critical path (the Analysis dock) runs these after
  // it, so that the two peaks do not add up.
  bool heavy = false;
  // Prices every op from its shapes (the roofline): a front end that loads a trace for
  // this kind alone loads it with LoadOptions::keepWhatOpModelsRead.
  bool readsOpShapes = false;
};

// Every kind, by order.
const std::vector<const AnalysisKind*>& analysisCatalog();
// nullptr when no kind has that name.
const AnalysisKind* findAnalysis(std::string_view name);
// The kind named name; a name no entry has is a programming error (aborts).
const AnalysisKind& analysisNamed(std::string_view name);
// "overview, breakdown, ..." in catalog order.
std::string analysisNames();

// "Kernel statistics · iteration 3 · trace.json.gz".
std::string analysisTitle(const AnalysisKind& kind, std::string_view scopeLabel, std::string_view fileName);

// The kind's result for the request, restricted to its scope (a WholeTrace kind drops
// the request's window).
std::shared_ptr<const AnalysisResult> computeAnalysis(const AnalysisKind& kind, const Trace& trace,
                                                      const AnalysisRequest& request);

}  // namespace opscope
