// How far each op is from the hardware (perf/roofline.h), on the trace's own GPU as
// predict picks it; `opscope roofline` adds --gpu.
#include <nlohmann/json.hpp>

#include "perf/prediction.h"
#include "perf/roofline.h"
#include "report/analysis_catalog.h"
#include "report/roofline_report.h"
#include "text/json_text.h"

namespace opscope::analyses {

extern const AnalysisKind roofline;
const AnalysisKind roofline{
    .name = "roofline",
    .title = "Roofline: how far each op is from the hardware",
    .tab = "Roofline",
    .help = "per op and shape: FLOP/byte against achieved TFLOP/s under the GPU's roofs, time at stake",
    .order = 75,
    .scope = AnalysisScope::Window,
    .compute =
        [](const Trace& trace, const AnalysisRequest& r) {
          RooflineAnalysis a;
          if (auto gpu = gpuForTrace(trace, builtinGpuSpecs(), a.gpuSource))
            a.roof = computeRoofline(trace, *gpu, r.window);
          return analysisResult(std::move(a));
        },
    .json =
        [](const AnalysisResult& v, const Trace& trace, const AnalysisRequest&, const std::string& path) {
          const RooflineAnalysis& a = analysisValue<RooflineAnalysis>(v);
          if (a.roof) return rooflineJson(*a.roof, trace, path, a.gpuSource);
          nlohmann::ordered_json j;
          j["file"] = path;
          j["gpu"] = nullptr;
          j["gpu_source"] = a.gpuSource;
          j["ops"] = nlohmann::ordered_json::array();
          return jsonText(j, 2) + "\n";
        },
    .csv =
        [](const AnalysisResult& v, const Trace&, const AnalysisRequest&) {
          const RooflineAnalysis& a = analysisValue<RooflineAnalysis>(v);
          return a.roof ? rooflineCsv(*a.roof) : rooflineCsv(Roofline{});
        },
    .heavy = true,
    .readsOpShapes = true};

}  // namespace opscope::analyses
