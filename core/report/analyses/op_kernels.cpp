// The kernel mix of the ops with the most device time (analysis/op_kernel_mix.h), or,
// with --op NAME, the kernels of one op grouped by its input shapes.
#include "analysis/op_kernel_mix.h"
#include "report/analysis_catalog.h"
#include "report/breakdown_report.h"

namespace opscope::analyses {

namespace {
constexpr size_t kTopOps = 8;       // the notebook's "dominating ops"
constexpr size_t kMaxVariants = 4;  // kernel mixes per op
}  // namespace

extern const AnalysisKind op_kernels;
const AnalysisKind op_kernels{
    .name = "op-kernels",
    .title = "Kernel mix of the dominating ops",
    .tab = "Op kernels",
    .help = "kernel mix of the ops with the most device time (stacked bars)",
    .order = 30,
    .scope = AnalysisScope::Window,
    .compute =
        [](const Trace& trace, const AnalysisRequest& r) {
          if (!r.op.empty()) return analysisResult(opKernelTable(trace, r.kernelClasses(), r.op, r.byShape, r.window));
          return analysisResult(opKernelMixes(trace, r.kernelClasses(), r.window,
                                              r.top ? static_cast<size_t>(r.top) : kTopOps, kMaxVariants));
        },
    .json =
        [](const AnalysisResult& v, const Trace& trace, const AnalysisRequest& r, const std::string& path) {
          if (const auto* t = analysisValueIf<OpKernelTable>(&v)) return opKernelTableJson(*t, trace, r.op, path);
          return opKernelMixJson(analysisValue<OpKernelMixes>(v), trace, path);
        },
    .csv =
        [](const AnalysisResult& v, const Trace& trace, const AnalysisRequest&) {
          if (const auto* t = analysisValueIf<OpKernelTable>(&v)) return opKernelTableCsv(*t, trace);
          return opKernelMixCsv(analysisValue<OpKernelMixes>(v), trace);
        }};

}  // namespace opscope::analyses
