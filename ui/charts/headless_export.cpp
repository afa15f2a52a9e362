#include "charts/headless_export.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QFileInfo>
#include <cstdio>

#include "charts/chart_export.h"
#include "charts/chart_kinds.h"
#include "io/trace_loader.h"
#include "ranks/rank_session.h"
#include "report/export_request.h"

namespace opscope::ui {

int exportChartHeadless(const std::vector<std::string>& args) {
  std::string error;
  bool help = false;
  const auto request = parseExportArgs(args, error, help);
  if (!request || !isPicture(request->format)) {
    std::fprintf(stderr, "opscope export: %s\n", error.empty() ? "not a picture format" : error.c_str());
    return 2;
  }
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  static int argc = 1;
  static char name[] = "opscope";
  static char* argv[] = {name, nullptr};
  QApplication app(argc, argv);

  LoadOptions load;
  if (request->chart && request->chart->readsOpShapes) load.keepWhatOpModelsRead();
  LoadResult r = loadTraceOrSession(request->file == "-" ? "/dev/stdin" : request->file, load);
  if (r.status != LoadStatus::Ok) {
    std::fprintf(stderr, "opscope: %s: %s\n", request->file.c_str(), r.error.c_str());
    return r.status == LoadStatus::IoError ? 3 : r.status == LoadStatus::Cancelled ? 5 : 4;
  }
  std::optional<TimeWindow> window;
  if (!exportWindow(*r.trace, *request, window, error)) {
    std::fprintf(stderr, "opscope: %s: %s\n", request->file.c_str(), error.c_str());
    return 4;
  }
  std::string classesError;
  const KernelClassifier classifier = KernelClassifier::withUserOverrides(classesError);
  if (!classesError.empty())
    std::fprintf(stderr, "opscope: %s (using the built-in kernel classes)\n", classesError.c_str());
  // The analysis as the data export computes it, drawn as the Analysis dock draws it.
  const AnalysisRequest analysis = analysisRequestOf(*r.trace, *request, classifier);
  const auto result = computeAnalysis(*request->chart, *r.trace, analysis);
  QCustomPlot plot;
  plot.resize(request->width, request->height);
  ChartTheme theme;
  theme.dark = request->dark;
  ChartOptions options;
  options.top = static_cast<int>(request->top);
  options.logScale = request->logScale;
  drawAnalysisChart(&plot, *request->chart, *result, *r.trace, theme, QString::fromStdString(analysis.scopeLabel),
                    QFileInfo(QString::fromStdString(request->file)).fileName(), options);
  const PictureFormat format = request->format == ExportFormat::Pdf   ? PictureFormat::Pdf
                               : request->format == ExportFormat::Svg ? PictureFormat::Svg
                                                                      : PictureFormat::Png;
  QString saveError;
  if (!saveChart(&plot, QString::fromStdString(request->out), format, request->width, request->height, request->dpi,
                 &saveError)) {
    std::fprintf(stderr, "opscope: %s\n", saveError.toStdString().c_str());
    return 3;
  }
  return 0;
}

}  // namespace opscope::ui
