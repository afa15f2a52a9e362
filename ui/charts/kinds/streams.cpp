// Per stream busy, idle and overlap, and utilisation over time.
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/stream_usage.h"
#include "charts/analysis_charts.h"
#include "charts/chart_kinds.h"
#include "charts/chart_parts.h"
#include "timeline/names.h"

namespace opscope::ui {

using namespace parts;

void plotStreams(QCustomPlot* plot, const StreamUsageReport& r, const ChartTheme& theme, const QString& title) {
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  QCPAxisRect* rect = addRect(plot, 1, 0, theme);
  QCPAxis* key = rect->axis(QCPAxis::atLeft);
  QCPAxis* value = rect->axis(QCPAxis::atBottom);
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  const int n = static_cast<int>(std::min<size_t>(r.streams.size(), 12));
  const QString partNames[] = {QStringLiteral("busy"), QStringLiteral("idle: waiting for the host"),
                               QStringLiteral("idle: other")};
  const QColor partColors[] = {paletteColor(0), paletteColor(1),
                               theme.dark ? QColor(0x55, 0x57, 0x5e) : QColor(0xd0, 0xd0, 0xd0)};
  // The legend in a row of its own between the title and the bars, laid out in one line.
  QCPLegend* legend = themedLegend(theme);
  plot->plotLayout()->insertRow(1);
  plot->plotLayout()->addElement(1, 0, legend);
  legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  legend->setWrap(3);  // without a wrap the legend stacked its three parts (80 px of a dock)
  legend->setLayer(QStringLiteral("legend"));
  QCPBars* below = nullptr;
  for (int p = 0; p < 3; ++p) {
    auto* bars = new QCPBars(key, value);
    bars->setName(partNames[p]);
    bars->setWidth(0.65);
    bars->setPen(Qt::NoPen);
    bars->setBrush(partColors[p]);
    QStringList tips;
    for (int i = 0; i < n; ++i) {
      const StreamUsage& s = r.streams[static_cast<size_t>(i)];
      const TimeNs v = p == 0 ? s.busy : p == 1 ? s.idleHostWait : s.idleOther;
      bars->addData(n - i, ms(v));
      tips.prepend(QStringLiteral("%1\n%2: %3 (%4 of the window)")
                       .arg(QString::fromStdString(s.label), partNames[p], durationText(static_cast<double>(v)),
                            percent(r.wall ? static_cast<double>(v) / static_cast<double>(r.wall) : 0)));
      if (p == 0)
        ticker->addTick(n - i, QString::fromStdString(s.label) + QStringLiteral(" · ") + percent(s.utilisation));
    }
    bars->setProperty("tips", tips);  // key order: bottom stream first
    if (below) bars->moveAbove(below);
    below = bars;
    bars->addToLegend(legend);
  }
  key->setTicker(ticker);
  key->setRange(0.4, n + 0.6);
  key->grid()->setVisible(false);
  key->setTickLabelFont(QFont(QStringLiteral("Sans"), 8));
  value->setRange(0, std::max(1e-3, ms(r.wall)));
  value->setLabel(QStringLiteral("ms of the window"));
  if (n == 0) emptyNote(rect, QStringLiteral("no GPU events"), theme);

  QCPAxisRect* util = addRect(plot, 3, 0, theme);
  auto* graph = new QCPGraph(util->axis(QCPAxis::atBottom), util->axis(QCPAxis::atLeft));
  graph->setPen(QPen(paletteColor(0), 1.5));
  graph->setBrush(QColor(paletteColor(0).red(), paletteColor(0).green(), paletteColor(0).blue(), 60));
  graph->setLineStyle(QCPGraph::lsStepLeft);
  for (size_t i = 0; i < r.utilisation.size(); ++i)
    graph->addData(ms(static_cast<TimeNs>(i) * r.binWidth), 100.0 * r.utilisation[i]);
  if (!r.utilisation.empty()) graph->addData(ms(r.wall), 100.0 * r.utilisation.back());
  util->axis(QCPAxis::atBottom)->setRange(0, std::max(1e-3, ms(r.wall)));
  util->axis(QCPAxis::atBottom)->setLabel(QStringLiteral("ms from the window's start"));
  util->axis(QCPAxis::atLeft)->setRange(0, 105);
  util->axis(QCPAxis::atLeft)->setLabel(QStringLiteral("busy %"));  // fits the strip's height
  // Three labelled ticks: a short utilisation strip had a label every 20 %, on top of each other.
  auto percentTicks = QSharedPointer<QCPAxisTickerText>::create();
  percentTicks->addTicks({0, 50, 100}, {QStringLiteral("0"), QStringLiteral("50"), QStringLiteral("100")});
  util->axis(QCPAxis::atLeft)->setTicker(percentTicks);
  util->axis(QCPAxis::atLeft)->setSubTicks(false);
  // The communication figure under the title: as the bars' axis title it ran past a
  // laptop dock's width and lost its point.
  const bool comm = r.communication > 0;
  if (comm) {
    plot->plotLayout()->insertRow(1);
    addTitle(plot, 1,
             QStringLiteral("communication %1, %2 of it hidden under compute")
                 .arg(durationText(static_cast<double>(r.communication)), percent(r.commHiddenShare)),
             theme, 8);
  }
  plot->plotLayout()->setRowStretchFactors(comm ? QList<double>{0.01, 0.01, 0.01, 1.0, 0.6}
                                                : QList<double>{0.01, 0.01, 1.0, 0.6});
  setMinimumChartHeight(plot, 50 + (comm ? 20 : 0) + barsHeight(n) + 160);
  plot->replot();
}

namespace charts {

extern const ChartDrawing streams;
const ChartDrawing streams{"streams", [](QCustomPlot* plot, const AnalysisResult& r, const Trace&,
                                         const ChartTheme& theme, const QString& title, const ChartOptions&) {
                             plotStreams(plot, analysisValue<StreamUsageReport>(r), theme, title);
                           }};

}  // namespace charts
}  // namespace opscope::ui
