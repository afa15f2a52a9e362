// Iteration time per rank of a multi-rank job, collectives and the job's top kernels
// per rank (ranks/rank_table.h); one row for a single trace. The whole session:
// ranks are compared over all their iterations.
#include "ranks/rank_table.h"
#include "report/analysis_catalog.h"
#include "report/multi_rank_report.h"

namespace opscope::analyses {

extern const AnalysisKind ranks;
const AnalysisKind ranks{
    .name = "ranks",
    .title = "Ranks: iteration time, collectives, top kernels",
    .tab = "Ranks",
    .help = "iteration time per rank of a multi-rank job",
    .order = 70,
    .scope = AnalysisScope::WholeTrace,
    .compute = [](const Trace& trace, const AnalysisRequest&) { return analysisResult(rankTable(trace)); },
    .json = [](const AnalysisResult& v, const Trace&, const AnalysisRequest&,
               const std::string& path) { return rankTableJson(analysisValue<RankTable>(v), path); },
    .csv = [](const AnalysisResult& v, const Trace&,
              const AnalysisRequest&) { return rankTableCsv(analysisValue<RankTable>(v)); }};

}  // namespace opscope::analyses
