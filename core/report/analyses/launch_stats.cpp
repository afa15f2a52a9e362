// Kernel launch statistics (analysis/launch_stats.h): per launched GPU event the CPU
// call's duration, the GPU duration and the launch delay; overall, per kernel name, and
// HTA's outlier classes with the worst of each.
//
// JSON contract (names fixed; add, never rename): {"file", "runtime_cutoff_us",
// "launch_delay_cutoff_us", "count", "cpu_us", "gpu_us", "launch_delay_us",
// "launch_delay_after_call_us" (each {"count", "mean", "std", "median", "p90", "min",
// "max"}), "short_gpu", "runtime_outliers", "launch_delay_outliers", "kernels": [{"name",
// "count", "cpu_us_mean", "gpu_us_mean", "launch_delay_us_mean", "launch_delay_us_max",
// "launch_delay_after_call_us_mean", "short_gpu", "runtime_outliers",
// "launch_delay_outliers"}], "outliers": [{"class", "launch", "kernel", "ts_us",
// "cpu_us", "gpu_us", "launch_delay_us", "launch_delay_after_call_us"}]}.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "analysis/launch_stats.h"
#include "report/analysis_catalog.h"
#include "report/analysis_report.h"
#include "report/report_numbers.h"
#include "text/json_text.h"

namespace opscope::analyses {

namespace {

constexpr size_t kDefaultKernels = 50;
constexpr size_t kWorstPerClass = 20;

double us(TimeNs ns) { return static_cast<double>(ns) / 1000.0; }

nlohmann::ordered_json statsJson(const SampleStats& s) {
  return {{"count", s.count}, {"mean", s.mean}, {"std", s.stddev}, {"median", s.median},
          {"p90", s.p90},     {"min", s.min},   {"max", s.max}};
}

double mean(TimeNs total, uint64_t n) { return n ? us(total) / static_cast<double>(n) : 0; }

// The worst pairs of one class: longest call, shortest GPU event against its call, or
// longest delay after the call.
std::vector<const LaunchPair*> worst(const LaunchStatsReport& r, const char* cls) {
  std::vector<const LaunchPair*> out;
  const std::string_view c = cls;
  for (const LaunchPair& p : r.pairs)
    if ((c == "runtime" && p.runtimeOutlier) || (c == "short_gpu" && p.shortGpu) ||
        (c == "launch_delay" && p.delayOutlier))
      out.push_back(&p);
  auto key = [&](const LaunchPair* p) {
    return c == "runtime" ? p->cpu : c == "short_gpu" ? p->cpu - p->gpuDur : p->delayAfterCall;
  };
  std::stable_sort(out.begin(), out.end(), [&](const LaunchPair* a, const LaunchPair* b) { return key(a) > key(b); });
  if (out.size() > kWorstPerClass) out.resize(kWorstPerClass);
  return out;
}

std::string launchJson(const LaunchStatsReport& r, const Trace& trace, const AnalysisRequest& req,
                       const std::string& path) {
  nlohmann::ordered_json j;
  j["file"] = path;
  j["runtime_cutoff_us"] = us(r.options.runtimeCutoff);
  j["launch_delay_cutoff_us"] = us(r.options.delayCutoff);
  j["count"] = r.pairs.size();
  j["cpu_us"] = statsJson(r.cpuUs);
  j["gpu_us"] = statsJson(r.gpuUs);
  j["launch_delay_us"] = statsJson(r.delayUs);
  j["launch_delay_after_call_us"] = statsJson(r.delayAfterCallUs);
  j["short_gpu"] = r.shortGpu;
  j["runtime_outliers"] = r.runtimeOutliers;
  j["launch_delay_outliers"] = r.delayOutliers;
  nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
  const size_t top = req.top ? req.top : kDefaultKernels;
  for (size_t i = 0; i < r.byName.size() && i < top; ++i) {
    const LaunchNameStats& n = r.byName[i];
    kernels.push_back({{"name", n.name},
                       {"count", n.count},
                       {"cpu_us_mean", mean(n.cpuTotal, n.count)},
                       {"gpu_us_mean", mean(n.gpuTotal, n.count)},
                       {"launch_delay_us_mean", mean(n.delayTotal, n.count)},
                       {"launch_delay_us_max", us(n.delayMax)},
                       {"launch_delay_after_call_us_mean", mean(n.delayAfterCallTotal, n.count)},
                       {"short_gpu", n.shortGpu},
                       {"runtime_outliers", n.runtimeOutliers},
                       {"launch_delay_outliers", n.delayOutliers}});
  }
  j["kernels"] = std::move(kernels);
  nlohmann::ordered_json outliers = nlohmann::ordered_json::array();
  for (const char* cls : {"runtime", "short_gpu", "launch_delay"})
    for (const LaunchPair* p : worst(r, cls))
      outliers.push_back({{"class", cls},
                          {"launch", trace.name(p->launch)},
                          {"kernel", trace.name(p->gpu)},
                          {"ts_us", us(trace.start(p->launch) - trace.minTs)},
                          {"cpu_us", us(p->cpu)},
                          {"gpu_us", us(p->gpuDur)},
                          {"launch_delay_us", us(p->delay)},
                          {"launch_delay_after_call_us", us(p->delayAfterCall)}});
  j["outliers"] = std::move(outliers);
  return jsonText(j, 2) + "\n";
}

// One row per kernel name (every name, by total delay).
std::string launchCsv(const LaunchStatsReport& r) {
  std::string out =
      "name,count,cpu_us_mean,gpu_us_mean,launch_delay_us_mean,launch_delay_us_max,launch_delay_after_call_us_mean,"
      "short_gpu,runtime_outliers,launch_delay_outliers\n";
  for (const LaunchNameStats& n : r.byName)
    out += csvField(n.name) + "," + std::to_string(n.count) + "," + shortestNumber(mean(n.cpuTotal, n.count)) + "," +
           shortestNumber(mean(n.gpuTotal, n.count)) + "," + shortestNumber(mean(n.delayTotal, n.count)) + "," +
           usText(n.delayMax) + "," + shortestNumber(mean(n.delayAfterCallTotal, n.count)) + "," +
           std::to_string(n.shortGpu) + "," + std::to_string(n.runtimeOutliers) + "," +
           std::to_string(n.delayOutliers) + "\n";
  return out;
}

}  // namespace

extern const AnalysisKind launch_stats;
const AnalysisKind launch_stats{
    .name = "launch-stats",
    .title = "Kernel launches: CPU call, GPU time and launch delay",
    .tab = "Launches",
    .help = "per launch the CPU call, GPU duration and launch delay; by kernel, with HTA's outliers",
    .order = 45,
    .scope = AnalysisScope::Window,
    .compute = [](const Trace& trace,
                  const AnalysisRequest& r) { return analysisResult(launchStats(trace, r.window)); },
    .json = [](const AnalysisResult& v, const Trace& trace, const AnalysisRequest& req,
               const std::string& path) { return launchJson(analysisValue<LaunchStatsReport>(v), trace, req, path); },
    .csv = [](const AnalysisResult& v, const Trace&,
              const AnalysisRequest&) { return launchCsv(analysisValue<LaunchStatsReport>(v)); },
};

}  // namespace opscope::analyses
