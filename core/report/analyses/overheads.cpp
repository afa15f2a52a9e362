// The CPU-side overheads T1-T5 (analysis/overheads.h), with the profiler's costs as
// given or estimated from the trace; the JSON is the notebook's overheads file.
#include "analysis/overheads.h"
#include "report/analysis_catalog.h"
#include "report/breakdown_report.h"

namespace opscope::analyses {

extern const AnalysisKind overheads;
const AnalysisKind overheads{
    .name = "overheads",
    .title = "CPU overheads T1\xE2\x80\x93T5",
    .tab = "Overheads",
    .help = "T1-T5 CPU overheads (JSON: the notebook's overheads file)",
    .order = 50,
    .scope = AnalysisScope::Window,
    .compute =
        [](const Trace& trace, const AnalysisRequest& r) {
          return analysisResult(computeOverheadsWithCosts(trace, r.window, r.costs));
        },
    .json =
        [](const AnalysisResult& v, const Trace&, const AnalysisRequest&, const std::string&) {
          const OverheadsWithCosts& o = analysisValue<OverheadsWithCosts>(v);
          return overheadsJson(o.overheads, &o.estimate);
        },
    .csv = [](const AnalysisResult& v, const Trace&,
              const AnalysisRequest&) { return overheadsCsv(analysisValue<OverheadsWithCosts>(v).overheads); }};

}  // namespace opscope::analyses
