// Kernel statistics: the kernels with the most time as bars, the classes' shares.
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/kernel_stats.h"
#include "charts/analysis_charts.h"
#include "charts/chart_kinds.h"
#include "charts/chart_parts.h"
#include "timeline/names.h"

namespace opscope::ui {

using namespace parts;

void plotKernelStats(QCustomPlot* plot, const KernelStats& k, const Trace& trace, const ChartTheme& theme,
                     const QString& title, int topN) {
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  auto fill = [&](QCPAxisRect* rect, bool byMean) {
    std::vector<const KernelStat*> rows;
    for (const KernelStat& s : k.kernels) rows.push_back(&s);
    if (byMean)
      std::stable_sort(rows.begin(), rows.end(),
                       [](const KernelStat* a, const KernelStat* b) { return a->mean > b->mean; });
    if (rows.size() > static_cast<size_t>(topN)) rows.resize(static_cast<size_t>(topN));
    QStringList labels, texts, tips;
    std::vector<double> values;
    std::vector<QColor> colors;
    std::vector<std::string> fullNames;
    for (const KernelStat* s : rows) fullNames.emplace_back(trace.str(s->name));
    const QStringList shownNames = distinctDisplayNames(fullNames, kKernelLabelChars);
    for (size_t r = 0; r < rows.size(); ++r) {
      const KernelStat* s = rows[r];
      const QString name = QString::fromStdString(std::string(trace.str(s->name)));
      const QString cls =
          s->cls >= 0 ? QString::fromStdString(k.classes[static_cast<size_t>(s->cls)]) : QStringLiteral("other");
      labels << shownNames[static_cast<qsizetype>(r)];
      values.push_back(byMean ? s->mean / 1e3 : ms(s->total));
      colors.push_back(classColor(cls));
      texts << (byMean ? durationText(s->mean) + QStringLiteral(" ± ") + durationText(s->stddev)
                       : durationText(static_cast<double>(s->total)) + " · " + percent(s->share));
      tips << QStringLiteral("%1\nclass %2 · %L3 calls\ntotal %4 (%5) · mean %6 · min %7 · max %8 · std %9")
                  .arg(name, cls)
                  .arg(s->count)
                  .arg(durationText(static_cast<double>(s->total)), percent(s->share), durationText(s->mean),
                       durationText(static_cast<double>(s->min)), durationText(static_cast<double>(s->max)),
                       durationText(s->stddev));
    }
    if (labels.isEmpty()) emptyNote(rect, QStringLiteral("no GPU events"), theme);
    else
      horizontalBars(rect, labels, values, colors, texts, tips,
                     byMean ? QStringLiteral("top %1 by mean duration (µs), colour = kernel class").arg(topN)
                            : QStringLiteral("top %1 by total time (ms), colour = kernel class").arg(topN),
                     theme);
  };
  fill(addRect(plot, 1, 0, theme), false);
  fill(addRect(plot, 2, 0, theme), true);
  setMinimumChartHeight(plot, 30 + 2 * barsHeight(topN));
  plot->replot();
}

namespace charts {

extern const ChartDrawing kernel_stats;
const ChartDrawing kernel_stats{
    "kernel-stats", [](QCustomPlot* plot, const AnalysisResult& r, const Trace& trace, const ChartTheme& theme,
                       const QString& title, const ChartOptions& o) {
      plotKernelStats(plot, analysisValue<KernelStats>(r), trace, theme, title, o.top ? o.top : 12);
    }};

}  // namespace charts
}  // namespace opscope::ui
