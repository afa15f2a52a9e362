#pragma once
// `opscope export` arguments, parsed once for both halves of the command: the data
// formats (JSON, CSV) are written by the headless binary, the pictures (PDF, PNG, SVG)
// by the GUI module on Qt's offscreen platform, from the same request.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/kernel_classes.h"
#include "model/trace.h"
#include "report/analysis_catalog.h"

namespace opscope {

enum class ExportFormat { Json, Csv, Pdf, Png, Svg };

struct ExportRequest {
  const AnalysisKind* chart = nullptr;  // from the catalog (--chart NAME)
  ExportFormat format = ExportFormat::Json;
  std::string file, out;
  std::optional<uint64_t> iteration;  // 0-based ProfilerStep
  std::optional<uint64_t> batchSize;
  uint64_t top = 0;      // rows / bars; 0: the chart's default
  std::string op;        // op-kernels: one op's kernel table instead of the mixes
  bool byShape = false;  // with op: group its calls by Input Dims
  std::optional<double> cpuEventUs, gpuEventUs, launchLengthUs;  // default: estimated
  double t1MaxGapUs = 200;
  bool logScale = false;           // histogram counts on a log axis
  int width = 1200, height = 800;  // pictures, in logical pixels
  int dpi = 96;                    // PNG: device pixels per inch (96 = 1:1)
  bool dark = false;
  bool timing = false;  // data exports: load and analysis seconds to stderr
};

bool isPicture(ExportFormat f);

// On failure nullopt and one line for the user; help set for -h/--help.
std::optional<ExportRequest> parseExportArgs(const std::vector<std::string>& args, std::string& error, bool& help);

// The window of the request's iteration (nullopt for the whole trace); error when the
// trace has no such iteration.
bool exportWindow(const Trace& trace, const ExportRequest& request, std::optional<TimeWindow>& window,
                  std::string& error);

// The catalog's request for an export of the trace: its iteration's window (as
// exportWindow, which the caller has checked), scope label, options and classifier.
AnalysisRequest analysisRequestOf(const Trace& trace, const ExportRequest& request, const KernelClassifier& classifier);

// The JSON or CSV text of the chart's data.
std::string exportDataText(const Trace& trace, const ExportRequest& request, const KernelClassifier& classifier);

}  // namespace opscope
