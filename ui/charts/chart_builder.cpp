#include "charts/chart_builder.h"

#include "analysis/device_breakdown.h"
#include "analysis/kernel_stats.h"
#include "analysis/op_kernel_mix.h"
#include "analysis/overview.h"
#include "analysis/stream_usage.h"
#include "charts/analysis_charts.h"

namespace opscope::ui {

QString chartTitle(ChartKind chart, const QString& scopeLabel, const QString& fileName) {
  QString what;
  switch (chart) {
    case ChartKind::Overview:
      what = QStringLiteral("Overview");
      break;
    case ChartKind::Breakdown:
      what = QStringLiteral("Device-time breakdown by op");
      break;
    case ChartKind::OpKernels:
      what = QStringLiteral("Kernel mix of the dominating ops");
      break;
    case ChartKind::KernelStats:
      what = QStringLiteral("Kernel statistics");
      break;
    case ChartKind::Overheads:
      what = QStringLiteral("CPU overheads T1–T5");
      break;
    case ChartKind::Streams:
      what = QStringLiteral("GPU streams: busy, idle, utilisation");
      break;
    case ChartKind::Ranks:
      what = QStringLiteral("Ranks: iteration time, collectives, top kernels");
      break;
    case ChartKind::Memory:
      what = QStringLiteral("Memory: allocated and reserved per device");
      break;
    case ChartKind::Advice:
      what = QStringLiteral("Recommendations: time at stake");
      break;
  }
  return QStringLiteral("%1 · %2 · %3").arg(what, scopeLabel, fileName);
}

void drawChart(QCustomPlot* plot, ChartKind chart, const Trace& trace, const KernelClassifier& classifier,
               const ChartScope& scope, const ChartTheme& theme, const QString& fileName) {
  const QString title = chartTitle(chart, scope.label, fileName);
  switch (chart) {
    case ChartKind::Overview: {
      OverviewOptions o;
      o.window = scope.window;
      o.batchSize = scope.batchSize;
      o.classifier = &classifier;
      plotOverview(plot, computeOverview(trace, o), theme, title);
      break;
    }
    case ChartKind::Breakdown:
      plotBreakdown(plot, deviceBreakdown(trace, scope.window), trace, theme, title, scope.top ? scope.top : 15);
      break;
    case ChartKind::OpKernels:
      plotOpKernelMix(plot,
                      opKernelMixes(trace, classifier, scope.window, scope.top ? static_cast<size_t>(scope.top) : 8, 3),
                      trace, theme, title);
      break;
    case ChartKind::KernelStats:
      plotKernelStats(plot, kernelStatistics(trace, classifier, scope.window), trace, theme, title,
                      scope.top ? scope.top : 12);
      break;
    case ChartKind::Overheads: {
      OverheadOptions o = scope.overheads;
      o.window = scope.window;
      plotOverheads(plot, computeOverheads(trace, o), theme, title, scope.logScale);
      break;
    }
    case ChartKind::Streams:
      plotStreams(plot, streamUsage(trace, classifier, scope.window), theme, title);
      break;
    case ChartKind::Ranks:
      plotRanks(plot, rankTable(trace), theme, title);
      break;
    case ChartKind::Memory:
      plotMemory(plot, memoryTimeline(trace), trace, theme, title);
      break;
    case ChartKind::Advice:
      plotAdvice(plot, advise(trace), theme, title);
      break;
  }
}

}  // namespace opscope::ui
