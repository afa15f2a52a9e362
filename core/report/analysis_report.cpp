#include "report/analysis_report.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "report/report_numbers.h"
#include "report/summary_report.h"
#include "text/json_text.h"

namespace opscope {

namespace {

const char* kindName(SliceKind k) {
  return k == SliceKind::Memcpy ? "memcpy" : k == SliceKind::Memset ? "memset" : "kernel";
}

}  // namespace

std::string csvField(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string overviewJson(const Overview& o, const Trace& trace, const std::string& path) {
  nlohmann::ordered_json j;
  j["file"] = path;
  j["start_us"] = nsToUs(o.start - trace.minTs);
  j["end_us"] = nsToUs(o.end - trace.minTs);
  j["wall_us"] = nsToUs(o.wall);
  j["host_runtime_us"] = nsToUs(o.hostRuntime);
  j["data_loading_us"] = nsToUs(o.dataLoading);
  j["gpu_active_us"] = nsToUs(o.gpuActive);
  j["gpu_idle_us"] = nsToUs(o.gpuIdle);
  j["gpu_utilisation"] = o.gpuUtilisation;  // over active_us: see docs/analyses.md
  j["active_start_us"] = nsToUs(o.activeStart - trace.minTs);
  j["active_end_us"] = nsToUs(o.activeEnd - trace.minTs);
  j["active_us"] = nsToUs(o.activeSpan());
  j["gpu_utilisation_envelope"] = o.gpuUtilisationEnvelope;  // over wall_us, the profiler's envelope included
  j["gpu_span_us"] = nsToUs(o.gpuSpan());
  j["gpu_utilisation_gpu_span"] = o.gpuUtilisationGpuSpan;  // over gpu_span_us (HTA's temporal breakdown)
  j["has_device"] = o.hasDevice;  // false: a CPU-only job; the gpu_* figures are not measurements
  // What the gpu_* keys measure: "GPU", "MTIA", ...; null without a device.
  j["device_kind"] = o.hasDevice ? nlohmann::ordered_json(o.deviceKind) : nlohmann::ordered_json(nullptr);
  j["iterations"] = o.iterations;
  j["samples_per_second"] = o.samplesPerSecond ? nlohmann::ordered_json(*o.samplesPerSecond) : nlohmann::ordered_json();
  j["counts"] = {
      {"ops", o.ops}, {"launches", o.launches}, {"kernels", o.kernels}, {"memcpys", o.memcpys}, {"memsets", o.memsets}};
  auto streams = nlohmann::ordered_json::array();
  for (const StreamActivity& s : o.streams)
    streams.push_back(
        {{"stream", s.label}, {"events", s.events}, {"busy_us", nsToUs(s.busy)}, {"utilisation", s.utilisation}});
  j["streams"] = streams;
  auto parts = nlohmann::ordered_json::array();
  for (size_t p = 0; p < o.breakdown.size(); ++p)
    parts.push_back({{"part", stepPartName(static_cast<StepPart>(p))},
                     {"us", nsToUs(o.breakdown[p])},
                     {"share", o.wall ? static_cast<double>(o.breakdown[p]) / static_cast<double>(o.wall) : 0.0}});
  j["breakdown"] = parts;
  return jsonText(j, 2) + "\n";
}

std::string overviewCsv(const Overview& o) {
  std::string out = "metric,value\n";
  auto row = [&](std::string_view k, const std::string& v) { out += csvField(k) + "," + v + "\n"; };
  row("wall_us", usText(o.wall));
  row("host_runtime_us", usText(o.hostRuntime));
  row("data_loading_us", usText(o.dataLoading));
  row("gpu_active_us", usText(o.gpuActive));
  row("gpu_idle_us", usText(o.gpuIdle));
  row("gpu_utilisation", shortestNumber(o.gpuUtilisation));
  row("active_us", usText(o.activeSpan()));
  row("gpu_utilisation_envelope", shortestNumber(o.gpuUtilisationEnvelope));
  row("gpu_span_us", usText(o.gpuSpan()));
  row("gpu_utilisation_gpu_span", shortestNumber(o.gpuUtilisationGpuSpan));
  row("iterations", std::to_string(o.iterations));
  row("samples_per_second", o.samplesPerSecond ? shortestNumber(*o.samplesPerSecond) : "");
  row("ops", std::to_string(o.ops));
  row("launches", std::to_string(o.launches));
  row("kernels", std::to_string(o.kernels));
  row("memcpys", std::to_string(o.memcpys));
  row("memsets", std::to_string(o.memsets));
  for (size_t p = 0; p < o.breakdown.size(); ++p) {
    std::string key = std::string("breakdown.") + stepPartName(static_cast<StepPart>(p)) + "_us";
    std::replace(key.begin(), key.end(), ' ', '_');
    row(key, usText(o.breakdown[p]));
  }
  for (const StreamActivity& s : o.streams) row("stream." + s.label + ".busy_us", usText(s.busy));
  return out;
}

std::string kernelStatsJson(const KernelStats& k, const Trace& trace, const std::string& path, size_t limit) {
  nlohmann::ordered_json j;
  j["file"] = path;
  j["gpu_events"] = k.gpuEvents;
  j["gpu_total_us"] = nsToUs(k.gpuTotal);
  auto kernels = nlohmann::ordered_json::array();
  for (size_t i = 0; i < k.kernels.size() && (limit == 0 || i < limit); ++i) {
    const KernelStat& s = k.kernels[i];
    kernels.push_back({{"name", std::string(trace.str(s.name))},
                       {"kind", kindName(s.kind)},
                       {"class", s.cls >= 0 ? k.classes[static_cast<size_t>(s.cls)] : "other"},
                       {"count", s.count},
                       {"total_us", nsToUs(s.total)},
                       {"mean_us", s.mean / 1000.0},
                       {"min_us", nsToUs(s.min)},
                       {"max_us", nsToUs(s.max)},
                       {"std_us", s.stddev / 1000.0},
                       {"share", s.share}});
  }
  j["kernels"] = kernels;
  j["std_kind"] = "population";  // std_us divides by n (HTA's kernel statistics: by n - 1)
  auto classes = nlohmann::ordered_json::array();
  for (const ClassTotal& c : k.classTotals)
    classes.push_back({{"class", c.name}, {"count", c.count}, {"total_us", nsToUs(c.total)}, {"share", c.share}});
  j["classes"] = classes;
  return jsonText(j, 2) + "\n";
}

std::string kernelStatsCsv(const KernelStats& k, const Trace& trace, size_t limit) {
  std::string out = "name,kind,class,count,total_us,mean_us,min_us,max_us,std_us,share\n";
  for (size_t i = 0; i < k.kernels.size() && (limit == 0 || i < limit); ++i) {
    const KernelStat& s = k.kernels[i];
    out += csvField(trace.str(s.name)) + "," + kindName(s.kind) + "," +
           csvField(s.cls >= 0 ? k.classes[static_cast<size_t>(s.cls)] : "other") + "," + std::to_string(s.count) +
           "," + usText(s.total) + "," + shortestNumber(s.mean / 1000.0) + "," + usText(s.min) + "," + usText(s.max) +
           "," + shortestNumber(s.stddev / 1000.0) + "," + shortestNumber(s.share) + "\n";
  }
  return out;
}

}  // namespace opscope
