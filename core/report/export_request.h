#pragma once
// `opscope export` arguments, parsed once for both halves of the command: the data
// formats (JSON, CSV) are written by the headless binary, the pictures (PDF, PNG, SVG)
// by the GUI module on Qt's offscreen platform, from the same request.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/kernel_classes.h"
#include "analysis/overheads.h"
#include "model/trace.h"

namespace opscope {

enum class ChartKind { Overview, Breakdown, OpKernels, KernelStats, Overheads, Streams, Ranks, Memory, Advice };
enum class ExportFormat { Json, Csv, Pdf, Png, Svg };

struct ExportRequest {
  ChartKind chart = ChartKind::Overview;
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
const char* chartName(ChartKind c);

// On failure nullopt and one line for the user; help set for -h/--help.
std::optional<ExportRequest> parseExportArgs(const std::vector<std::string>& args, std::string& error, bool& help);

// The window of the request's iteration (nullopt for the whole trace); error when the
// trace has no such iteration.
bool exportWindow(const Trace& trace, const ExportRequest& request, std::optional<TimeWindow>& window,
                  std::string& error);

// Overhead options of a request: costs given on the command line, the rest estimated.
OverheadOptions exportOverheadOptions(const Trace& trace, const ExportRequest& request,
                                      std::optional<TimeWindow> window, ProfilerCostEstimate& estimate);

// The JSON or CSV text of the chart's data.
std::string exportDataText(const Trace& trace, const ExportRequest& request, const KernelClassifier& classifier);

}  // namespace opscope
