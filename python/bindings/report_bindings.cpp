// The reports of the binary's commands, computed from the loaded trace with the GIL
// released: each returns exactly the JSON text the command writes (summary --json,
// export --format json, predict --json, critical-path --json, roofline --json,
// advise --json, diff --json); opscope/__init__.py parses it and turns tables into
// DataFrames. One place computes each report (core/report), so the module and the
// binary cannot disagree.
#include <optional>
#include <string>

#include <pybind11/stl.h>

#include "analysis/advice.h"
#include "analysis/critical_path.h"
#include "analysis/kernel_classes.h"
#include "analysis/summary.h"
#include "analysis/trace_diff.h"
#include "hierarchy/iterations.h"
#include "perf/gpu_spec.h"
#include "perf/prediction.h"
#include "perf/prediction_policy.h"
#include "perf/roofline.h"
#include "py_trace.h"
#include "ranks/rank_metrics.h"
#include "report/advice_report.h"
#include "report/critical_path_report.h"
#include "report/diff_report.h"
#include "report/export_request.h"
#include "report/predict_report.h"
#include "report/rank_metrics_json.h"
#include "report/roofline_report.h"
#include "report/summary_report.h"
#include "text/json_text.h"

namespace py = pybind11;

namespace opscope::python {

namespace {

// Iterations FIRST..FIRST+COUNT-1 of the trace's ProfilerSteps, or the one-line error
// the binary prints for a range the trace does not have.
TimeWindow windowOf(const Trace& t, const std::string& path, size_t first, size_t count) {
  if (count == 0) fail("an iteration range needs a count of at least 1", 2);
  const auto w = iterationWindow(t.iterations, first, count);
  if (!w)
    fail(path + ": no iteration " + std::to_string(first) + " (the trace has " + std::to_string(t.iterations.size()) +
         " ProfilerStep iterations)");
  return *w;
}

std::string summaryJsonOf(const PyTrace& self, const std::string& marker, std::optional<size_t> first, size_t count) {
  if (self.execution) {
    py::gil_scoped_release release;
    return etSummaryJson(*self.execution, self.path);
  }
  const Trace& t = self.timeline();
  SummaryOptions options;
  options.iterationMarker = marker;
  if (first) {
    const auto its = !t.iterations.empty() || marker.empty() ? t.iterations : findMarkerIterations(t, marker);
    const auto w = iterationWindow(its, *first, count);
    if (!w)
      fail(self.path + ": no iteration " + std::to_string(*first) + " (the trace has " + std::to_string(its.size()) +
           (marker.empty() && its.empty() ? "; try iteration_marker=NAME)" : ")"));
    options.window = w;
  }
  py::gil_scoped_release release;
  return summaryJson(summarize(t, options), self.path);
}

std::string analysisJson(const PyTrace& self, const std::string& name, std::optional<uint64_t> iteration, uint64_t top,
                         const std::string& op, bool byShape, std::optional<uint64_t> batchSize, bool csv) {
  const Trace& t = self.timeline();
  const AnalysisKind* kind = findAnalysis(name);
  if (!kind) fail("no analysis named '" + name + "' (analyses: " + analysisNames() + ")", 2);
  ExportRequest request;
  request.chart = kind;
  request.format = csv ? ExportFormat::Csv : ExportFormat::Json;
  request.file = self.path;
  request.iteration = iteration;
  request.top = top;
  request.op = op;
  request.byShape = byShape;
  request.batchSize = batchSize;
  std::optional<TimeWindow> window;
  std::string error;
  if (!exportWindow(t, request, window, error)) fail(self.path + ": " + error);
  py::gil_scoped_release release;
  // The user's kernel classes as export reads them; a broken file falls back to the
  // built-in rules (export prints the same warning).
  std::string classesError;
  const KernelClassifier classifier = KernelClassifier::withUserOverrides(classesError);
  return exportDataText(t, request, classifier);
}

// The setup `opscope predict` and `opscope roofline` plan (perf/prediction_policy.h).
PredictionSetup setupFor(const Trace& t, const std::string& path, PredictionRequest& request) {
  std::string error;
  if (!request.gpuName.empty() && !findGpu(*request.gpus, request.gpuName, error)) fail(error, 2);
  PredictionPlan plan = planPrediction(t, request);
  switch (plan.error) {
    case PlanError::None:
      break;
    case PlanError::UnknownGpu:
      fail(plan.message, 2);
    case PlanError::NoGpuForTrace:
      fail(path + ": " + plan.message + "; name one with gpu= (opscope.gpus() lists them)", 2);
    case PlanError::CannotCalibrate:
      fail("calibrate: " + plan.message, 2);
  }
  return std::move(*plan.setup);
}

std::string predictJson(const PyTrace& self, const std::string& gpu, bool replay, bool measuredKernels, bool calibrate,
                        bool datasheet, bool rooflines) {
  const Trace& t = self.timeline();
  if (replay && (calibrate || measuredKernels || datasheet))
    fail("predict: replay uses the trace's own times; calibrate, kernels='measured' and datasheet do not apply", 2);
  PredictionRequest request;
  request.gpuName = gpu;
  request.gpus = &builtinGpuSpecs();
  request.replay = replay;
  request.measuredKernels = measuredKernels;
  request.calibrate = calibrate;
  request.datasheet = datasheet;
  request.rooflines = rooflines;
  request.microbench = std::make_shared<Microbenchmarks>();
  PredictionSetup setup = setupFor(t, self.path, request);
  py::gil_scoped_release release;
  const PredictionResult result = runPrediction(t, std::move(setup));
  return predictionJson(t, result, self.path);
}

std::string rooflineJsonOf(const PyTrace& self, const std::string& gpu, std::optional<size_t> iteration) {
  const Trace& t = self.timeline();
  std::optional<TimeWindow> window;
  if (iteration) window = windowOf(t, self.path, *iteration, 1);
  PredictionRequest request;
  request.gpuName = gpu;
  request.gpus = &builtinGpuSpecs();
  request.datasheet = true;
  const PredictionSetup setup = setupFor(t, self.path, request);
  py::gil_scoped_release release;
  const Roofline roof = computeRoofline(t, setup.gpu, window);
  return rooflineJson(roof, t, self.path, setup.gpuSource);
}

std::string criticalPathJsonOf(const PyTrace& self, std::optional<size_t> iteration, const std::string& annotation,
                               size_t instance) {
  const Trace& t = self.timeline();
  if (iteration && !annotation.empty()) fail("critical_path: give iteration or annotation, not both", 2);
  std::optional<CriticalPathWindow> window;
  if (iteration) {
    window = criticalPathWindowOfIteration(t, *iteration);
    if (!window)
      fail(self.path + ": no iteration " + std::to_string(*iteration) + " (the trace has " +
           std::to_string(t.iterations.size()) + " ProfilerStep iterations)");
  } else if (!annotation.empty()) {
    window = criticalPathWindowOfAnnotation(t, annotation, instance);
    if (!window)
      fail(self.path + ": no instance " + std::to_string(instance) + " of a slice named like '" + annotation + "'");
  } else {
    window = criticalPathWindowOfTrace(t);
    if (!window) fail(self.path + ": the trace has no slices");
  }
  py::gil_scoped_release release;
  const CriticalPath path = computeCriticalPath(t, *window);
  if (!path.ok()) fail(self.path + ": " + path.error);  // a C++ exception: no GIL needed
  return criticalPathJson(path, t, self.path);
}

// summary --json --rank-metrics' "rank_metrics" (report/rank_metrics_json.h): what a
// cluster's table needs to align clocks and measure collective waits across ranks.
std::string rankMetricsJsonOf(const PyTrace& self) {
  const Trace& t = self.timeline();
  py::gil_scoped_release release;
  return jsonText(rankMetricsJson(measureRank(t)), 2);
}

std::string adviseJsonOf(const PyTrace& self) {
  const Trace& t = self.timeline();
  py::gil_scoped_release release;
  return adviceJson(advise(t), t, self.path);
}

// "FIRST" or "FIRST:COUNT" as the command's --iterations writes it.
std::string rangeText(std::optional<size_t> first, size_t count) {
  if (!first) return {};
  return count == 1 ? std::to_string(*first) : std::to_string(*first) + ":" + std::to_string(count);
}

std::string diffJson(const PyTrace& a, const PyTrace& b, std::optional<size_t> firstA, size_t countA,
                     std::optional<size_t> firstB, size_t countB, bool perIteration) {
  const Trace& ta = a.timeline();
  const Trace& tb = b.timeline();
  DiffLabels labels;
  labels.a = a.path;
  labels.b = b.path;
  labels.perIteration = perIteration;
  labels.iterationsA = rangeText(firstA, countA);
  labels.iterationsB = rangeText(firstB, countB);
  DiffOptions options;
  options.perIteration = perIteration;
  if (firstA) options.windowA = windowOf(ta, a.path, *firstA, countA);
  if (firstB) options.windowB = windowOf(tb, b.path, *firstB, countB);
  py::gil_scoped_release release;
  const TraceDiff d = diffTraces(ta, tb, options);
  if (perIteration && (d.iterationWallA.empty() || d.iterationWallB.empty()))
    fail((d.iterationWallA.empty() ? a.path : b.path) +
         ": per_iteration needs ProfilerStep iterations, and it has none");
  return traceDiffJson(d, labels);
}

py::list gpus() {
  py::list out;
  for (const GpuSpec& g : builtinGpuSpecs().gpus) {
    py::dict d;
    d["name"] = g.name;
    d["sms"] = g.sms;
    d["dram_gbs"] = g.dramGBs;
    d["fp32_tflops"] = g.fp32;
    d["bf16_tflops"] = g.bf16;
    d["source"] = g.source;
    out.append(d);
  }
  return out;
}

py::list analyses() {
  py::list out;
  for (const AnalysisKind* k : analysisCatalog()) {
    py::dict d;
    d["name"] = std::string(k->name);
    d["title"] = std::string(k->title);
    d["help"] = std::string(k->help);
    d["whole_trace"] = k->scope == AnalysisScope::WholeTrace;
    out.append(d);
  }
  return out;
}

}  // namespace

void bindReports(py::module_& m, py::class_<PyTrace, std::shared_ptr<PyTrace>>& cls) {
  using py::arg;
  m.def("_gpus", &gpus);
  m.def("_analyses", &analyses);
  m.def("_diff_json", &diffJson, arg("a"), arg("b"), arg("first_a"), arg("count_a"), arg("first_b"), arg("count_b"),
        arg("per_iteration"));
  cls.def("_summary_json", &summaryJsonOf, arg("marker"), arg("first"), arg("count"));
  cls.def("_analysis_json", &analysisJson, arg("name"), arg("iteration"), arg("top"), arg("op"), arg("by_shape"),
          arg("batch_size"), arg("csv"));
  cls.def("_predict_json", &predictJson, arg("gpu"), arg("replay"), arg("measured_kernels"), arg("calibrate"),
          arg("datasheet"), arg("rooflines"));
  cls.def("_roofline_json", &rooflineJsonOf, arg("gpu"), arg("iteration"));
  cls.def("_critical_path_json", &criticalPathJsonOf, arg("iteration"), arg("annotation"), arg("instance"));
  cls.def("_advise_json", &adviseJsonOf);
  cls.def("_rank_metrics_json", &rankMetricsJsonOf);
}

}  // namespace opscope::python
