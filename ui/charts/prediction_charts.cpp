#include "charts/prediction_charts.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "timeline/names.h"

namespace opscope::ui {

namespace {

QCPScatterStyle::ScatterShape modelShape(const QString& model) {
  static const QCPScatterStyle::ScatterShape shapes[] = {
      QCPScatterStyle::ssDisc,    QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
      QCPScatterStyle::ssDiamond, QCPScatterStyle::ssCross,  QCPScatterStyle::ssTriangleInverted,
      QCPScatterStyle::ssPlus};
  return shapes[modelShapeIndex(model)];
}

}  // namespace

void plotPrediction(QCustomPlot* plot, const PredictionResult& r, const Trace& trace, const ChartTheme& theme,
                    const QString& title, const QString& opFilter) {
  resetPlot(plot, theme);
  auto* head = new QCPTextElement(plot, title, QFont(QStringLiteral("Sans"), 11, QFont::Bold));
  head->setTextColor(theme.text());
  plot->plotLayout()->addElement(0, 0, head);

  // Points of the ops with a prediction, grouped by model.
  struct Point {
    double measured, predicted;
    int op;
  };
  std::map<std::string, std::vector<Point>> byModel;
  std::vector<double> errors;
  double lo = INFINITY, hi = 0;
  for (size_t i = 0; i < r.ops.size(); ++i) {
    const OpRow& row = r.ops[i];
    if (!row.predictedUs || row.measuredGpu <= 0) continue;
    if (!opFilter.isEmpty() && QString::fromUtf8(trace.name(row.op)) != opFilter) continue;
    const double m = static_cast<double>(row.measuredGpu) / 1e3, p = std::max(*row.predictedUs, 1e-3);
    byModel[row.model].push_back({m, p, static_cast<int>(i)});
    if (m > kSampledOutUs) errors.push_back(errorPct(p, m));  // as the figures of `predict`
    lo = std::min({lo, m, p});
    hi = std::max({hi, m, p});
  }
  const ErrorFigures e = errorFigures(errors);
  QString sub;
  const bool whatIf = isWhatIf(r);
  if (!errors.empty() && whatIf) {
    std::vector<double> ratios;
    for (double err : errors) ratios.push_back(1 + err / 100);
    std::nth_element(ratios.begin(), ratios.begin() + static_cast<std::ptrdiff_t>(ratios.size() / 2), ratios.end());
    sub = QStringLiteral(
              "%L1 ops · a what-if: the trace ran on %2; median predicted / measured %3× · models cover %4 % of the "
              "measured GPU time")
              .arg(e.count)
              .arg(QString::fromStdString(r.setup.calibrationGpu->name))
              .arg(ratios[ratios.size() / 2], 0, 'f', 2)
              .arg(100 * r.coverage, 0, 'f', 1);
  } else
    sub = errors.empty() ? QStringLiteral("no op with a model in this selection")
                         : QStringLiteral(
                               "%L1 ops · GMAE %2 % · mean |error| %3 % (std %4) · signed mean %5 % · models cover %6 "
                               "% of the measured GPU time")
                               .arg(e.count)
                               .arg(e.gmaePct, 0, 'f', 1)
                               .arg(e.meanPct, 0, 'f', 1)
                               .arg(e.stdPct, 0, 'f', 1)
                               .arg(e.signedMeanPct, 0, 'f', 1)
                               .arg(100 * r.coverage, 0, 'f', 1);
  auto* subtitle = new QCPTextElement(plot, sub, QFont(QStringLiteral("Sans"), 9));
  subtitle->setTextColor(theme.text());
  plot->plotLayout()->addElement(1, 0, subtitle);

  if (errors.empty()) {
    // No empty axes pretending to be a result.
    auto* note = new QCPTextElement(plot,
                                    opFilter.isEmpty()
                                        ? QStringLiteral("No modelled ops: no op with GPU time here has a model for "
                                                         "its kind\n(the table below lists them, with \"no model\").")
                                        : QStringLiteral("No modelled op named %1.").arg(opFilter),
                                    QFont(QStringLiteral("Sans"), 10));
    note->setTextColor(theme.text());
    plot->plotLayout()->addElement(2, 0, note);
    plot->plotLayout()->setRowStretchFactors({0.01, 0.01, 1.0});
    plot->setProperty("minHeight", 140);
    plot->replot();
    return;
  }

  // The legend in a row of its own above the charts: inside the scatter it hid points.
  auto* legend = new QCPLegend;
  plot->plotLayout()->addElement(2, 0, legend);
  legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  legend->setWrap(4);
  legend->setMargins(QMargins(6, 2, 6, 2));
  legend->setLayer(QStringLiteral("legend"));
  legend->setFont(QFont(QStringLiteral("Sans"), 8));
  legend->setTextColor(theme.text());
  legend->setBrush(theme.background());
  legend->setBorderPen(Qt::NoPen);
  plot->plotLayout()->setRowSpacing(2);
  auto* row = new QCPLayoutGrid;
  plot->plotLayout()->addElement(3, 0, row);
  auto* scatter = new QCPAxisRect(plot);
  auto* histogram = new QCPAxisRect(plot);
  row->addElement(0, 0, scatter);
  row->addElement(0, 1, histogram);
  row->setColumnStretchFactors({1.2, 1.0});
  styleAxisRect(scatter, theme);
  styleAxisRect(histogram, theme);

  QCPAxis* x = scatter->axis(QCPAxis::atBottom);
  QCPAxis* y = scatter->axis(QCPAxis::atLeft);
  if (lo > hi) {
    lo = 1;
    hi = 1000;
  }
  lo = std::pow(10, std::floor(std::log10(lo)));
  hi = std::pow(10, std::ceil(std::log10(hi)));
  if (hi <= lo) hi = lo * 10;
  for (QCPAxis* a : {x, y}) {
    a->setScaleType(QCPAxis::stLogarithmic);
    a->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    a->setNumberFormat(QStringLiteral("gb"));
    a->setRange(lo, hi);
    a->setTickLabelFont(QFont(QStringLiteral("Sans"), 8));
  }
  x->setLabel(QStringLiteral("measured GPU time per op (µs)"));
  y->setLabel(QStringLiteral("predicted (µs)"));
  // The ±10 % band and y = x: straight lines on log-log axes.
  auto line = [&](double factor, const QPen& pen) {
    auto* g = new QCPGraph(x, y);
    g->addData(lo, lo * factor);
    g->addData(hi, hi * factor);
    g->setPen(pen);
    return g;
  };
  QColor band = theme.text();
  band.setAlpha(theme.dark ? 60 : 45);
  QColor edge = theme.text();
  edge.setAlpha(90);
  QCPGraph* low = line(0.9, QPen(edge, 1));
  QCPGraph* high = line(1.1, QPen(edge, 1));
  high->setBrush(band);
  high->setChannelFillGraph(low);
  high->setName(QStringLiteral("±10 %"));
  QCPGraph* diagonal = line(1.0, QPen(theme.text(), 1, Qt::DashLine));
  diagonal->setName(QStringLiteral("predicted = measured"));

  legend->addItem(new QCPPlottableLegendItem(legend, diagonal));
  legend->addItem(new QCPPlottableLegendItem(legend, high));
  for (const auto& [model, points] : byModel) {
    // A curve keeps the data in insertion order, so a clicked index is a point's index.
    auto* curve = new QCPCurve(x, y);
    curve->setLineStyle(QCPCurve::lsNone);
    const QString name = QString::fromStdString(model);
    const QColor c = modelColor(name, theme.dark);
    curve->setScatterStyle(QCPScatterStyle(modelShape(name), c, c, 6));
    QVariantList ops;
    QStringList tips;
    for (size_t i = 0; i < points.size(); ++i) {
      curve->addData(static_cast<double>(i), points[i].measured, points[i].predicted);
      ops << points[i].op;
      const OpRow& op = r.ops[static_cast<size_t>(points[i].op)];
      tips << QStringLiteral("%1\nmeasured %2 µs, predicted %3 µs (%4 %)\n%5%6")
                  .arg(QString::fromUtf8(trace.name(op.op)))
                  .arg(points[i].measured, 0, 'f', 1)
                  .arg(points[i].predicted, 0, 'f', 1)
                  .arg(errorPct(points[i].predicted, points[i].measured), 0, 'f', 1)
                  .arg(QString::fromStdString(model),
                       op.shapes.empty() ? QString()
                                         : QStringLiteral(" · ") + elideMiddle(QString::fromStdString(op.shapes), 80));
    }
    curve->setProperty("ops", ops);
    curve->setProperty("tips", tips);
    curve->setName(QStringLiteral("%1 (%2)").arg(QString::fromStdString(model)).arg(points.size()));
    legend->addItem(new QCPPlottableLegendItem(legend, curve));
  }

  // Histogram of the signed error, 10 % bins from -100 % to +200 %, the rest in the end
  // bins. On a what-if GPU the "errors" are against another GPU's times (a V100 against
  // an H100's: +300 %, all in the last bin): there the histogram shows predicted /
  // measured on a log scale, quarter-octave bins from 1/8x to 32x (FP32 convolutions on a
  // V100 against TF32 ones on an H100 run 40x slower: the last bin).
  QCPAxis* hx = histogram->axis(QCPAxis::atBottom);
  QCPAxis* hy = histogram->axis(QCPAxis::atLeft);
  const int kBins = whatIf ? 32 : 30;
  const double binWidth = whatIf ? 0.25 : 10, first = whatIf ? -3 : -100;
  std::vector<double> counts(static_cast<size_t>(kBins), 0);
  for (double err : errors) {
    const double x = whatIf ? std::log2(std::max(1 + err / 100, 1e-6)) : err;
    const int b = std::clamp(static_cast<int>(std::floor((x - first) / binWidth)), 0, kBins - 1);
    counts[static_cast<size_t>(b)] += 1;
  }
  auto* bars = new QCPBars(hx, hy);
  bars->setWidth(binWidth);
  bars->setPen(Qt::NoPen);
  bars->setBrush(paletteColor(0));
  double top = 1;
  for (int b = 0; b < kBins; ++b) {
    bars->addData(first + binWidth * b + binWidth / 2, counts[static_cast<size_t>(b)]);
    top = std::max(top, counts[static_cast<size_t>(b)]);
  }
  hx->setRange(first, first + binWidth * kBins);
  if (whatIf) {
    QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
    for (int e = -3; e <= 5; ++e)
      ticks->addTick(e, e < 0 ? QStringLiteral("1/%1×").arg(1 << -e) : QStringLiteral("%1×").arg(1 << e));
    hx->setTicker(ticks);
    hx->setLabel(QStringLiteral("predicted / measured on %1 (log scale), ≥ 27× in the last bin")
                     .arg(QString::fromStdString(r.setup.calibrationGpu->name)));
  } else {
    hx->setLabel(QStringLiteral("error of the prediction (%), ≥ 190 % in the last bin"));
  }
  hy->setRange(0, top * 1.1);
  hy->setLabel(QStringLiteral("ops"));
  for (QCPAxis* a : {hx, hy}) a->setTickLabelFont(QFont(QStringLiteral("Sans"), 8));
  auto* zero = new QCPItemStraightLine(plot);
  zero->setClipAxisRect(histogram);
  zero->point1->setAxes(hx, hy);
  zero->point2->setAxes(hx, hy);
  zero->point1->setCoords(0, 0);
  zero->point2->setCoords(0, 1);
  zero->setPen(QPen(theme.text(), 1, Qt::DashLine));
  plot->plotLayout()->setRowStretchFactors({0.01, 0.01, 0.01, 1.0});
  plot->setProperty("minHeight", 340);
  plot->replot();
}

}  // namespace opscope::ui
