// The kernel mix of the dominating ops: one 100 % stacked bar per variant, segments by kernel class.
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/op_kernel_mix.h"
#include "charts/analysis_charts.h"
#include "charts/chart_kinds.h"
#include "charts/chart_parts.h"
#include "timeline/names.h"

namespace opscope::ui {

using namespace parts;

void plotOpKernelMix(QCustomPlot* plot, const OpKernelMixes& m, const Trace& trace, const ChartTheme& theme,
                     const QString& title) {
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  QCPAxisRect* rect = addRect(plot, 1, 0, theme);
  QCPAxis* x = rect->axis(QCPAxis::atBottom);
  QCPAxis* y = rect->axis(QCPAxis::atLeft);
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  // Bar positions: the variants of one op side by side, a gap between ops.
  struct Bar {
    double key;
    int op, variant;
  };
  std::vector<Bar> bars;
  double key = 1;
  std::vector<std::string> opNames;
  for (const OpMix& op : m.ops) opNames.emplace_back(trace.str(op.name));
  const QStringList shownOps = distinctDisplayNames(opNames, kOpAxisChars);
  for (size_t i = 0; i < m.ops.size(); ++i) {
    const OpMix& op = m.ops[i];
    for (size_t v = 0; v < op.variants.size(); ++v) {
      bars.push_back({key, static_cast<int>(i), static_cast<int>(v)});
      const QString& name = shownOps[static_cast<qsizetype>(i)];
      ticker->addTick(key, op.variants.size() > 1
                               ? QStringLiteral("%1 · v%2 (%L3×)").arg(name).arg(v + 1).arg(op.variants[v].calls)
                               : QStringLiteral("%1 (%L2×)").arg(name).arg(op.variants[v].calls));
      key += 1;
    }
    key += 0.6;
  }
  // One stacked plottable per kernel class, classes ordered by their total time.
  std::map<int32_t, TimeNs> classTime;
  for (const OpMix& op : m.ops)
    for (const OpVariant& v : op.variants)
      for (const MixSegment& s : v.segments) classTime[s.cls] += s.time;
  std::vector<std::pair<int32_t, TimeNs>> order(classTime.begin(), classTime.end());
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  QCPLegend* legend = themedLegend(theme);
  rect->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
  legend->setLayer(QStringLiteral("legend"));
  QCPBars* below = nullptr;
  for (const auto& [cls, total] : order) {
    const QString clsName =
        cls >= 0 ? QString::fromStdString(m.classes[static_cast<size_t>(cls)]) : QStringLiteral("other");
    auto* b = new QCPBars(x, y);
    b->setName(clsName);
    b->setWidth(0.8);
    b->setPen(QPen(theme.background(), 0.5));
    b->setBrush(classColor(clsName));
    QStringList tips;
    QVariantList segments;
    for (const Bar& bar : bars) {
      const OpVariant& v = m.ops[static_cast<size_t>(bar.op)].variants[static_cast<size_t>(bar.variant)];
      double fraction = 0;
      QString tip;
      for (const MixSegment& s : v.segments) {
        if (s.cls != cls) continue;
        fraction += s.fraction;
        tip += QStringLiteral("%1\n   %2 · %3 · %L4×\n")
                   .arg(QString::fromStdString(std::string(trace.str(s.kernel))),
                        durationText(static_cast<double>(s.time)), percent(s.fraction))
                   .arg(s.count);
      }
      b->addData(bar.key, fraction);
      tips << (fraction > 0
                   ? QStringLiteral("%1 · %2 of this variant\n%3").arg(clsName, percent(fraction), tip.trimmed())
                   : QString());
      segments << QPoint(bar.op * 64 + bar.variant, cls);
    }
    b->setProperty("tips", tips);
    b->setProperty("segments", segments);
    if (below) b->moveAbove(below);
    below = b;
    b->addToLegend(legend);
  }
  x->setTicker(ticker);
  x->setTickLabelRotation(35);
  x->setTickLabelFont(QFont(QStringLiteral("Sans"), 8));
  x->setRange(0.4, std::max(2.0, key - 0.6));
  x->grid()->setVisible(false);
  y->setRange(0, 1.0);
  auto percentTicker = QSharedPointer<QCPAxisTickerText>::create();
  for (int p = 0; p <= 100; p += 20) percentTicker->addTick(p / 100.0, QStringLiteral("%1 %").arg(p));
  y->setTicker(percentTicker);
  y->setLabel(QStringLiteral("share of the variant's device time"));
  if (bars.empty()) emptyNote(rect, QStringLiteral("no op launched GPU work"), theme);
  // Room on the right for the legend: bars never hide under it.
  if (!bars.empty()) x->setRange(0.4, key - 0.6 + std::max(1.5, 0.28 * (key - 0.6)));
  setMinimumChartHeight(plot, 360);
  plot->replot();
}

std::vector<EventRef> mixSegmentEvents(const OpKernelMixes& m, int opVariant, int cls) {
  std::vector<EventRef> out;
  const size_t op = static_cast<size_t>(opVariant / 64), variant = static_cast<size_t>(opVariant % 64);
  if (op >= m.ops.size() || variant >= m.ops[op].variants.size()) return out;
  const OpVariant& v = m.ops[op].variants[variant];
  for (const MixSegment& s : v.segments)
    if (s.cls == cls)
      for (uint32_t i = s.firstEvent; i < s.endEvent; ++i) out.push_back(EventRef::unpack(v.events[i]));
  return out;
}

namespace charts {

extern const ChartDrawing op_kernels;
const ChartDrawing op_kernels{
    "op-kernels", [](QCustomPlot* plot, const AnalysisResult& r, const Trace& trace, const ChartTheme& theme,
                     const QString& title, const ChartOptions&) {
      if (const auto* m = analysisValueIf<OpKernelMixes>(&r)) {
        plotOpKernelMix(plot, *m, trace, theme, title);
        return;
      }
      showPlotMessage(plot, title + QStringLiteral("\n(one op's kernels by input shape: a table)"), theme);
    }};

}  // namespace charts
}  // namespace opscope::ui
