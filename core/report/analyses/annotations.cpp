// GPU user-annotation breakdown (analysis/annotation_breakdown.h): per annotation name
// its instances' time on the GPU streams and the GPU events inside them.
//
// JSON contract (names fixed; add, never rename): {"file", "annotations": [{"name",
// "count", "us", "min_us", "max_us", "mean_us", "std_us", "gpu_events", "gpu_event_us",
// "kernels": [{"name", "count", "us"}]}]}, annotations by total time.
#include <nlohmann/json.hpp>

#include "analysis/annotation_breakdown.h"
#include "report/analysis_catalog.h"
#include "report/analysis_report.h"
#include "report/report_numbers.h"
#include "text/json_text.h"

namespace opscope::analyses {

namespace {

double us(TimeNs ns) { return static_cast<double>(ns) / 1000.0; }

std::string annotationsJson(const AnnotationBreakdown& b, const std::string& path) {
  nlohmann::ordered_json j;
  j["file"] = path;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const AnnotationRow& r : b.rows) {
    nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
    for (const AnnotationKernels& k : r.kernels)
      kernels.push_back({{"name", k.name}, {"count", k.count}, {"us", us(k.time)}});
    rows.push_back({{"name", r.name},
                    {"count", r.durUs.count},
                    {"us", us(r.total)},
                    {"min_us", r.durUs.min},
                    {"max_us", r.durUs.max},
                    {"mean_us", r.durUs.mean},
                    {"std_us", r.durUs.stddev},
                    {"gpu_events", r.gpuEvents},
                    {"gpu_event_us", us(r.gpuEventTime)},
                    {"kernels", std::move(kernels)}});
  }
  j["annotations"] = std::move(rows);
  return jsonText(j, 2) + "\n";
}

std::string annotationsCsv(const AnnotationBreakdown& b) {
  std::string out = "name,count,us,min_us,max_us,mean_us,std_us,gpu_events,gpu_event_us\n";
  for (const AnnotationRow& r : b.rows)
    out += csvField(r.name) + "," + std::to_string(r.durUs.count) + "," + usText(r.total) + "," +
           shortestNumber(r.durUs.min) + "," + shortestNumber(r.durUs.max) + "," + shortestNumber(r.durUs.mean) + "," +
           shortestNumber(r.durUs.stddev) + "," + std::to_string(r.gpuEvents) + "," + usText(r.gpuEventTime) + "\n";
  return out;
}

}  // namespace

extern const AnalysisKind annotations;
const AnalysisKind annotations{
    .name = "annotations",
    .title = "GPU user annotations: time on the GPU and the kernels inside",
    .tab = "Annotations",
    .help = "per gpu_user_annotation name: instances, GPU time, the kernels inside (HTA's breakdown)",
    .order = 35,
    .scope = AnalysisScope::Window,
    .compute = [](const Trace& trace,
                  const AnalysisRequest& r) { return analysisResult(annotationBreakdown(trace, r.window)); },
    .json = [](const AnalysisResult& v, const Trace&, const AnalysisRequest&,
               const std::string& path) { return annotationsJson(analysisValue<AnnotationBreakdown>(v), path); },
    .csv = [](const AnalysisResult& v, const Trace&,
              const AnalysisRequest&) { return annotationsCsv(analysisValue<AnnotationBreakdown>(v)); },
};

}  // namespace opscope::analyses
