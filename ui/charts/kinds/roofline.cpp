// The roofline (perf/roofline.h): log-log arithmetic intensity (FLOP/byte) against
// achieved TFLOP/s, one roof per type the GPU has (its peak, flat) joined to the memory
// roof (DRAM bandwidth × intensity, the diagonal); each op and shape a point sized by its
// total kernel time and coloured by its category. A point's tip names the op, its shape
// and figures; its "ops" property holds its longest call, which a click selects
// (panels/tabs/roofline_tab.cpp). Ops with no FLOPs (copies, norms) have no place on a
// log axis: the note under the title counts them (the table lists them).
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "charts/chart_kinds.h"
#include "charts/chart_parts.h"
#include "perf/roofline.h"

namespace opscope::ui {

namespace {

using namespace parts;

constexpr size_t kMaxPoints = 200;  // the most at stake; the table has every row

void plotRoofline(QCustomPlot* plot, const RooflineAnalysis& a, const ChartTheme& theme, const QString& title) {
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  // The GPU and what the chart leaves out, on a line of its own under the title (drawn in
  // the plot it ran over the roofs' labels and the points).
  size_t withoutFlops = 0;
  if (a.roof)
    for (const RooflineRow& o : a.roof->ops) withoutFlops += o.flops <= 0 || o.bytes <= 0 || o.tflopsS() <= 0;
  addTitle(plot, 1,
           a.roof ? QStringLiteral("%1 (%2)%3")
                        .arg(QString::fromStdString(a.roof->gpu.name), QString::fromStdString(a.gpuSource),
                             withoutFlops ? QStringLiteral(" · %L1 shapes with no FLOPs (copies, norms, collectives) "
                                                           "are in the table only")
                                                .arg(withoutFlops)
                                          : QString())
                  : QString(),
           theme, 8);
  QCPAxisRect* rect = addRect(plot, 2, 0, theme);
  if (!a.roof || a.roof->ops.empty()) {
    emptyNote(rect,
              !a.roof ? QStringLiteral("no GPU preset for this trace (%1): opscope roofline --gpu NAME names one")
                            .arg(QString::fromStdString(a.gpuSource))
                      : QStringLiteral("no op a model prices: the trace records no input shapes (record_shapes=True)"),
              theme);
    setMinimumChartHeight(plot, 200);
    plot->replot();
    return;
  }
  const Roofline& r = *a.roof;
  QCPAxis* x = rect->axis(QCPAxis::atBottom);
  QCPAxis* y = rect->axis(QCPAxis::atLeft);
  for (QCPAxis* axis : {x, y}) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    axis->setNumberFormat(QStringLiteral("gb"));
  }
  x->setLabel(QStringLiteral("arithmetic intensity (FLOP / byte of DRAM traffic)"));
  y->setLabel(QStringLiteral("achieved TFLOP/s"));
  // The points: the most time at stake first, only those with FLOPs.
  double xMin = 1e9, xMax = 0, yMin = 1e9, yMax = 0;
  TimeNs longest = 1;
  size_t placed = 0, unplaced = 0;
  for (const RooflineRow& o : r.ops) {
    if (o.flops <= 0 || o.bytes <= 0 || o.tflopsS() <= 0) continue;
    longest = std::max(longest, o.kernelTotal);
  }
  std::map<std::string, int> colourOf;
  QCPLegend* legend = themedLegend(theme);
  rect->insetLayout()->addElement(legend, Qt::AlignBottom | Qt::AlignRight);
  for (const RooflineRow& o : r.ops) {
    if (o.flops <= 0 || o.bytes <= 0 || o.tflopsS() <= 0) {
      ++unplaced;
      continue;
    }
    if (placed == kMaxPoints) continue;
    ++placed;
    const auto [it, fresh] = colourOf.try_emplace(o.category, static_cast<int>(colourOf.size()));
    auto* g = new QCPGraph(x, y);
    g->setLineStyle(QCPGraph::lsNone);
    const double size = 5 + 17 * std::sqrt(static_cast<double>(o.kernelTotal) / static_cast<double>(longest));
    QColor fill = paletteColor(it->second);
    fill.setAlpha(150);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, paletteColor(it->second), fill, size));
    g->setName(QString::fromStdString(o.category));
    g->addData(o.flopsPerByte(), o.tflopsS());
    g->setProperty("tips",
                   QStringList{QStringLiteral("%1 %2 (%3)\n%L4 %5 · %6 of kernels · %7 FLOP/B\n%8 TFLOP/s · %9 TB/s "
                                              "· %10 of the roof (%11-bound) · %12 at stake")
                                   .arg(QString::fromStdString(o.name), QString::fromStdString(o.inputDims),
                                        QString::fromStdString(o.dtype))
                                   .arg(o.count)
                                   .arg(o.count == 1 ? QStringLiteral("call") : QStringLiteral("calls"))
                                   .arg(durationText(static_cast<double>(o.kernelTotal)))
                                   .arg(o.flopsPerByte(), 0, 'g', 3)
                                   .arg(o.tflopsS(), 0, 'g', 3)
                                   .arg(o.tbs(), 0, 'g', 3)
                                   .arg(percent(o.roofPct(r.dramTBs) / 100))
                                   .arg(QString::fromLatin1(o.bound(r.dramTBs)))
                                   .arg(durationText(o.atStakeUs(r.dramTBs) * 1000)) +
                               (o.roofPct(r.dramTBs) > 105
                                    ? QStringLiteral("\nabove the roof: faster than this GPU allows — the trace's "
                                                     "timings, its GPU or the recorded shapes are off")
                                    : QString())});
    g->setProperty("ops", QVariantList{QVariant::fromValue<qulonglong>(o.longest.packed())});
    g->removeFromLegend();
    if (fresh) {  // a marker of one size for the legend (the points' sizes are their time)
      auto* key = new QCPGraph(x, y);
      key->setName(QString::fromStdString(o.category));
      key->setLineStyle(QCPGraph::lsNone);
      key->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, paletteColor(it->second), fill, 8));
      legend->addItem(new QCPPlottableLegendItem(legend, key));
    }
    xMin = std::min(xMin, o.flopsPerByte());
    xMax = std::max(xMax, o.flopsPerByte());
    yMin = std::min(yMin, o.tflopsS());
    yMax = std::max(yMax, o.tflopsS());
  }
  if (placed == 0) {
    xMin = 0.1, xMax = 1000, yMin = 0.01, yMax = 1;
  }
  // Room for the roofs: the ridges and the highest peak in view.
  double peakMax = 0;
  for (const auto& [k, v] : r.peaks)
    if (k != "fp8" && k != "int8" && k != "fp4") peakMax = std::max(peakMax, v);
  xMin = std::max(1e-3, std::min(xMin, 0.5) / 2);
  xMax = std::max({xMax * 2, peakMax / std::max(r.dramTBs, 1e-9) * 4, 10.0});
  yMin = std::max(1e-4, std::min(yMin, r.dramTBs * xMin) / 2);
  yMax = std::max(yMax, peakMax) * 5;  // room over the top roof for its label
  x->setRange(xMin, xMax);
  y->setRange(yMin, yMax);
  // One roof per type the points run at (flat at its peak, the memory diagonal below its
  // ridge); types of one peak share a roof and a label ("bf16 · fp16 989 TFLOP/s").
  std::set<std::string> used;
  for (const RooflineRow& o : r.ops)
    if (o.flops > 0 && o.bytes > 0) used.insert(o.dtype);
  if (used.empty()) used.insert("fp32");
  std::map<double, QString> roofs;  // peak -> its types
  for (const auto& [type, peak] : r.peaks)
    if (used.count(type)) {
      QString& names = roofs[peak];
      names += (names.isEmpty() ? QString() : QStringLiteral(" · ")) + QString::fromStdString(type);
    }
  // Where a label sits across the plot (0 left, 1 right) for an intensity on the log axis.
  const auto xRatio = [&](double v) { return std::log(v / xMin) / std::log(xMax / xMin); };
  int roofIndex = 0;
  double labelledAbove = 0;                                   // the peak of the last roof labelled above its line
  for (auto it = roofs.rbegin(); it != roofs.rend(); ++it) {  // highest first
    const auto& [peak, types] = *it;
    auto* roof = new QCPGraph(x, y);
    const double ridge = peak / r.dramTBs;
    roof->setData(QVector<double>{xMin, ridge, xMax}, QVector<double>{r.dramTBs * xMin, peak, peak});
    QPen pen(theme.text(), 1.0, roofIndex == 0 ? Qt::SolidLine : Qt::DashLine);
    pen.setColor(QColor(theme.text().red(), theme.text().green(), theme.text().blue(), 140));
    roof->setPen(pen);
    roof->removeFromLegend();
    auto* label = new QCPItemText(plot);
    label->setClipToAxisRect(true);
    label->setClipAxisRect(rect);
    label->position->setAxes(x, y);
    // Just past the ridge, where the roof turns flat: the ops crowd the far right (high
    // intensity), where a label at the end ran over them. Held inside the plot (a label
    // left-aligned near the right edge lost its "/s"), and a roof within 4× of the one
    // above it (fp64 9.7 under fp32 19.5) labelled under its line, not over the other's.
    const double at = std::clamp(xRatio(ridge * 1.15), 0.02, 0.98);
    const bool fromRight = at > 0.78;  // a label is ~110 px: a fifth of a 550 px plot
    const bool below = labelledAbove > 0 && labelledAbove / peak < 4;
    label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(fromRight ? 0.98 : at, peak);
    label->setPositionAlignment((fromRight ? Qt::AlignRight : Qt::AlignLeft) |
                                (below ? Qt::AlignTop : Qt::AlignBottom));
    if (!below) labelledAbove = peak;
    else labelledAbove = 0;  // the next roof is free to go above again
    label->setText(QStringLiteral("%1 %2 TFLOP/s").arg(types).arg(peak, 0, 'g', 4));
    label->setColor(theme.text());
    label->setLayer(QStringLiteral("legend"));  // above the points
    label->setBrush(QBrush(theme.background()));
    ++roofIndex;
  }
  auto* memoryLabel = new QCPItemText(plot);
  memoryLabel->setClipToAxisRect(true);
  memoryLabel->setClipAxisRect(rect);
  memoryLabel->position->setAxes(x, y);
  memoryLabel->position->setCoords(xMin * 1.5, r.dramTBs * xMin * 1.5);
  memoryLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
  memoryLabel->setRotation(-20);
  memoryLabel->setText(QStringLiteral("DRAM %1 TB/s").arg(r.dramTBs, 0, 'g', 3));
  memoryLabel->setColor(theme.text());
  memoryLabel->setLayer(QStringLiteral("legend"));
  (void)unplaced;
  plot->plotLayout()->setRowStretchFactors({0.01, 0.01, 1.0});
  setMinimumChartHeight(plot, 280);
  plot->replot();
}

}  // namespace

namespace charts {

extern const ChartDrawing roofline;
const ChartDrawing roofline{"roofline", [](QCustomPlot* plot, const AnalysisResult& r, const Trace&,
                                           const ChartTheme& theme, const QString& title, const ChartOptions&) {
                              plotRoofline(plot, analysisValue<RooflineAnalysis>(r), theme, title);
                            }};

}  // namespace charts
}  // namespace opscope::ui
