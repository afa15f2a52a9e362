// Allocated memory over time per device, its peak, the allocations live at any time
// and memory by op (analysis/memory_timeline.h). The whole trace: allocations outlive
// any iteration.
#include "analysis/memory_timeline.h"
#include "report/analysis_catalog.h"
#include "report/memory_report.h"

namespace opscope::analyses {

extern const AnalysisKind memory;
const AnalysisKind memory{
    .name = "memory",
    .title = "Memory: allocated and reserved per device",
    .tab = "Memory",
    .help = "allocated memory over time per device, peak, live allocations, by op",
    .order = 80,
    .scope = AnalysisScope::WholeTrace,
    .compute = [](const Trace& trace, const AnalysisRequest&) { return analysisResult(memoryTimeline(trace)); },
    .json = [](const AnalysisResult& v, const Trace& trace, const AnalysisRequest&,
               const std::string& path) { return memoryJson(analysisValue<MemoryTimeline>(v), trace, path); },
    .csv = [](const AnalysisResult& v, const Trace& trace,
              const AnalysisRequest&) { return memoryCsv(analysisValue<MemoryTimeline>(v), trace); }};

}  // namespace opscope::analyses
