// The recommendations as bars of the time at stake.
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/advice.h"
#include "charts/analysis_charts.h"
#include "charts/chart_kinds.h"
#include "charts/chart_parts.h"
#include "timeline/names.h"

namespace opscope::ui {

using namespace parts;

void plotAdvice(QCustomPlot* plot, const std::vector<Advice>& advice, const ChartTheme& theme, const QString& title) {
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  QCPAxisRect* rect = addRect(plot, 1, 0, theme);
  if (advice.empty()) {
    emptyNote(rect, QStringLiteral("nothing stands out: no rule found time at stake"), theme);
    setMinimumChartHeight(plot, 160);
    plot->replot();
    return;
  }
  QStringList labels, texts, tips;
  std::vector<double> values;
  std::vector<QColor> colors;
  for (size_t i = 0; i < advice.size(); ++i) {
    const Advice& a = advice[i];
    labels << QString::fromStdString(a.id).replace(QLatin1Char('_'), QLatin1Char(' '));
    values.push_back(ms(a.atStake));
    colors.push_back(paletteColor(static_cast<int>(i)));
    texts << durationText(static_cast<double>(a.atStake)) + QStringLiteral(" · %1 %").arg(a.sharePct, 0, 'f', 1);
    tips << QString::fromStdString(a.title + "\ntry: " + a.action);
  }
  horizontalBars(rect, labels, values, colors, texts, tips,
                 QStringLiteral("time at stake (ms): at most this much could be gained"), theme);
  setMinimumChartHeight(plot, 60 + barsHeight(static_cast<int>(advice.size())));
  plot->replot();
}

namespace charts {

extern const ChartDrawing advice;
const ChartDrawing advice{"advice", [](QCustomPlot* plot, const AnalysisResult& r, const Trace&,
                                       const ChartTheme& theme, const QString& title, const ChartOptions&) {
                            plotAdvice(plot, analysisValue<std::vector<Advice>>(r), theme, title);
                          }};

}  // namespace charts
}  // namespace opscope::ui
