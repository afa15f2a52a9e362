// Kernel launches: each launched GPU event as a point of its CPU call's duration (x)
// against its GPU duration (y), log-log, with the line where they are equal (below it the
// GPU ran shorter than the launch took) and HTA's outlier classes in colour; under it the
// kernels with the most launch delay.
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "analysis/launch_stats.h"
#include "charts/chart_kinds.h"
#include "charts/chart_parts.h"

namespace opscope::ui {

namespace {

using namespace parts;

constexpr size_t kMaxPoints = 50'000;  // a point per launch; a longer trace is sampled evenly
constexpr size_t kBars = 10;

void plotLaunches(QCustomPlot* plot, const LaunchStatsReport& r, const ChartTheme& theme, const QString& title) {
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  if (r.pairs.empty()) {
    emptyNote(addRect(plot, 1, 0, theme), QStringLiteral("no GPU event linked to its launch call in this range"),
              theme);
    setMinimumChartHeight(plot, 200);
    plot->replot();
    return;
  }
  addTitle(plot, 1,
           QStringLiteral("%L1 launches · call median %2 · launch delay median %3, p90 %4 · %L5 GPU events shorter "
                          "than their call · %L6 calls over %7 · %L8 delays over %9")
               .arg(r.pairs.size())
               .arg(durationText(r.cpuUs.median * 1000))
               .arg(durationText(r.delayUs.median * 1000))
               .arg(durationText(r.delayUs.p90 * 1000))
               .arg(r.shortGpu)
               .arg(r.runtimeOutliers)
               .arg(durationText(static_cast<double>(r.options.runtimeCutoff)))
               .arg(r.delayOutliers)
               .arg(durationText(static_cast<double>(r.options.delayCutoff))),
           theme, 8);
  // The legend in a row of its own over the scatter: inside it, at any corner, it sat on
  // points (top left: long kernels launched quickly, the common case).
  QCPLegend* legend = themedLegend(theme);
  legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  legend->setWrap(4);
  plot->plotLayout()->addElement(2, 0, legend);
  legend->setLayer(QStringLiteral("legend"));
  QCPAxisRect* rect = addRect(plot, 3, 0, theme);
  QCPAxis* x = rect->axis(QCPAxis::atBottom);
  QCPAxis* y = rect->axis(QCPAxis::atLeft);
  for (QCPAxis* axis : {x, y}) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    axis->setNumberFormat(QStringLiteral("gb"));
  }
  x->setLabel(QStringLiteral("CPU launch call (µs)"));
  y->setLabel(QStringLiteral("GPU duration (µs)"));
  const QString names[] = {QStringLiteral("normal"), QStringLiteral("GPU shorter than its call"),
                           QStringLiteral("call over the cutoff"), QStringLiteral("delay over the cutoff")};
  QCPGraph* graphs[4];
  for (int c = 0; c < 4; ++c) {
    graphs[c] = new QCPGraph(x, y);
    graphs[c]->setName(names[c]);
    graphs[c]->setLineStyle(QCPGraph::lsNone);
    QColor fill = paletteColor(c);
    fill.setAlpha(110);
    graphs[c]->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, paletteColor(c), fill, c ? 5 : 3));
  }
  const size_t step = std::max<size_t>(1, r.pairs.size() / kMaxPoints);
  double lo = 1e9, hi = 1e-3;
  for (size_t i = 0; i < r.pairs.size(); i += step) {
    const LaunchPair& p = r.pairs[i];
    const double cx = std::max(1e-3, static_cast<double>(p.cpu) / 1000);
    const double gy = std::max(1e-3, static_cast<double>(p.gpuDur) / 1000);
    const int c = p.delayOutlier ? 3 : p.runtimeOutlier ? 2 : p.shortGpu ? 1 : 0;
    graphs[c]->addData(cx, gy);
    lo = std::min({lo, cx, gy});
    hi = std::max({hi, cx, gy});
  }
  for (QCPGraph* g : graphs)
    if (g->dataCount() > 0) legend->addItem(new QCPPlottableLegendItem(legend, g));
  lo = std::max(1e-3, lo / 1.5);
  hi *= 1.5;
  auto* diagonal = new QCPGraph(x, y);
  diagonal->setPen(QPen(theme.text(), 1, Qt::DashLine));
  diagonal->setData({lo, hi}, {lo, hi});
  diagonal->removeFromLegend();
  x->setRange(lo, hi);
  y->setRange(lo, hi);

  QCPAxisRect* bars = addRect(plot, 4, 0, theme);
  QStringList labels, texts, tips;
  std::vector<double> values;
  std::vector<QColor> colors;
  for (size_t i = 0; i < r.byName.size() && i < kBars; ++i) {
    const LaunchNameStats& n = r.byName[i];
    const double meanUs = static_cast<double>(n.delayTotal) / 1000 / static_cast<double>(n.count);
    // Copies keep their full names ("Memcpy HtoD (Pinned -> Device)" and "(Pageable ->
    // Device)" would both shorten to "Memcpy HtoD").
    labels << (n.name.size() <= 40 ? QString::fromStdString(n.name) : shortKernelName(n.name));
    values.push_back(static_cast<double>(n.delayTotal) / 1e6);
    colors.push_back(paletteColor(0));
    texts << QStringLiteral("%L1 × mean %2").arg(n.count).arg(durationText(meanUs * 1000));
    tips << QStringLiteral("%1\n%L2 launches; delay mean %3, max %4; call mean %5, GPU mean %6")
                .arg(QString::fromStdString(n.name))
                .arg(n.count)
                .arg(durationText(meanUs * 1000))
                .arg(durationText(static_cast<double>(n.delayMax)))
                .arg(durationText(static_cast<double>(n.cpuTotal) / static_cast<double>(n.count)))
                .arg(durationText(static_cast<double>(n.gpuTotal) / static_cast<double>(n.count)));
  }
  horizontalBars(bars, labels, values, colors, texts, tips,
                 QStringLiteral("total launch delay (ms: call start to GPU start)"), theme);
  plot->plotLayout()->setRowStretchFactors({0.01, 0.01, 0.01, 1.0, 0.7});
  setMinimumChartHeight(plot, 80 + 30 + 260 + barsHeight(static_cast<int>(std::min(r.byName.size(), kBars))));
  plot->replot();
}

}  // namespace

namespace charts {

extern const ChartDrawing launch_stats;
const ChartDrawing launch_stats{"launch-stats", [](QCustomPlot* plot, const AnalysisResult& r, const Trace&,
                                                   const ChartTheme& theme, const QString& title, const ChartOptions&) {
                                  plotLaunches(plot, analysisValue<LaunchStatsReport>(r), theme, title);
                                }};

}  // namespace charts
}  // namespace opscope::ui
