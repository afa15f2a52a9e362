// Allocated and reserved memory per device over time, the peak marked.
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/memory_timeline.h"
#include "charts/analysis_charts.h"
#include "charts/chart_kinds.h"
#include "charts/chart_parts.h"
#include "timeline/names.h"

namespace opscope::ui {

using namespace parts;

void plotMemory(QCustomPlot* plot, const MemoryTimeline& m, const Trace& trace, const ChartTheme& theme,
                const QString& title) {
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  if (m.devices.empty()) {
    QCPAxisRect* rect = addRect(plot, 1, 0, theme);
    emptyNote(rect, QStringLiteral("no [memory] events: record with torch.profiler.profile(profile_memory=True)"),
              theme);
    setMinimumChartHeight(plot, 80);
    plot->replot();
    return;
  }
  const size_t shown = std::min<size_t>(m.devices.size(), 4);
  constexpr double kMiB = 1024.0 * 1024.0;
  auto* left = new QCPMarginGroup(plot);
  for (size_t k = 0; k < shown; ++k) {
    const DeviceMemory& d = m.devices[k];
    QCPAxisRect* rect = addRect(plot, static_cast<int>(k) + 1, 0, theme);
    rect->setMarginGroup(QCP::msLeft | QCP::msRight, left);
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    auto series = [&](const std::vector<int64_t>& v, const QString& name, const QColor& color, Qt::PenStyle style) {
      auto* g = new QCPGraph(x, y);
      g->setName(name);
      g->setLineStyle(QCPGraph::lsStepLeft);
      g->setPen(QPen(color, 1.6, style));
      QVector<double> keys, values;
      for (size_t i = 0; i < d.ts.size(); ++i) {
        if (v[i] < 0 && &v == &d.reserved) continue;
        keys.push_back(static_cast<double>(d.ts[i] - trace.minTs) / 1e6);
        values.push_back(static_cast<double>(v[i]) / kMiB);
      }
      g->setData(keys, values, true);
      return g;
    };
    QCPGraph* allocated = series(d.allocated, QStringLiteral("allocated"), paletteColor(0), Qt::SolidLine);
    allocated->setBrush(QColor(paletteColor(0).red(), paletteColor(0).green(), paletteColor(0).blue(), 40));
    QCPGraph* reserved =
        d.peakReserved >= 0 ? series(d.reserved, QStringLiteral("reserved"), paletteColor(1), Qt::DashLine) : nullptr;
    // The peak, marked and named.
    const double px = static_cast<double>(d.peakTs - trace.minTs) / 1e6,
                 py = static_cast<double>(d.peakAllocated) / kMiB;
    auto* peak = new QCPGraph(x, y);
    peak->setLineStyle(QCPGraph::lsNone);
    peak->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, paletteColor(3), 8));
    peak->addData(px, py);
    peak->removeFromLegend();
    auto* label = new QCPItemText(plot);
    label->setClipAxisRect(rect);
    label->position->setAxes(x, y);
    label->position->setCoords(px, py);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    label->setPadding(QMargins(6, 0, 0, 2));
    label->setText(QStringLiteral("peak %1 MiB at %2 ms").arg(py, 0, 'f', 1).arg(px, 0, 'f', 2));
    label->setColor(theme.text());
    label->setFont(QFont(QStringLiteral("Sans"), 8));
    double top = py;
    for (int64_t r : d.reserved) top = std::max(top, static_cast<double>(r) / kMiB);
    double bottom = 0;
    for (int64_t a : d.allocated) bottom = std::min(bottom, static_cast<double>(a) / kMiB);
    y->setRange(bottom, top > bottom ? top * 1.15 + 1e-9 : bottom + 1);
    x->setRange(0, static_cast<double>(trace.maxTs - trace.minTs) / 1e6);
    y->setLabel(QStringLiteral("%1 (MiB)%2")
                    .arg(QString::fromStdString(d.label),
                         d.relativeAllocated ? QStringLiteral(", change since start") : QString()));
    x->setLabel(k + 1 == shown ? QStringLiteral("time since the trace start (ms) · click: the allocations live then")
                               : QString());
    rect->setProperty("device", static_cast<int>(k));
    auto* legend = themedLegend(theme);
    rect->insetLayout()->addElement(legend, Qt::AlignRight | Qt::AlignTop);
    allocated->addToLegend(legend);
    if (reserved) reserved->addToLegend(legend);
  }
  setMinimumChartHeight(plot, 60 + static_cast<int>(shown) * 200);
  plot->replot();
}

namespace charts {

extern const ChartDrawing memory;
const ChartDrawing memory{"memory", [](QCustomPlot* plot, const AnalysisResult& r, const Trace& trace,
                                       const ChartTheme& theme, const QString& title, const ChartOptions&) {
                            plotMemory(plot, analysisValue<MemoryTimeline>(r), trace, theme, title);
                          }};

}  // namespace charts
}  // namespace opscope::ui
