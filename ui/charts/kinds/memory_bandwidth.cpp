// Memory bandwidth per copy kind: the concurrent GB/s of each kind over time (steps)
// over bars of each kind's achieved GB/s, labelled with its bytes and time.
#include <qcustomplot.h>

#include "analysis/memory_bandwidth.h"
#include "charts/chart_kinds.h"
#include "charts/chart_parts.h"

namespace opscope::ui {

namespace {

using namespace parts;

QString bytesText(uint64_t b) {
  const double v = static_cast<double>(b);
  if (v >= 1e9) return QStringLiteral("%1 GB").arg(v / 1e9, 0, 'f', 2);
  if (v >= 1e6) return QStringLiteral("%1 MB").arg(v / 1e6, 0, 'f', 1);
  if (v >= 1e3) return QStringLiteral("%1 KB").arg(v / 1e3, 0, 'f', 1);
  return QStringLiteral("%1 B").arg(b);
}

void plotBandwidth(QCustomPlot* plot, const MemoryBandwidthReport& r, const Trace& trace, const ChartTheme& theme,
                   const QString& title) {
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  if (r.kinds.empty()) {
    emptyNote(addRect(plot, 1, 0, theme), QStringLiteral("no memcpy or memset in this range"), theme);
    setMinimumChartHeight(plot, 200);
    plot->replot();
    return;
  }
  QCPAxisRect* over = addRect(plot, 1, 0, theme);
  QCPAxis* x = over->axis(QCPAxis::atBottom);
  QCPAxis* y = over->axis(QCPAxis::atLeft);
  x->setLabel(QStringLiteral("time since the trace start (ms)"));
  y->setLabel(QStringLiteral("GB/s (concurrent copies)"));
  QCPLegend* legend = themedLegend(theme);
  over->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
  double top = 1;
  for (size_t i = 0; i < r.kinds.size(); ++i) {
    const CopyKindBandwidth& k = r.kinds[i];
    if (k.steps.empty()) continue;
    auto* g = new QCPGraph(x, y);
    g->setName(QString::fromStdString(k.kind));
    g->setLineStyle(QCPGraph::lsStepLeft);
    g->setPen(QPen(paletteColor(static_cast<int>(i)), 1.4));
    QVector<double> keys, values;
    for (const BandwidthStep& s : k.steps) {
      keys.push_back(static_cast<double>(s.ts - trace.minTs) / 1e6);
      values.push_back(s.gbs);
    }
    g->setData(keys, values, true);
    legend->addItem(new QCPPlottableLegendItem(legend, g));
    top = std::max(top, k.peakGBs);
  }
  x->setRange(static_cast<double>(r.start - trace.minTs) / 1e6, static_cast<double>(r.end - trace.minTs) / 1e6);
  y->setRange(0, top * 1.1);

  QCPAxisRect* bars = addRect(plot, 2, 0, theme);
  QStringList labels, texts, tips;
  std::vector<double> values;
  std::vector<QColor> colors;
  for (size_t i = 0; i < r.kinds.size(); ++i) {
    const CopyKindBandwidth& k = r.kinds[i];
    const auto gbs = k.all.gbs();
    labels << QString::fromStdString(k.kind);
    values.push_back(gbs.value_or(0));
    colors.push_back(paletteColor(static_cast<int>(i)));
    texts << (gbs ? QStringLiteral("%1 GB/s · %2 in %3")
                        .arg(*gbs, 0, 'f', 1)
                        .arg(bytesText(k.all.bytes))
                        .arg(durationText(static_cast<double>(k.all.time)))
                  : QStringLiteral("no bytes recorded"));
    QString split;
    if (k.pageable.count > 0)
      split += QStringLiteral("\npageable: %L1 copies, %2 GB/s")
                   .arg(k.pageable.count)
                   .arg(k.pageable.gbs().value_or(0), 0, 'f', 1);
    if (k.pinned.count > 0)
      split += QStringLiteral("\npinned: %L1 copies, %2 GB/s")
                   .arg(k.pinned.count)
                   .arg(k.pinned.gbs().value_or(0), 0, 'f', 1);
    tips << QStringLiteral("%1: %L2 copies, %3 in %4; peak %5 GB/s concurrent%6")
                .arg(QString::fromStdString(k.kind))
                .arg(k.all.count)
                .arg(bytesText(k.all.bytes))
                .arg(durationText(static_cast<double>(k.all.time)))
                .arg(k.peakGBs, 0, 'f', 1)
                .arg(split);
  }
  horizontalBars(bars, labels, values, colors, texts, tips, QStringLiteral("achieved GB/s (bytes / copy time)"), theme);
  auto* margins = new QCPMarginGroup(plot);
  over->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
  bars->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
  plot->plotLayout()->setRowStretchFactors({0.01, 1.0, 0.6});
  setMinimumChartHeight(plot, 60 + 220 + barsHeight(static_cast<int>(r.kinds.size())));
  plot->replot();
}

}  // namespace

namespace charts {

extern const ChartDrawing memory_bandwidth;
const ChartDrawing memory_bandwidth{
    "memory-bandwidth",
    [](QCustomPlot* plot, const AnalysisResult& r, const Trace& trace, const ChartTheme& theme, const QString& title,
       const ChartOptions&) { plotBandwidth(plot, analysisValue<MemoryBandwidthReport>(r), trace, theme, title); }};

}  // namespace charts
}  // namespace opscope::ui
