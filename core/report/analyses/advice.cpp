// The recommendations of `opscope advise`, most time at stake first
// (analysis/advice.h). The whole trace: the rules compare iterations and ranks.
#include "analysis/advice.h"
#include "report/advice_report.h"
#include "report/analysis_catalog.h"

namespace opscope::analyses {

extern const AnalysisKind advice;
const AnalysisKind advice{
    .name = "advice",
    .title = "Recommendations: time at stake",
    .tab = "Recommendations",
    .help = "the recommendations of advise",
    .order = 90,
    .scope = AnalysisScope::WholeTrace,
    .compute = [](const Trace& trace, const AnalysisRequest&) { return analysisResult(advise(trace)); },
    .json = [](const AnalysisResult& v, const Trace& trace, const AnalysisRequest&,
               const std::string& path) { return adviceJson(analysisValue<std::vector<Advice>>(v), trace, path); },
    .csv = [](const AnalysisResult& v, const Trace&,
              const AnalysisRequest&) { return adviceCsv(analysisValue<std::vector<Advice>>(v)); }};

}  // namespace opscope::analyses
