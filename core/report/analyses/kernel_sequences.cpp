// Frequent kernel sequences (analysis/kernel_sequences.h): repeated (op, kernel
// sequence) groups by the GPU time they take; --op PATTERN examines the ops whose names
// contain it (HTA's operator_name), else the top-level ops.
//
// JSON contract (names fixed; add, never rename): {"file", "op_pattern", "min_length",
// "ops_examined", "sequences": [{"op", "kernels": [...], "length", "count", "gpu_us",
// "gpu_us_mean", "cpu_us", "kernel_us_mean"}]}, sequences by gpu_us.
#include <nlohmann/json.hpp>

#include "analysis/kernel_sequences.h"
#include "report/analysis_catalog.h"
#include "report/analysis_report.h"
#include "report/report_numbers.h"
#include "text/json_text.h"

namespace opscope::analyses {

namespace {

constexpr size_t kDefaultTop = 25;

double us(TimeNs ns) { return static_cast<double>(ns) / 1000.0; }

KernelSequenceOptions optionsOf(const AnalysisRequest& r) {
  KernelSequenceOptions o;
  o.opPattern = r.op;
  return o;
}

std::string sequencesJson(const KernelSequences& k, const AnalysisRequest& req, const std::string& path) {
  nlohmann::ordered_json j;
  j["file"] = path;
  j["op_pattern"] =
      k.options.opPattern.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(k.options.opPattern);
  j["min_length"] = k.options.minLength;
  j["ops_examined"] = k.opsExamined;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  const size_t top = req.top ? req.top : kDefaultTop;
  for (size_t i = 0; i < k.sequences.size() && i < top; ++i) {
    const KernelSequence& q = k.sequences[i];
    const double n = static_cast<double>(q.count);
    rows.push_back({{"op", q.op},
                    {"kernels", q.kernels},
                    {"length", q.kernels.size()},
                    {"count", q.count},
                    {"gpu_us", us(q.gpuTime)},
                    {"gpu_us_mean", us(q.gpuTime) / n},
                    {"cpu_us", us(q.cpuTime)},
                    {"kernel_us_mean", us(q.gpuTime) / n / static_cast<double>(q.kernels.size())}});
  }
  j["sequences"] = std::move(rows);
  return jsonText(j, 2) + "\n";
}

// One row per sequence; the kernels joined with " -> ".
std::string sequencesCsv(const KernelSequences& k) {
  std::string out = "op,length,count,gpu_us,cpu_us,kernels\n";
  for (const KernelSequence& q : k.sequences) {
    std::string names;
    for (const std::string& n : q.kernels) names += (names.empty() ? "" : " -> ") + n;
    out += csvField(q.op) + "," + std::to_string(q.kernels.size()) + "," + std::to_string(q.count) + "," +
           usText(q.gpuTime) + "," + usText(q.cpuTime) + "," + csvField(names) + "\n";
  }
  return out;
}

}  // namespace

extern const AnalysisKind kernel_sequences;
const AnalysisKind kernel_sequences{
    .name = "kernel-sequences",
    .title = "Repeated kernel sequences: fusion candidates",
    .tab = "Sequences",
    .help = "repeated (op, kernel sequence) groups by GPU time; --op PATTERN as HTA's operator_name",
    .order = 42,
    .scope = AnalysisScope::Window,
    .compute = [](const Trace& trace,
                  const AnalysisRequest& r) { return analysisResult(kernelSequences(trace, r.window, optionsOf(r))); },
    .json = [](const AnalysisResult& v, const Trace&, const AnalysisRequest& req,
               const std::string& path) { return sequencesJson(analysisValue<KernelSequences>(v), req, path); },
    .csv = [](const AnalysisResult& v, const Trace&,
              const AnalysisRequest&) { return sequencesCsv(analysisValue<KernelSequences>(v)); },
};

}  // namespace opscope::analyses
