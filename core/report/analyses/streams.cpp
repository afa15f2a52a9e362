// Busy, idle and overlap per device stream, utilisation over time
// (analysis/stream_usage.h).
#include "analysis/stream_usage.h"
#include "report/analysis_catalog.h"
#include "report/breakdown_report.h"

namespace opscope::analyses {

extern const AnalysisKind streams;
const AnalysisKind streams{
    .name = "streams",
    .title = "GPU streams: busy, idle, utilisation",
    .tab = "Streams",
    .help = "busy/idle/overlap per stream, utilisation over time",
    .order = 60,
    .scope = AnalysisScope::Window,
    .compute = [](const Trace& trace,
                  const AnalysisRequest& r) { return analysisResult(streamUsage(trace, r.kernelClasses(), r.window)); },
    .json = [](const AnalysisResult& v, const Trace& trace, const AnalysisRequest&,
               const std::string& path) { return streamUsageJson(analysisValue<StreamUsageReport>(v), trace, path); },
    .csv = [](const AnalysisResult& v, const Trace&,
              const AnalysisRequest&) { return streamUsageCsv(analysisValue<StreamUsageReport>(v)); }};

}  // namespace opscope::analyses
