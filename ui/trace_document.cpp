#include "trace_document.h"

#include <algorithm>
#include <chrono>
#include <future>

#include "analysis/memory_timeline.h"
#include "analysis/utilisation_counters.h"
#include "io/trace_loader.h"
#include "ranks/rank_session.h"
#include "report/analysis_catalog.h"

namespace opscope::ui {

std::shared_ptr<const TraceDocument> prepareDocument(std::string path, LoadResult&& loaded) {
  const auto t0 = std::chrono::steady_clock::now();
  auto doc = std::make_shared<TraceDocument>();
  doc->path = std::move(path);
  doc->trace = std::move(loaded.trace);
  doc->timings = loaded.timings;
  // A derived counter track per GPU device, drawn with the trace's own counters.
  addGpuUtilisationCounters(*doc->trace);
  // And per device its allocated / reserved memory, from the "[memory]" events.
  if (!doc->trace->memoryEvents.empty()) addMemoryCounters(*doc->trace, memoryTimeline(*doc->trace));
  // And the series any kind of the analysis catalog draws on the timeline.
  for (const AnalysisKind* kind : analysisCatalog())
    if (kind->addTimelineCounters) kind->addTimelineCounters(*doc->trace);
  // Independent read-only passes over the trace: the op tree (the longest) on its own
  // thread, the others here.
  const Trace& trace = *doc->trace;
  auto tree = std::async(std::launch::async, [&trace] { return buildOpTree(trace); });
  doc->rows = RowIndex(trace);
  doc->overview = computeDensity(trace);
  doc->instantsByTime.resize(trace.instants.size());
  for (uint32_t i = 0; i < trace.instants.size(); ++i) doc->instantsByTime[i] = i;
  std::stable_sort(doc->instantsByTime.begin(), doc->instantsByTime.end(),
                   [&trace](uint32_t a, uint32_t b) { return trace.instants[a].ts < trace.instants[b].ts; });
  doc->opTree = tree.get();
  doc->prepareSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return doc;
}

std::shared_ptr<const TraceDocument> loadDocument(const std::string& path, std::string& error, LoadStatus* status) {
  LoadResult r = loadTraceOrSession(path);
  if (status) *status = r.status;
  if (r.status != LoadStatus::Ok) {
    error = r.error;
    return nullptr;
  }
  return prepareDocument(path, std::move(r));
}

}  // namespace opscope::ui
