// The overview chart: the step-time breakdown as one bar and the streams' activity.
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analysis/overview.h"
#include "charts/analysis_charts.h"
#include "charts/chart_kinds.h"
#include "charts/chart_parts.h"
#include "timeline/names.h"

namespace opscope::ui {

using namespace parts;

void plotOverview(QCustomPlot* plot, const Overview& o, const ChartTheme& theme, const QString& title, size_t ranks) {
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  const QString device = o.hasDevice
                             ? QStringLiteral("%1 active %2 (%3 of the active span)")
                                   .arg(QString::fromStdString(o.deviceKind),
                                        durationText(static_cast<double>(o.gpuActive)), percent(o.gpuUtilisation))
                             : QStringLiteral("no device: CPU-only job");
  QString figures =
      QStringLiteral("wall %1 · host runtime %2 · %3 · %4 %5")
          .arg(durationText(static_cast<double>(o.wall)), durationText(static_cast<double>(o.hostRuntime)), device)
          .arg(o.iterations)
          .arg(o.iterations == 1 ? QStringLiteral("iteration") : QStringLiteral("iterations"));
  // A folder of ranks counts every rank's steps (the status bar names one rank's).
  if (ranks > 1) figures += QStringLiteral(" over %L1 ranks").arg(ranks);
  if (o.samplesPerSecond) figures += QStringLiteral(" · %1 samples/s").arg(*o.samplesPerSecond, 0, 'f', 1);
  auto* sub = new QCPTextElement(plot, figures, QFont(QStringLiteral("Sans"), 9));
  sub->setTextColor(theme.text());
  plot->plotLayout()->addElement(1, 0, sub);

  QCPAxisRect* parts = addRect(plot, 2, 0, theme);
  QStringList labels, texts, tips;
  std::vector<double> values;
  std::vector<QColor> colors;
  for (size_t p = 0; p < o.breakdown.size(); ++p) {
    const QString name = QString::fromLatin1(stepPartName(static_cast<StepPart>(p)));
    const double share = o.wall ? static_cast<double>(o.breakdown[p]) / static_cast<double>(o.wall) : 0;
    labels << name;
    values.push_back(ms(o.breakdown[p]));
    colors.push_back(classColor(name));
    texts << durationText(static_cast<double>(o.breakdown[p])) + " · " + percent(share);
    tips << QStringLiteral("%1: %2 of the step (%3)")
                .arg(name, durationText(static_cast<double>(o.breakdown[p])), percent(share));
  }
  horizontalBars(parts, labels, values, colors, texts, tips, QStringLiteral("step time by part, by priority (ms)"),
                 theme);

  QCPAxisRect* streams = addRect(plot, 3, 0, theme);
  labels.clear();
  texts.clear();
  tips.clear();
  values.clear();
  colors.clear();
  for (size_t i = 0; i < o.streams.size() && i < 12; ++i) {
    const StreamActivity& s = o.streams[i];
    labels << QString::fromStdString(s.label);
    values.push_back(100.0 * s.utilisation);
    colors.push_back(paletteColor(static_cast<int>(i)));
    texts << percent(s.utilisation) + " · " + durationText(static_cast<double>(s.busy));
    tips << QStringLiteral("%1: busy %2, %L3 events")
                .arg(QString::fromStdString(s.label), durationText(static_cast<double>(s.busy)))
                .arg(s.events);
  }
  if (labels.isEmpty()) emptyNote(streams, QStringLiteral("no GPU events"), theme);
  else
    horizontalBars(streams, labels, values, colors, texts, tips, QStringLiteral("GPU stream utilisation (%)"), theme);
  plot->plotLayout()->setRowStretchFactors({0.01, 0.01, 1.0, std::max(0.4, 0.08 * static_cast<double>(labels.size()))});
  setMinimumChartHeight(
      plot, 60 + barsHeight(static_cast<int>(o.breakdown.size())) + barsHeight(static_cast<int>(labels.size())));
  plot->replot();
}

namespace charts {

extern const ChartDrawing overview;
const ChartDrawing overview{"overview", [](QCustomPlot* plot, const AnalysisResult& r, const Trace& trace,
                                           const ChartTheme& theme, const QString& title, const ChartOptions&) {
                              std::set<int64_t> ranks;  // a folder session, or one read back from one file
                              for (const Process& p : trace.processes)
                                if (p.rank != kNoId) ranks.insert(p.rank);
                              plotOverview(plot, analysisValue<Overview>(r), theme, title, ranks.size());
                            }};

}  // namespace charts
}  // namespace opscope::ui
