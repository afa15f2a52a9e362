// The Analysis dock's tabs that show more than a chart over the kind's CSV: one factory
// per such kind. A kind not named here gets the base tab (panels/analysis_tab.h).
#include "panels/analysis_tab.h"
#include "panels/tabs/memory_tab.h"
#include "panels/tabs/op_kernels_tab.h"
#include "panels/tabs/overheads_tab.h"

namespace opscope::ui {

AnalysisTab* makeOverviewTab(const AnalysisKind& kind);
AnalysisTab* makeBreakdownTab(const AnalysisKind& kind);
AnalysisTab* makeKernelStatsTab(const AnalysisKind& kind);
AnalysisTab* makeStreamsTab(const AnalysisKind& kind);
AnalysisTab* makeRanksTab(const AnalysisKind& kind);
AnalysisTab* makeAdviceTab(const AnalysisKind& kind);
AnalysisTab* makeRooflineTab(const AnalysisKind& kind);

AnalysisTab* makeAnalysisTab(const AnalysisKind& kind) {
  const std::string_view n = kind.name;
  if (n == "overview") return makeOverviewTab(kind);
  if (n == "breakdown") return makeBreakdownTab(kind);
  if (n == "op-kernels") return new OpKernelsTab(kind);
  if (n == "kernel-stats") return makeKernelStatsTab(kind);
  if (n == "overheads") return new OverheadsTab(kind);
  if (n == "streams") return makeStreamsTab(kind);
  if (n == "ranks") return makeRanksTab(kind);
  if (n == "memory") return new MemoryTab(kind);
  if (n == "advice") return makeAdviceTab(kind);
  if (n == "roofline") return makeRooflineTab(kind);
  return new AnalysisTab(kind);
}

}  // namespace opscope::ui
