// Per kernel count, total, mean, min, max, std and share, and the kernel classes
// (analysis/kernel_stats.h).
#include "analysis/kernel_stats.h"
#include "report/analysis_catalog.h"
#include "report/analysis_report.h"

namespace opscope::analyses {

extern const AnalysisKind kernel_stats;
const AnalysisKind kernel_stats{
    .name = "kernel-stats",
    .title = "Kernel statistics",
    .tab = "Kernels",
    .help = "per kernel count/total/mean/min/max/std/share, classes",
    .order = 40,
    .scope = AnalysisScope::Window,
    .compute =
        [](const Trace& trace, const AnalysisRequest& r) {
          return analysisResult(kernelStatistics(trace, r.kernelClasses(), r.window));
        },
    .json = [](const AnalysisResult& v, const Trace& trace, const AnalysisRequest& r,
               const std::string& path) { return kernelStatsJson(analysisValue<KernelStats>(v), trace, path, r.top); },
    .csv = [](const AnalysisResult& v, const Trace& trace,
              const AnalysisRequest& r) { return kernelStatsCsv(analysisValue<KernelStats>(v), trace, r.top); }};

}  // namespace opscope::analyses
