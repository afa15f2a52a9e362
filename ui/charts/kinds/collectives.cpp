// Collectives across ranks: the skew of every matched call over the job (how long the
// first rank waited for the last), the achieved bus bandwidth of the calls whose ops
// record their size (a row only when some do), and a bar per rank of its waiting,
// labelled with how often it arrived last.
#include <qcustomplot.h>

#include <algorithm>

#include "charts/chart_kinds.h"
#include "charts/chart_parts.h"
#include "ranks/collective_calls.h"

namespace opscope::ui {

namespace {

using namespace parts;

// One stem a call: ordinal against a value (skew, bus bandwidth), in palette colour c.
QCPGraph* stems(QCPAxis* x, QCPAxis* y, int c) {
  auto* g = new QCPGraph(x, y);
  g->setLineStyle(QCPGraph::lsImpulse);
  g->setPen(QPen(paletteColor(c), 1.2));
  g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 3));
  return g;
}

void plotCollectives(QCustomPlot* plot, const CollectivesAcrossRanks& c, const ChartTheme& theme,
                     const QString& title) {
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  if (c.ranks.size() < 2 || c.calls.empty()) {
    emptyNote(addRect(plot, 1, 0, theme),
              c.ranks.size() < 2 ? QStringLiteral("one rank: open a folder of rank traces to match its collectives")
                                 : QStringLiteral("no collective kernel on every rank"),
              theme);
    setMinimumChartHeight(plot, 200);
    plot->replot();
    return;
  }
  QCPAxisRect* over = addRect(plot, 1, 0, theme);
  QCPAxis* x = over->axis(QCPAxis::atBottom);
  QCPAxis* y = over->axis(QCPAxis::atLeft);
  // Axis titles short enough for a 200 px tall panel (longer ones were cut before their unit).
  x->setLabel(QStringLiteral("collective call (in order) · skew = the last rank's arrival − the first's"));
  y->setLabel(QStringLiteral("skew (µs)"));
  QCPGraph* g = stems(x, y, 0);
  double top = 1;
  for (const CollectiveCallAcross& call : c.calls) {
    g->addData(static_cast<double>(call.ordinal), static_cast<double>(call.skew) / 1000);
    top = std::max(top, static_cast<double>(call.skew) / 1000);
  }
  x->setRange(-0.5, static_cast<double>(c.calls.size()) - 0.5);
  y->setRange(0, top * 1.1);

  double fastest = 0;
  for (const CollectiveCallAcross& call : c.calls) fastest = std::max(fastest, call.busGBs);
  QCPAxisRect* bandwidth = nullptr;
  if (fastest > 0) {
    bandwidth = addRect(plot, 2, 0, theme);
    QCPAxis* bx = bandwidth->axis(QCPAxis::atBottom);
    QCPAxis* by = bandwidth->axis(QCPAxis::atLeft);
    bx->setLabel(QStringLiteral("collective call (in order) · bus bandwidth of the calls whose ops record a size"));
    by->setLabel(QStringLiteral("bus GB/s"));
    QCPGraph* b = stems(bx, by, 2);
    for (const CollectiveCallAcross& call : c.calls)
      if (call.busGBs > 0) b->addData(static_cast<double>(call.ordinal), call.busGBs);
    bx->setRange(x->range());
    by->setRange(0, fastest * 1.1);
  }
  const int barsRow = bandwidth ? 3 : 2;

  QCPAxisRect* bars = addRect(plot, barsRow, 0, theme);
  QStringList labels, texts, tips;
  std::vector<double> values;
  std::vector<QColor> colors;
  for (const RankCollectives& r : c.ranks) {
    labels << QStringLiteral("rank %1").arg(r.rank);
    values.push_back(static_cast<double>(r.wait) / 1e6);
    colors.push_back(paletteColor(r.lateStarts > 0 ? 3 : 0));
    texts << QStringLiteral("last %L1 of %L2 · waited %3")
                 .arg(r.lateStarts)
                 .arg(c.calls.size())
                 .arg(durationText(static_cast<double>(r.wait)));
    tips << QStringLiteral(
                "rank %1: %L2 collective kernels, %L3 matched on every rank\narrived last to %L4; waited %5, "
                "communicated %6")
                .arg(r.rank)
                .arg(r.collectives)
                .arg(c.matched)
                .arg(r.lateStarts)
                .arg(durationText(static_cast<double>(r.wait)))
                .arg(durationText(static_cast<double>(r.comm)));
  }
  horizontalBars(bars, labels, values, colors, texts, tips, QStringLiteral("time waiting for the last rank (ms)"),
                 theme);
  auto* margins = new QCPMarginGroup(plot);
  over->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
  bars->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
  if (bandwidth) bandwidth->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
  plot->plotLayout()->setRowStretchFactors(bandwidth ? QList<double>{0.01, 1.0, 0.8, 0.7}
                                                     : QList<double>{0.01, 1.0, 0.7});
  setMinimumChartHeight(plot, 60 + 220 + (bandwidth ? 180 : 0) + barsHeight(static_cast<int>(c.ranks.size())));
  plot->replot();
}

}  // namespace

namespace charts {

extern const ChartDrawing collectives;
const ChartDrawing collectives{"collectives", [](QCustomPlot* plot, const AnalysisResult& r, const Trace&,
                                                 const ChartTheme& theme, const QString& title, const ChartOptions&) {
                                 plotCollectives(plot, analysisValue<CollectivesAcrossRanks>(r), theme, title);
                               }};

}  // namespace charts
}  // namespace opscope::ui
