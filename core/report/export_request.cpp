#include "report/export_request.h"

namespace opscope {

bool isPicture(ExportFormat f) { return f == ExportFormat::Pdf || f == ExportFormat::Png || f == ExportFormat::Svg; }

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
  r.chart = findAnalysis(chart);
  if (!r.chart) {
    error = "--chart must be one of " + analysisNames() + " (got '" + chart + "')";
    return std::nullopt;
  }
  const std::pair<const char*, ExportFormat> formats[] = {{"json", ExportFormat::Json},
                                                          {"csv", ExportFormat::Csv},
                                                          {"pdf", ExportFormat::Pdf},
                                                          {"png", ExportFormat::Png},
                                                          {"svg", ExportFormat::Svg}};
  bool found = false;
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
  if (!r.op.empty() && r.chart->name != "op-kernels" && r.chart->name != "kernel-sequences") {
    error = "--op goes with --chart op-kernels or kernel-sequences";
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

AnalysisRequest analysisRequestOf(const Trace& trace, const ExportRequest& request,
                                  const KernelClassifier& classifier) {
  AnalysisRequest a;
  std::string error;
  exportWindow(trace, request, a.window, error);
  if (request.iteration) a.scopeLabel = "iteration " + std::to_string(*request.iteration);
  a.classifier = &classifier;
  a.batchSize = request.batchSize;
  a.top = request.top;
  a.op = request.op;
  a.byShape = request.byShape;
  a.costs.cpuEventUs = request.cpuEventUs;
  a.costs.gpuEventUs = request.gpuEventUs;
  a.costs.launchLengthUs = request.launchLengthUs;
  a.costs.t1MaxGapUs = request.t1MaxGapUs;
  return a;
}

std::string exportDataText(const Trace& trace, const ExportRequest& request, const KernelClassifier& classifier) {
  const AnalysisRequest a = analysisRequestOf(trace, request, classifier);
  const AnalysisKind& kind = *request.chart;
  const auto result = computeAnalysis(kind, trace, a);
  return request.format == ExportFormat::Json ? kind.json(*result, trace, a, request.file)
                                              : kind.csv(*result, trace, a);
}

}  // namespace opscope
