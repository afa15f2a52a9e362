// T1-T5 histograms of the CPU-side overheads.
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/overheads.h"
#include "analysis/sample_stats.h"
#include "charts/analysis_charts.h"
#include "charts/chart_kinds.h"
#include "charts/chart_parts.h"
#include "timeline/names.h"

namespace opscope::ui {

using namespace parts;

void plotOverheads(QCustomPlot* plot, const Overheads& o, const ChartTheme& theme, const QString& title, bool logScale,
                   const QString& opName) {
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  auto* grid = new QCPLayoutGrid;
  plot->plotLayout()->addElement(2, 0, grid);
  std::vector<double> t2, t3, t4, t5;
  for (const OpOverheads& op : o.ops) {
    if (!opName.isEmpty() && QString::fromStdString(op.name) != opName) continue;
    t2.insert(t2.end(), op.t2.begin(), op.t2.end());
    t3.insert(t3.end(), op.t3.begin(), op.t3.end());
    t5.insert(t5.end(), op.t5.begin(), op.t5.end());
  }
  for (const LaunchOverheads& l : o.t4) t4.insert(t4.end(), l.t4.begin(), l.t4.end());
  const QString scope = opName.isEmpty() ? QStringLiteral("all ops") : opName;
  const struct {
    QString name;
    const std::vector<double>* v;
  } types[] = {{QStringLiteral("T1 · between ops"), &o.t1},
               {QStringLiteral("T2 · op start → first launch (%1)").arg(scope), &t2},
               {QStringLiteral("T3 · last launch → op end (%1)").arg(scope), &t3},
               {QStringLiteral("T4 · launch calls"), &t4},
               {QStringLiteral("T5 · between launches (%1)").arg(scope), &t5}};
  int index = 0;
  for (const auto& type : types) {
    auto* rect = new QCPAxisRect(plot);
    grid->addElement(index / 3, index % 3, rect);
    styleAxisRect(rect, theme);
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    x->setLabel(elideMiddle(type.name, 46) + QStringLiteral(" (µs)"));
    y->setLabel(QStringLiteral("count"));
    x->setTickLabelFont(QFont(QStringLiteral("Sans"), 8));
    y->setTickLabelFont(QFont(QStringLiteral("Sans"), 8));
    const SampleStats s = describe(*type.v);
    if (s.count == 0) {
      emptyNote(rect, QStringLiteral("no samples"), theme);
      ++index;
      continue;
    }
    // 30 bins over [min, p99]: a few huge gaps must not squash the rest into one bin;
    // larger values go to the last bin.
    std::vector<double> sorted(*type.v);
    std::sort(sorted.begin(), sorted.end());
    const double lo = sorted.front();
    double hi = sorted[static_cast<size_t>(0.99 * static_cast<double>(sorted.size() - 1))];
    if (hi <= lo) hi = lo + 1;
    constexpr int kBins = 30;
    const double width = (hi - lo) / kBins;
    std::vector<double> counts(kBins, 0);
    for (double v : sorted)
      counts[static_cast<size_t>(std::clamp(static_cast<int>((v - lo) / width), 0, kBins - 1))] += 1;
    auto* bars = new QCPBars(x, y);
    bars->setWidth(width * 0.92);
    bars->setPen(Qt::NoPen);
    bars->setBrush(paletteColor(index));
    QStringList tips;
    double peak = 0;
    for (int b = 0; b < kBins; ++b) {
      bars->addData(lo + (b + 0.5) * width, counts[static_cast<size_t>(b)]);
      tips << QStringLiteral("%1 … %2 µs%3: %L4 samples")
                  .arg(lo + b * width, 0, 'f', 1)
                  .arg(lo + (b + 1) * width, 0, 'f', 1)
                  .arg(b == kBins - 1 ? QStringLiteral(" and above") : QString())
                  .arg(counts[static_cast<size_t>(b)]);
      peak = std::max(peak, counts[static_cast<size_t>(b)]);
    }
    bars->setProperty("tips", tips);
    x->setRange(lo - width, hi + width);
    if (logScale) {
      y->setScaleType(QCPAxis::stLogarithmic);
      y->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
      y->setRange(0.8, std::max(10.0, peak * 3));
      bars->setBaseValue(0.8);
    } else {
      y->setRange(0, peak * 1.35);
    }
    auto* legend = new QCPItemText(plot);
    legend->setClipAxisRect(rect);
    legend->position->setType(QCPItemPosition::ptAxisRectRatio);
    legend->position->setAxisRect(rect);
    legend->position->setCoords(0.98, 0.03);
    legend->setPositionAlignment(Qt::AlignTop | Qt::AlignRight);
    legend->setTextAlignment(Qt::AlignRight);
    legend->setFont(QFont(QStringLiteral("Sans"), 8));
    legend->setColor(theme.text());
    legend->setText(QStringLiteral("n = %L1\nmean %2 · std %3\nmedian %4 · p90 %5")
                        .arg(s.count)
                        .arg(s.mean, 0, 'f', 2)
                        .arg(s.stddev, 0, 'f', 2)
                        .arg(s.median, 0, 'f', 2)
                        .arg(s.p90, 0, 'f', 2));
    ++index;
  }
  // Under the title: the profiler costs the samples were corrected with.
  auto* costs =
      new QCPTextElement(plot,
                         QStringLiteral("corrected for the profiler's own cost (µs): CPU event %1 · GPU event %2 · "
                                        "launch length %3 · T1 gaps ≥ %4 µs are data loading, skipped")
                             .arg(o.costs.cpuEvent, 0, 'f', 2)
                             .arg(o.costs.gpuEvent, 0, 'f', 2)
                             .arg(o.costs.launchLength, 0, 'f', 2)
                             .arg(o.t1MaxGapUs, 0, 'f', 0),
                         QFont(QStringLiteral("Sans"), 9));
  costs->setTextColor(theme.text());
  plot->plotLayout()->addElement(1, 0, costs);
  plot->plotLayout()->setRowStretchFactors({0.01, 0.01, 1.0});
  setMinimumChartHeight(plot, 60 + 2 * 170);
  plot->replot();
}

namespace charts {

extern const ChartDrawing overheads;
const ChartDrawing overheads{"overheads", [](QCustomPlot* plot, const AnalysisResult& r, const Trace&,
                                             const ChartTheme& theme, const QString& title, const ChartOptions& o) {
                               plotOverheads(plot, analysisValue<OverheadsWithCosts>(r).overheads, theme, title,
                                             o.logScale, o.op);
                             }};

}  // namespace charts
}  // namespace opscope::ui
