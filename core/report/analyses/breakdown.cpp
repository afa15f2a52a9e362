// Device time per stream: ops, their sub-ops and kernels (analysis/device_breakdown.h).
#include "analysis/device_breakdown.h"
#include "report/analysis_catalog.h"
#include "report/breakdown_report.h"

namespace opscope::analyses {

extern const AnalysisKind breakdown;
const AnalysisKind breakdown{
    .name = "breakdown",
    .title = "Device-time breakdown by op",
    .tab = "Breakdown",
    .help = "device time per stream: ops -> sub-ops -> kernels",
    .order = 20,
    .scope = AnalysisScope::Window,
    .compute = [](const Trace& trace,
                  const AnalysisRequest& r) { return analysisResult(deviceBreakdown(trace, r.window)); },
    .json = [](const AnalysisResult& v, const Trace& trace, const AnalysisRequest&,
               const std::string& path) { return deviceBreakdownJson(analysisValue<DeviceBreakdown>(v), trace, path); },
    .csv = [](const AnalysisResult& v, const Trace& trace,
              const AnalysisRequest&) { return deviceBreakdownCsv(analysisValue<DeviceBreakdown>(v), trace); }};

}  // namespace opscope::analyses
