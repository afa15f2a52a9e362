// Queue length per stream: the outstanding launches of each stream over time (steps,
// the deepest streams first) over bars of their mean depth, labelled with the maximum.
#include <qcustomplot.h>

#include <algorithm>

#include "analysis/queue_length.h"
#include "charts/chart_kinds.h"
#include "charts/chart_parts.h"

namespace opscope::ui {

namespace {

using namespace parts;

constexpr size_t kCurves = 6;  // streams drawn over time; the bars list them all

void plotQueueLength(QCustomPlot* plot, const QueueLengthReport& r, const Trace& trace, const ChartTheme& theme,
                     const QString& title) {
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  std::vector<const StreamQueue*> streams;
  for (const StreamQueue& q : r.streams)
    if (q.operations > 0) streams.push_back(&q);
  if (streams.empty()) {
    emptyNote(addRect(plot, 1, 0, theme),
              QStringLiteral("no GPU work with its launch in the trace: nothing was queued"), theme);
    setMinimumChartHeight(plot, 200);
    plot->replot();
    return;
  }
  std::stable_sort(streams.begin(), streams.end(),
                   [](const StreamQueue* a, const StreamQueue* b) { return a->meanDepth > b->meanDepth; });
  QCPAxisRect* over = addRect(plot, 1, 0, theme);
  QCPAxis* x = over->axis(QCPAxis::atBottom);
  QCPAxis* y = over->axis(QCPAxis::atLeft);
  x->setLabel(QStringLiteral("time since the trace start (ms)"));
  y->setLabel(QStringLiteral("queued launches"));
  QCPLegend* legend = themedLegend(theme);
  over->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
  int32_t deepest = 1;
  for (size_t i = 0; i < streams.size() && i < kCurves; ++i) {
    const StreamQueue& q = *streams[i];
    auto* g = new QCPGraph(x, y);
    g->setName(QString::fromStdString(q.label));
    g->setLineStyle(QCPGraph::lsStepLeft);
    g->setPen(QPen(paletteColor(static_cast<int>(i)), 1.4));
    QVector<double> keys, values;
    for (const QueueStep& s : q.steps) {
      keys.push_back(static_cast<double>(s.ts - trace.minTs) / 1e6);
      values.push_back(s.depth);
    }
    keys.push_back(static_cast<double>(r.end - trace.minTs) / 1e6);
    values.push_back(q.steps.empty() ? 0 : q.steps.back().depth);
    g->setData(keys, values, true);
    legend->addItem(new QCPPlottableLegendItem(legend, g));
    deepest = std::max(deepest, q.maxDepth);
  }
  x->setRange(static_cast<double>(r.start - trace.minTs) / 1e6, static_cast<double>(r.end - trace.minTs) / 1e6);
  y->setRange(0, deepest * 1.1 + 0.5);

  QCPAxisRect* bars = addRect(plot, 2, 0, theme);
  QStringList labels, texts, tips;
  std::vector<double> values;
  std::vector<QColor> colors;
  for (size_t i = 0; i < streams.size(); ++i) {
    const StreamQueue& q = *streams[i];
    labels << QString::fromStdString(q.label);
    values.push_back(q.meanDepth);
    colors.push_back(paletteColor(static_cast<int>(std::min(i, kCurves))));
    texts << QStringLiteral("mean %1 · max %2").arg(q.meanDepth, 0, 'f', 2).arg(q.maxDepth);
    tips << QStringLiteral("%1\n%L2 launches queued; mean %3, max %4 waiting; empty %5 of the time%6")
                .arg(QString::fromStdString(q.label))
                .arg(q.operations)
                .arg(q.meanDepth, 0, 'f', 2)
                .arg(q.maxDepth)
                .arg(percent(r.end > r.start && !q.timeAtDepth.empty()
                                 ? static_cast<double>(q.timeAtDepth[0]) / static_cast<double>(r.end - r.start)
                                 : 0))
                .arg(q.timeFull > 0 ? QStringLiteral("; full (≥ %1) for %2")
                                          .arg(kFullLaunchQueue)
                                          .arg(durationText(static_cast<double>(q.timeFull)))
                                    : QString());
  }
  horizontalBars(bars, labels, values, colors, texts, tips, QStringLiteral("mean queued launches"), theme);
  auto* margins = new QCPMarginGroup(plot);
  over->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
  bars->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
  plot->plotLayout()->setRowStretchFactors({0.01, 1.0, 0.6});
  setMinimumChartHeight(plot, 60 + 220 + barsHeight(static_cast<int>(streams.size())));
  plot->replot();
}

}  // namespace

namespace charts {

extern const ChartDrawing queue_length;
const ChartDrawing queue_length{"queue-length", [](QCustomPlot* plot, const AnalysisResult& r, const Trace& trace,
                                                   const ChartTheme& theme, const QString& title, const ChartOptions&) {
                                  plotQueueLength(plot, analysisValue<QueueLengthReport>(r), trace, theme, title);
                                }};

}  // namespace charts
}  // namespace opscope::ui
