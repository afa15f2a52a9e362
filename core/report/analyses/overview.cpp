// The overview: wall time, host runtime, data loading, device activity, the step-time
// breakdown and per-stream activity (analysis/overview.h).
#include "analysis/overview.h"
#include "report/analysis_catalog.h"
#include "report/analysis_report.h"

namespace opscope::analyses {

extern const AnalysisKind overview;
const AnalysisKind overview{
    .name = "overview",
    .title = "Overview",
    .tab = "Overview",
    .help = "wall, host runtime, GPU activity, step-time breakdown",
    .order = 10,
    .scope = AnalysisScope::Window,
    .compute =
        [](const Trace& trace, const AnalysisRequest& r) {
          OverviewOptions o;
          o.window = r.window;
          o.batchSize = r.batchSize;
          o.classifier = &r.kernelClasses();
          return analysisResult(computeOverview(trace, o));
        },
    .json = [](const AnalysisResult& v, const Trace& trace, const AnalysisRequest&,
               const std::string& path) { return overviewJson(analysisValue<Overview>(v), trace, path); },
    .csv = [](const AnalysisResult& v, const Trace&,
              const AnalysisRequest&) { return overviewCsv(analysisValue<Overview>(v)); }};

}  // namespace opscope::analyses
