#include "report/export_request.h"

#include "analysis/device_breakdown.h"
#include "analysis/kernel_stats.h"
#include "analysis/op_kernel_mix.h"
#include "analysis/overview.h"
#include "analysis/stream_usage.h"
#include "report/advice_report.h"
#include "report/analysis_report.h"
#include "report/breakdown_report.h"
#include "report/memory_report.h"
#include "report/multi_rank_report.h"

namespace opscope {

bool isPicture(ExportFormat f) { return f == ExportFormat::Pdf || f == ExportFormat::Png || f == ExportFormat::Svg; }

const char* chartName(ChartKind c) {
  switch (c) {
    case ChartKind::Overview:
      return "overview";
    case ChartKind::Breakdown:
      return "breakdown";
    case ChartKind::OpKernels:
      return "op-kernels";
    case ChartKind::KernelStats:
      return "kernel-stats";
    case ChartKind::Overheads:
      return "overheads";
    case ChartKind::Streams:
      return "streams";
    case ChartKind::Ranks:
      return "ranks";
    case ChartKind::Memory:
      return "memory";
    case ChartKind::Advice:
      return "advice";
  }
  return "?";
}

namespace {

bool parseUnsigned(const std::string& text, uint64_t& v) {
  try {
    size_t used = 0;
    v = std::stoull(text, &used);
    return used == text.size() && text.find('-') == std::string::npos;
  } catch (...) {
    return false;
  }
}

bool parseDouble(const std::string& text, double& v) {
  try {
    size_t used = 0;
    v = std::stod(text, &used);
    return used == text.size() && v >= 0;
  } catch (...) {
    return false;
  }
}

}  // namespace

std::optional<ExportRequest> parseExportArgs(const std::vector<std::string>& args, std::string& error, bool& help) {
  ExportRequest r;
  help = false;
  std::string chart, format;
  bool haveFile = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= args.size()) {
        error = a + " needs a value";
        return false;
      }
      out = args[++i];
      return true;
    };
    auto unsignedValue = [&](uint64_t& out) {
      std::string text;
      if (!value(text)) return false;
      if (!parseUnsigned(text, out)) {
        error = a + " expects a non-negative integer, got '" + text + "'";
        return false;
      }
      return true;
    };
    auto doubleValue = [&](double& out) {
      std::string text;
      if (!value(text)) return false;
      if (!parseDouble(text, out)) {
        error = a + " expects a non-negative number, got '" + text + "'";
        return false;
      }
      return true;
    };
    uint64_t u = 0;
    double d = 0;
    if (a == "--chart") {
      if (!value(chart)) return std::nullopt;
    } else if (a == "--format") {
      if (!value(format)) return std::nullopt;
    } else if (a == "-o") {
      if (!value(r.out)) return std::nullopt;
    } else if (a == "--op") {
      if (!value(r.op)) return std::nullopt;
    } else if (a == "--iteration") {
      if (!unsignedValue(u)) return std::nullopt;
      r.iteration = u;
    } else if (a == "--batch-size") {
      if (!unsignedValue(u)) return std::nullopt;
      r.batchSize = u;
    } else if (a == "--top") {
      if (!unsignedValue(r.top)) return std::nullopt;
    } else if (a == "--dpi") {
      if (!unsignedValue(u)) return std::nullopt;
      if (u < 24 || u > 1200) {
        error = "--dpi must be between 24 and 1200";
        return std::nullopt;
      }
      r.dpi = static_cast<int>(u);
    } else if (a == "--size") {
      std::string text;
      if (!value(text)) return std::nullopt;
      const size_t x = text.find('x');
      uint64_t w = 0, h = 0;
      if (x == std::string::npos || !parseUnsigned(text.substr(0, x), w) || !parseUnsigned(text.substr(x + 1), h) ||
          w < 200 || h < 150 || w > 10000 || h > 10000) {
        error = "--size expects WxH between 200x150 and 10000x10000, got '" + text + "'";
        return std::nullopt;
      }
      r.width = static_cast<int>(w);
      r.height = static_cast<int>(h);
    } else if (a == "--cpu-event-overhead-us") {
      if (!doubleValue(d)) return std::nullopt;
      r.cpuEventUs = d;
    } else if (a == "--gpu-event-overhead-us") {
      if (!doubleValue(d)) return std::nullopt;
      r.gpuEventUs = d;
    } else if (a == "--launch-length-us") {
      if (!doubleValue(d)) return std::nullopt;
      r.launchLengthUs = d;
    } else if (a == "--t1-max-gap-us") {
      if (!doubleValue(r.t1MaxGapUs)) return std::nullopt;
    } else if (a == "--by-shape") {
      r.byShape = true;
    } else if (a == "--log") {
      r.logScale = true;
    } else if (a == "--dark") {
      r.dark = true;
    } else if (a == "--timing") {
      r.timing = true;
    } else if (a == "-h" || a == "--help") {
      help = true;
      return std::nullopt;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      error = "unknown option " + a;
      return std::nullopt;
    } else if (!haveFile) {
      r.file = a;
      haveFile = true;
    } else {
      error = "more than one FILE given (" + a + ")";
      return std::nullopt;
    }
  }
  const std::pair<const char*, ChartKind> charts[] = {
      {"overview", ChartKind::Overview},    {"breakdown", ChartKind::Breakdown},
      {"op-kernels", ChartKind::OpKernels}, {"kernel-stats", ChartKind::KernelStats},
      {"overheads", ChartKind::Overheads},  {"streams", ChartKind::Streams},
      {"ranks", ChartKind::Ranks},          {"memory", ChartKind::Memory},
      {"advice", ChartKind::Advice}};
  bool found = false;
  for (const auto& [name, kind] : charts)
    if (chart == name) {
      r.chart = kind;
      found = true;
    }
  if (!found) {
    error =
        "--chart must be one of breakdown, op-kernels, kernel-stats, overheads, streams, overview, ranks, memory, "
        "advice (got '" +
        chart + "')";
    return std::nullopt;
  }
  const std::pair<const char*, ExportFormat> formats[] = {{"json", ExportFormat::Json},
                                                          {"csv", ExportFormat::Csv},
                                                          {"pdf", ExportFormat::Pdf},
                                                          {"png", ExportFormat::Png},
                                                          {"svg", ExportFormat::Svg}};
  found = false;
  for (const auto& [name, kind] : formats)
    if (format == name) {
      r.format = kind;
      found = true;
    }
  if (!found) {
    error = "--format must be one of pdf, png, svg, csv, json (got '" + format + "')";
    return std::nullopt;
  }
  if (!haveFile || r.out.empty()) {
    error = "needs FILE and -o OUT (- for standard output)";
    return std::nullopt;
  }
  if (isPicture(r.format) && r.out == "-") {
    error = "pictures need a file name for -o, not -";
    return std::nullopt;
  }
  if (r.byShape && r.op.empty()) {
    error = "--by-shape needs --op NAME";
    return std::nullopt;
  }
  if (!r.op.empty() && r.chart != ChartKind::OpKernels) {
    error = "--op goes with --chart op-kernels";
    return std::nullopt;
  }
  return r;
}

bool exportWindow(const Trace& trace, const ExportRequest& request, std::optional<TimeWindow>& window,
                  std::string& error) {
  window.reset();
  if (!request.iteration) return true;
  window = iterationWindow(trace.iterations, *request.iteration, 1);
  if (!window) {
    error = "no iteration " + std::to_string(*request.iteration) + " (the trace has " +
            std::to_string(trace.iterations.size()) + ")";
    return false;
  }
  return true;
}

OverheadOptions exportOverheadOptions(const Trace& trace, const ExportRequest& request,
                                      std::optional<TimeWindow> window, ProfilerCostEstimate& estimate) {
  estimate = estimateProfilerCosts(trace, window);
  OverheadOptions o;
  o.window = window;
  o.t1MaxGapUs = request.t1MaxGapUs;
  o.costs = estimate.costs;
  if (request.cpuEventUs) {
    o.costs.cpuEvent = *request.cpuEventUs;
    estimate.cpuEventMethod = "given";
  }
  if (request.gpuEventUs) {
    o.costs.gpuEvent = *request.gpuEventUs;
    estimate.gpuEventMethod = "given";
  }
  if (request.launchLengthUs) {
    o.costs.launchLength = *request.launchLengthUs;
    estimate.launchLengthMethod = "given";
  }
  return o;
}

std::string exportDataText(const Trace& trace, const ExportRequest& request, const KernelClassifier& classifier) {
  std::optional<TimeWindow> window;
  std::string error;
  exportWindow(trace, request, window, error);
  const bool json = request.format == ExportFormat::Json;
  const std::string& path = request.file;
  switch (request.chart) {
    case ChartKind::Overview: {
      OverviewOptions options;
      options.window = window;
      options.batchSize = request.batchSize;
      options.classifier = &classifier;
      const Overview o = computeOverview(trace, options);
      return json ? overviewJson(o, trace, path) : overviewCsv(o);
    }
    case ChartKind::Breakdown: {
      const DeviceBreakdown b = deviceBreakdown(trace, window);
      return json ? deviceBreakdownJson(b, trace, path) : deviceBreakdownCsv(b, trace);
    }
    case ChartKind::OpKernels: {
      if (!request.op.empty()) {
        const OpKernelTable t = opKernelTable(trace, classifier, request.op, request.byShape, window);
        return json ? opKernelTableJson(t, trace, request.op, path) : opKernelTableCsv(t, trace);
      }
      const OpKernelMixes m = opKernelMixes(trace, classifier, window, request.top ? request.top : 8);
      return json ? opKernelMixJson(m, trace, path) : opKernelMixCsv(m, trace);
    }
    case ChartKind::KernelStats: {
      const KernelStats k = kernelStatistics(trace, classifier, window);
      return json ? kernelStatsJson(k, trace, path, request.top) : kernelStatsCsv(k, trace, request.top);
    }
    case ChartKind::Overheads: {
      ProfilerCostEstimate estimate;
      const Overheads o = computeOverheads(trace, exportOverheadOptions(trace, request, window, estimate));
      return json ? overheadsJson(o, &estimate) : overheadsCsv(o);
    }
    case ChartKind::Streams: {
      const StreamUsageReport s = streamUsage(trace, classifier, window);
      return json ? streamUsageJson(s, trace, path) : streamUsageCsv(s);
    }
    case ChartKind::Ranks: {
      const RankTable t = rankTable(trace);
      return json ? rankTableJson(t, path) : rankTableCsv(t);
    }
    case ChartKind::Memory: {
      const MemoryTimeline m = memoryTimeline(trace);
      return json ? memoryJson(m, trace, path) : memoryCsv(m, trace);
    }
    case ChartKind::Advice: {
      const std::vector<Advice> a = advise(trace);
      return json ? adviceJson(a, trace, path) : adviceCsv(a);
    }
  }
  return {};
}

}  // namespace opscope
