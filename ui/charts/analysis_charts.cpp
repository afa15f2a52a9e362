#include "charts/analysis_charts.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/sample_stats.h"
#include "timeline/names.h"

namespace opscope::ui {

namespace {

double ms(TimeNs ns) { return static_cast<double>(ns) / 1e6; }

QString durationText(double ns) {
  if (ns >= 1e9) return QString::number(ns / 1e9, 'f', 3) + " s";
  if (ns >= 1e6) return QString::number(ns / 1e6, 'f', 2) + " ms";
  if (ns >= 1e3) return QString::number(ns / 1e3, 'f', 1) + " µs";
  return QString::number(ns, 'f', 0) + " ns";
}

QString percent(double f) { return QString::number(100.0 * f, 'f', 1) + " %"; }

void addTitle(QCustomPlot* plot, int row, const QString& text, const ChartTheme& theme, int pointSize = 11) {
  auto* t = new QCPTextElement(plot, text, QFont(QStringLiteral("Sans"), pointSize, QFont::Bold));
  t->setTextColor(theme.text());
  plot->plotLayout()->addElement(row, 0, t);
}

QCPAxisRect* addRect(QCustomPlot* plot, int row, int col, const ChartTheme& theme) {
  auto* rect = new QCPAxisRect(plot);
  plot->plotLayout()->addElement(row, col, rect);
  styleAxisRect(rect, theme);
  return rect;
}

// Horizontal bars, one plottable per bar (each its own colour), first label on top,
// with a value text at the end of each bar.
void horizontalBars(QCPAxisRect* rect, const QStringList& labels, const std::vector<double>& values,
                    const std::vector<QColor>& colors, const QStringList& valueTexts, const QStringList& tips,
                    const QString& axisLabel, const ChartTheme& theme) {
  QCPAxis* keyAxis = rect->axis(QCPAxis::atLeft);
  QCPAxis* valueAxis = rect->axis(QCPAxis::atBottom);
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  const int n = static_cast<int>(labels.size());
  double maxValue = 0;
  for (int i = 0; i < n; ++i) {
    const double key = n - i;  // first on top
    ticker->addTick(key, labels[i]);
    auto* bars = new QCPBars(keyAxis, valueAxis);
    bars->setWidth(0.7);
    bars->setPen(Qt::NoPen);
    bars->setBrush(colors[static_cast<size_t>(i)]);
    bars->addData(key, values[static_cast<size_t>(i)]);
    bars->setProperty("tips", QStringList{tips.value(i)});
    maxValue = std::max(maxValue, values[static_cast<size_t>(i)]);
    auto* text = new QCPItemText(rect->parentPlot());
    text->setClipToAxisRect(true);
    text->setClipAxisRect(rect);
    text->position->setAxes(valueAxis, keyAxis);
    text->position->setCoords(values[static_cast<size_t>(i)], key);
    text->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    text->setPadding(QMargins(5, 0, 0, 0));
    text->setText(valueTexts.value(i));
    text->setColor(theme.text());
    text->setFont(QFont(QStringLiteral("Sans"), 8));
  }
  keyAxis->setTicker(ticker);
  keyAxis->setRange(0.4, n + 0.6);
  keyAxis->grid()->setVisible(false);
  keyAxis->setTickLabelFont(QFont(QStringLiteral("Sans"), 8));
  // Ticks outside the bars: an inward tick beside a zero-length bar read as a minus sign.
  keyAxis->setTickLength(0, 4);
  keyAxis->setSubTicks(false);
  valueAxis->setRange(0, maxValue > 0 ? maxValue * 1.22 : 1);
  valueAxis->setLabel(axisLabel);
  valueAxis->setTickLabelFont(QFont(QStringLiteral("Sans"), 8));
  // Every value text ends inside the chart: once the layout knows the rect's width W,
  // the range R satisfies v/R*W + text + pad <= W for every bar.
  const QFontMetrics fm(QFont(QStringLiteral("Sans"), 8));
  std::vector<std::pair<double, int>> ends;
  for (int i = 0; i < n; ++i)
    ends.emplace_back(values[static_cast<size_t>(i)], fm.horizontalAdvance(valueTexts.value(i)) + 12);
  QObject::connect(rect->parentPlot(), &QCustomPlot::afterLayout, rect, [rect, valueAxis, ends, maxValue] {
    const double w = rect->width();
    double range = maxValue > 0 ? maxValue * 1.02 : 1;
    for (const auto& [v, text] : ends)
      if (v > 0) range = std::max(range, w > text + 20 ? v * w / (w - text) : v * 3);
    valueAxis->setRange(0, range);
  });
}

// The height below which a chart's labels would overlap; the panel scrolls instead of
// squashing it (see chartMinimumHeight).
void setMinimumChartHeight(QCustomPlot* plot, int px) { plot->setProperty("minHeight", px); }
int barsHeight(int bars) { return 50 + 17 * std::max(1, bars); }  // axis, label, one text line a bar

// A legend in the chart's colours, with no plottables yet.
QCPLegend* themedLegend(const ChartTheme& theme) {
  auto* legend = new QCPLegend;
  legend->setFont(QFont(QStringLiteral("Sans"), 8));
  legend->setTextColor(theme.text());
  legend->setBrush(QColor(theme.background().red(), theme.background().green(), theme.background().blue(), 220));
  legend->setBorderPen(QPen(theme.grid()));
  return legend;
}

void emptyNote(QCPAxisRect* rect, const QString& text, const ChartTheme& theme) {
  auto* item = new QCPItemText(rect->parentPlot());
  item->setClipAxisRect(rect);
  item->position->setType(QCPItemPosition::ptAxisRectRatio);
  item->position->setAxisRect(rect);
  item->position->setCoords(0.5, 0.5);
  item->setText(text);
  item->setColor(theme.text());
}

}  // namespace

void plotOverview(QCustomPlot* plot, const Overview& o, const ChartTheme& theme, const QString& title) {
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  const QString device = o.hasDevice
                             ? QStringLiteral("%1 active %2 (%3)")
                                   .arg(QString::fromStdString(o.deviceKind),
                                        durationText(static_cast<double>(o.gpuActive)), percent(o.gpuUtilisation))
                             : QStringLiteral("no device: CPU-only job");
  QString figures =
      QStringLiteral("wall %1 · host runtime %2 · %3 · %4 iterations")
          .arg(durationText(static_cast<double>(o.wall)), durationText(static_cast<double>(o.hostRuntime)), device)
          .arg(o.iterations);
  if (o.samplesPerSecond) figures += QStringLiteral(" · %1 samples/s").arg(*o.samplesPerSecond, 0, 'f', 1);
  auto* sub = new QCPTextElement(plot, figures, QFont(QStringLiteral("Sans"), 9));
  sub->setTextColor(theme.text());
  plot->plotLayout()->addElement(1, 0, sub);

  QCPAxisRect* parts = addRect(plot, 2, 0, theme);
  QStringList labels, texts, tips;
  std::vector<double> values;
  std::vector<QColor> colors;
  for (size_t p = 0; p < o.breakdown.size(); ++p) {
    const QString name = QString::fromLatin1(stepPartName(static_cast<StepPart>(p)));
    const double share = o.wall ? static_cast<double>(o.breakdown[p]) / static_cast<double>(o.wall) : 0;
    labels << name;
    values.push_back(ms(o.breakdown[p]));
    colors.push_back(classColor(name));
    texts << durationText(static_cast<double>(o.breakdown[p])) + " · " + percent(share);
    tips << QStringLiteral("%1: %2 of the step (%3)")
                .arg(name, durationText(static_cast<double>(o.breakdown[p])), percent(share));
  }
  horizontalBars(parts, labels, values, colors, texts, tips, QStringLiteral("step time by part, by priority (ms)"),
                 theme);

  QCPAxisRect* streams = addRect(plot, 3, 0, theme);
  labels.clear();
  texts.clear();
  tips.clear();
  values.clear();
  colors.clear();
  for (size_t i = 0; i < o.streams.size() && i < 12; ++i) {
    const StreamActivity& s = o.streams[i];
    labels << QString::fromStdString(s.label);
    values.push_back(100.0 * s.utilisation);
    colors.push_back(paletteColor(static_cast<int>(i)));
    texts << percent(s.utilisation) + " · " + durationText(static_cast<double>(s.busy));
    tips << QStringLiteral("%1: busy %2, %L3 events")
                .arg(QString::fromStdString(s.label), durationText(static_cast<double>(s.busy)))
                .arg(s.events);
  }
  if (labels.isEmpty()) emptyNote(streams, QStringLiteral("no GPU events"), theme);
  else
    horizontalBars(streams, labels, values, colors, texts, tips, QStringLiteral("GPU stream utilisation (%)"), theme);
  plot->plotLayout()->setRowStretchFactors({0.01, 0.01, 1.0, std::max(0.4, 0.08 * static_cast<double>(labels.size()))});
  setMinimumChartHeight(
      plot, 60 + barsHeight(static_cast<int>(o.breakdown.size())) + barsHeight(static_cast<int>(labels.size())));
  plot->replot();
}

void plotBreakdown(QCustomPlot* plot, const DeviceBreakdown& b, const Trace& trace, const ChartTheme& theme,
                   const QString& title, int topN, uint32_t focus) {
  resetPlot(plot, theme);
  const bool focused = focus < b.nodes.size();
  addTitle(
      plot, 0,
      focused ? title + QStringLiteral(" · inside ") + displayName(breakdownLabel(trace, b.nodes[focus]), 60) : title,
      theme);
  QCPAxisRect* rect = addRect(plot, 1, 0, theme);
  // The first level of ops under each stream (or the children of the focus node); a
  // merged ProfilerStep#* level that holds everything is looked through.
  struct Entry {
    uint32_t node;
    uint32_t streamRank;
  };
  std::vector<Entry> entries;
  auto addLevel = [&](uint32_t parent, uint32_t rank) {
    for (uint32_t c : b.nodes[parent].children) {
      if (b.nodes[c].allSteps)
        for (uint32_t g : b.nodes[c].children) entries.push_back({g, rank});
      else entries.push_back({c, rank});
    }
  };
  if (focused) {
    uint32_t root = focus;
    while (b.nodes[root].parent != UINT32_MAX) root = b.nodes[root].parent;
    const auto rank = std::find(b.roots.begin(), b.roots.end(), root) - b.roots.begin();
    addLevel(focus, static_cast<uint32_t>(rank));
  } else {
    for (uint32_t r = 0; r < b.roots.size(); ++r) addLevel(b.roots[r], r);
  }
  std::sort(entries.begin(), entries.end(),
            [&b](const Entry& x, const Entry& y) { return b.nodes[x.node].time > b.nodes[y.node].time; });
  if (entries.size() > static_cast<size_t>(topN)) entries.resize(static_cast<size_t>(topN));
  QStringList labels, texts, tips;
  std::vector<double> values;
  std::vector<QColor> colors;
  std::vector<std::string> fullNames;
  for (const Entry& e : entries) fullNames.push_back(breakdownLabel(trace, b.nodes[e.node]));
  const QStringList shownNames = distinctDisplayNames(fullNames, kBarLabelChars);
  for (size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    const BreakdownNode& n = b.nodes[e.node];
    const QString name = QString::fromStdString(fullNames[i]);
    const QString stream = QString::fromStdString(trace.trackLabel(n.stream));
    labels << shownNames[static_cast<qsizetype>(i)] + QStringLiteral("  [") + stream.section(QStringLiteral("· "), -1) +
                  "]";
    values.push_back(ms(n.time));
    colors.push_back(paletteColor(static_cast<int>(e.streamRank)));
    texts << durationText(static_cast<double>(n.time)) + " · " + percent(n.share);
    tips << QStringLiteral("%1\n%2\n%3 of the stream's device time, %L4 GPU events")
                .arg(name, stream, percent(n.share))
                .arg(n.count);
  }
  if (labels.isEmpty()) emptyNote(rect, QStringLiteral("no GPU events"), theme);
  else
    horizontalBars(rect, labels, values, colors, texts, tips, QStringLiteral("device time (ms), colour = stream"),
                   theme);
  setMinimumChartHeight(plot, 30 + barsHeight(static_cast<int>(labels.size())));
  plot->replot();
}

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

void plotKernelStats(QCustomPlot* plot, const KernelStats& k, const Trace& trace, const ChartTheme& theme,
                     const QString& title, int topN) {
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  auto fill = [&](QCPAxisRect* rect, bool byMean) {
    std::vector<const KernelStat*> rows;
    for (const KernelStat& s : k.kernels) rows.push_back(&s);
    if (byMean)
      std::stable_sort(rows.begin(), rows.end(),
                       [](const KernelStat* a, const KernelStat* b) { return a->mean > b->mean; });
    if (rows.size() > static_cast<size_t>(topN)) rows.resize(static_cast<size_t>(topN));
    QStringList labels, texts, tips;
    std::vector<double> values;
    std::vector<QColor> colors;
    std::vector<std::string> fullNames;
    for (const KernelStat* s : rows) fullNames.emplace_back(trace.str(s->name));
    const QStringList shownNames = distinctDisplayNames(fullNames, kKernelLabelChars);
    for (size_t r = 0; r < rows.size(); ++r) {
      const KernelStat* s = rows[r];
      const QString name = QString::fromStdString(std::string(trace.str(s->name)));
      const QString cls =
          s->cls >= 0 ? QString::fromStdString(k.classes[static_cast<size_t>(s->cls)]) : QStringLiteral("other");
      labels << shownNames[static_cast<qsizetype>(r)];
      values.push_back(byMean ? s->mean / 1e3 : ms(s->total));
      colors.push_back(classColor(cls));
      texts << (byMean ? durationText(s->mean) + QStringLiteral(" ± ") + durationText(s->stddev)
                       : durationText(static_cast<double>(s->total)) + " · " + percent(s->share));
      tips << QStringLiteral("%1\nclass %2 · %L3 calls\ntotal %4 (%5) · mean %6 · min %7 · max %8 · std %9")
                  .arg(name, cls)
                  .arg(s->count)
                  .arg(durationText(static_cast<double>(s->total)), percent(s->share), durationText(s->mean),
                       durationText(static_cast<double>(s->min)), durationText(static_cast<double>(s->max)),
                       durationText(s->stddev));
    }
    if (labels.isEmpty()) emptyNote(rect, QStringLiteral("no GPU events"), theme);
    else
      horizontalBars(rect, labels, values, colors, texts, tips,
                     byMean ? QStringLiteral("top %1 by mean duration (µs), colour = kernel class").arg(topN)
                            : QStringLiteral("top %1 by total time (ms), colour = kernel class").arg(topN),
                     theme);
  };
  fill(addRect(plot, 1, 0, theme), false);
  fill(addRect(plot, 2, 0, theme), true);
  setMinimumChartHeight(plot, 30 + 2 * barsHeight(topN));
  plot->replot();
}

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
  value->setLabel(r.communication > 0
                      ? QStringLiteral("ms of the window · communication %1, %2 of it hidden under compute")
                            .arg(durationText(static_cast<double>(r.communication)), percent(r.commHiddenShare))
                      : QStringLiteral("ms of the window"));
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
  util->axis(QCPAxis::atLeft)->setLabel(QStringLiteral("GPU busy (%)"));
  // Three labelled ticks: a short utilisation strip had a label every 20 %, on top of each other.
  auto percentTicks = QSharedPointer<QCPAxisTickerText>::create();
  percentTicks->addTicks({0, 50, 100}, {QStringLiteral("0"), QStringLiteral("50"), QStringLiteral("100")});
  util->axis(QCPAxis::atLeft)->setTicker(percentTicks);
  util->axis(QCPAxis::atLeft)->setSubTicks(false);
  plot->plotLayout()->setRowStretchFactors({0.01, 0.01, 1.0, 0.6});
  setMinimumChartHeight(plot, 50 + barsHeight(n) + 160);
  plot->replot();
}

namespace {

// A gradient through evenly spaced stops, in RGB, NaN cells left transparent.
QCPColorGradient gradientThrough(std::initializer_list<QColor> stops) {
  QCPColorGradient gradient;
  gradient.clearColorStops();
  double at = 0;
  const double step = 1.0 / static_cast<double>(std::max<size_t>(1, stops.size() - 1));
  for (const QColor& c : stops) {
    gradient.setColorStopAt(std::min(1.0, at), c);
    at += step;
  }
  gradient.setColorInterpolation(QCPColorGradient::ciRGB);
  gradient.setNanHandling(QCPColorGradient::nhTransparent);
  return gradient;
}

// Viridis (not in Debian's QCustomPlot 2.1): ordered in lightness, readable by the
// colour-blind and in greyscale print.
QCPColorGradient viridis() {
  return gradientThrough({QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b), QColor(0x21, 0x91, 0x8c),
                          QColor(0x5e, 0xc9, 0x62), QColor(0xfd, 0xe7, 0x25)});
}

// Blue below the median, white at it, red above (ColorBrewer RdBu): a kernel that runs
// slower on one rank than on the others stands out in either theme.
QCPColorGradient aboveBelow() {
  return gradientThrough({QColor(0x21, 0x66, 0xac), QColor(0x92, 0xc5, 0xde), QColor(0xf7, 0xf7, 0xf7),
                          QColor(0xf4, 0xa5, 0x82), QColor(0xb2, 0x18, 0x2b)});
}

// A colour scale beside rect (layout column 1 of its row), sharing its top and bottom.
void addColorScale(QCustomPlot* plot, int row, QCPAxisRect* rect, QCPColorMap* map, const QString& label,
                   const ChartTheme& theme) {
  auto* scale = new QCPColorScale(plot);
  plot->plotLayout()->addElement(row, 1, scale);
  scale->setType(QCPAxis::atRight);
  scale->setGradient(map->gradient());
  scale->setDataRange(map->dataRange());
  scale->axis()->setLabel(label);
  scale->axis()->setLabelColor(theme.text());
  scale->axis()->setTickLabelColor(theme.text());
  scale->axis()->setBasePen(QPen(theme.text()));
  scale->axis()->setTickPen(QPen(theme.text()));
  scale->axis()->setSubTickPen(QPen(theme.text()));
  map->setColorScale(scale);
  auto* margins = new QCPMarginGroup(plot);
  rect->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
  scale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
}

// A kernel's name short enough for an axis: the function's last name component without
// return type, namespaces or parameters, plus its first template argument when it has
// one (cutlass::Kernel<cutlass_80_tensorop_s1688gemm_…> is told apart by it), elided.
QString shortKernelName(const std::string& name) {
  QString s = QString::fromStdString(name);
  s.remove(QStringLiteral("(anonymous namespace)::"));
  if (s.startsWith(QStringLiteral("void "))) s = s.mid(5);
  const qsizetype paren = s.indexOf(QLatin1Char('('));
  if (paren > 0) s.truncate(paren);
  QString args;
  if (const qsizetype angle = s.indexOf(QLatin1Char('<')); angle > 0) {
    args = s.mid(angle + 1);
    s.truncate(angle);
    int depth = 0;
    qsizetype cut = args.size();
    for (qsizetype i = 0; i < args.size(); ++i) {
      const QChar c = args[i];
      if (c == QLatin1Char('<')) ++depth;
      else if ((c == QLatin1Char('>') && depth-- == 0) || (c == QLatin1Char(',') && depth == 0)) {
        cut = i;
        break;
      }
    }
    args = args.left(cut).trimmed();
    if (const qsizetype colon = args.lastIndexOf(QStringLiteral("::")); colon >= 0 && !args.contains(QLatin1Char('<')))
      args = args.mid(colon + 2);
  }
  if (const qsizetype colon = s.lastIndexOf(QStringLiteral("::")); colon >= 0) s = s.mid(colon + 2);
  if (!args.isEmpty()) s += QLatin1Char('<') + args + QLatin1Char('>');
  if (s.size() > 30) s = s.left(29) + QStringLiteral("…");
  return s;
}

// Ranks × the job's top kernels: each rank's time in a kernel against the median of the
// ranks for it, so the kernel that makes a rank slow shows in its row.
void plotKernelsPerRank(QCustomPlot* plot, int row, const RankTable& t, const ChartTheme& theme,
                        const QSharedPointer<QCPAxisTickerText>& rankTicks, QCPMarginGroup* left) {
  QCPAxisRect* rect = addRect(plot, row, 0, theme);
  rect->setMarginGroup(QCP::msLeft, left);
  QCPAxis* x = rect->axis(QCPAxis::atBottom);
  QCPAxis* y = rect->axis(QCPAxis::atLeft);
  const int n = static_cast<int>(t.rows.size());
  const int k = static_cast<int>(t.kernelNames.size());
  auto* map = new QCPColorMap(x, y);
  map->data()->setSize(std::max(1, k), std::max(1, n));
  map->data()->setRange(QCPRange(0, std::max(0, k - 1)), QCPRange(0, std::max(0, n - 1)));
  std::vector<double> median(static_cast<size_t>(k), 0);
  for (int c = 0; c < k; ++c) {
    std::vector<double> known;
    for (const RankRow& r : t.rows)
      if (static_cast<size_t>(c) < r.kernelTime.size() && r.kernelTime[static_cast<size_t>(c)] >= 0)
        known.push_back(static_cast<double>(r.kernelTime[static_cast<size_t>(c)]));
    median[static_cast<size_t>(c)] = known.empty() ? 0 : medianOf(known);
  }
  double extreme = 5;  // at least ±5 %: equal ranks stay pale
  QStringList tips;
  for (int r = 0; r < n; ++r) {
    const RankRow& rr = t.rows[static_cast<size_t>(r)];
    for (int c = 0; c < k; ++c) {
      const TimeNs v = static_cast<size_t>(c) < rr.kernelTime.size() ? rr.kernelTime[static_cast<size_t>(c)] : -1;
      const double m = median[static_cast<size_t>(c)];
      const double pct = v < 0 || m <= 0 ? std::nan("") : (static_cast<double>(v) / m - 1) * 100;
      map->data()->setCell(c, r, pct);
      if (!std::isnan(pct)) extreme = std::max(extreme, std::abs(pct));
      tips.append(QStringLiteral("rank %1 · %2\n%3")
                      .arg(rr.rank)
                      .arg(QString::fromStdString(t.kernelNames[static_cast<size_t>(c)]).left(160))
                      .arg(v < 0 ? QStringLiteral("not among this rank's top kernels")
                                 : QStringLiteral("%1 (%2%3 % against the median rank)")
                                       .arg(durationText(static_cast<double>(v)))
                                       .arg(pct >= 0 ? QStringLiteral("+") : QString())
                                       .arg(pct, 0, 'f', 1)));
    }
  }
  map->setProperty("tips", tips);
  map->setGradient(aboveBelow());
  map->setDataRange(QCPRange(-extreme, extreme));
  map->setInterpolate(false);
  addColorScale(plot, row, rect, map, QStringLiteral("% against the median rank"), theme);
  y->setTicker(rankTicks);
  y->setRange(-0.5, n - 0.5);
  y->setRangeReversed(true);
  y->grid()->setVisible(false);
  y->setTickLabelFont(QFont(QStringLiteral("Sans"), 8));
  auto names = QSharedPointer<QCPAxisTickerText>::create();
  std::map<QString, int> seen;  // two kernels cut to one text are numbered
  for (int c = 0; c < k; ++c) {
    QString label = shortKernelName(t.kernelNames[static_cast<size_t>(c)]);
    if (const int n = ++seen[label]; n > 1) label += QStringLiteral(" #%1").arg(n);
    names->addTick(c, label);
  }
  x->setTicker(names);
  x->setRange(-0.5, std::max(0, k - 1) + 0.5);
  x->setTickLabelRotation(30);
  x->setTickLabelFont(QFont(QStringLiteral("Sans"), 8));
  x->grid()->setVisible(false);
  x->setLabel(QStringLiteral("time in the job's top kernels (most time first), per rank"));
  if (k == 0) emptyNote(rect, QStringLiteral("no kernels"), theme);
}

}  // namespace

void plotRanks(QCustomPlot* plot, const RankTable& t, const ChartTheme& theme, const QString& title) {
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  const int n = static_cast<int>(t.rows.size());
  const int iters = static_cast<int>(t.maxIterations);
  std::map<int64_t, double> excess;
  for (const Straggler& s : t.stragglers) excess[s.rank] = s.excessPct;
  // Rank tick labels: every rank up to 32, else every k-th and every straggler.
  const int every = std::max(1, (n + 31) / 32);
  auto rankTicks = [&] {
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < n; ++i) {
      const RankRow& r = t.rows[static_cast<size_t>(i)];
      const auto slow = excess.find(r.rank);
      if (slow != excess.end())
        ticker->addTick(i, QStringLiteral("rank %1 · +%2 %").arg(r.rank).arg(slow->second, 0, 'f', 1));
      else if (i % every == 0) ticker->addTick(i, QStringLiteral("rank %1").arg(r.rank));
    }
    return ticker;
  };

  QCPAxisRect* heat = addRect(plot, 1, 0, theme);
  QCPAxis* x = heat->axis(QCPAxis::atBottom);
  QCPAxis* y = heat->axis(QCPAxis::atLeft);
  auto* map = new QCPColorMap(x, y);
  map->data()->setSize(std::max(1, iters), std::max(1, n));
  map->data()->setRange(QCPRange(0, std::max(0, iters - 1)), QCPRange(0, std::max(0, n - 1)));
  double lo = 0, hi = 0;
  bool any = false;
  QStringList heatTips;  // row-major: rank by rank, iteration by iteration
  for (int r = 0; r < n; ++r)
    for (int i = 0; i < iters; ++i) {
      const auto& walls = t.rows[static_cast<size_t>(r)].iterationWall;
      const double v = i < static_cast<int>(walls.size()) ? ms(walls[static_cast<size_t>(i)]) : std::nan("");
      map->data()->setCell(i, r, v);
      heatTips.append(std::isnan(v) ? QString()
                                    : QStringLiteral("rank %1, iteration %2\nwall time %3")
                                          .arg(t.rows[static_cast<size_t>(r)].rank)
                                          .arg(i)
                                          .arg(durationText(static_cast<double>(walls[static_cast<size_t>(i)]))));
      if (std::isnan(v)) continue;
      lo = any ? std::min(lo, v) : v;
      hi = any ? std::max(hi, v) : v;
      any = true;
    }
  map->setProperty("tips", heatTips);
  map->setGradient(viridis());
  map->setDataRange(QCPRange(lo, hi > lo ? hi : lo + 1e-3));
  map->setInterpolate(false);
  addColorScale(plot, 1, heat, map, QStringLiteral("iteration wall time (ms)"), theme);
  y->setTicker(rankTicks());
  y->setRange(-0.5, n - 0.5);
  y->setRangeReversed(true);  // rank 0 on top, as in the timeline
  y->grid()->setVisible(false);
  y->setTickLabelFont(QFont(QStringLiteral("Sans"), 8));
  x->setRange(-0.5, std::max(0, iters - 1) + 0.5);
  auto whole = QSharedPointer<QCPAxisTickerFixed>::create();  // iterations are counted, never halved
  whole->setTickStep(1);
  whole->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  x->setTicker(whole);
  x->setLabel(QStringLiteral("iteration (ProfilerStep, in order) · stragglers: mean > %1 % over the median")
                  .arg(t.stragglerPct));
  x->grid()->setVisible(false);
  if (!any) emptyNote(heat, QStringLiteral("no ProfilerStep iterations on any rank"), theme);

  auto* left = new QCPMarginGroup(plot);  // rank labels of every chart in one column
  heat->setMarginGroup(QCP::msLeft, left);
  const int rowsPx = 14 * std::min(n, 32);
  const bool kernels = !t.kernelNames.empty();
  if (!t.collectivesMeasured) {  // a cluster table: iteration times and top kernels only
    if (kernels) plotKernelsPerRank(plot, 2, t, theme, rankTicks(), left);
    plot->plotLayout()->setRowStretchFactors(kernels ? QList<double>{0.01, 1.0, 1.0} : QList<double>{0.01, 1.0});
    setMinimumChartHeight(plot, 60 + (kernels ? 2 : 1) * (60 + rowsPx) + (kernels ? 110 : 0));
    plot->replot();
    return;
  }
  // Collectives per rank: waiting for the slowest rank, and the rest of their time.
  QCPAxisRect* coll = addRect(plot, 3, 0, theme);
  QCPAxis* key = coll->axis(QCPAxis::atLeft);
  QCPAxis* value = coll->axis(QCPAxis::atBottom);
  const QString parts[] = {QStringLiteral("waiting for the slowest rank"), QStringLiteral("rest of the collective")};
  const QColor colors[] = {paletteColor(1), paletteColor(0)};
  // The legend in a row of its own between the two charts, in one line.
  QCPLegend* legend = themedLegend(theme);
  plot->plotLayout()->addElement(2, 0, legend);
  legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  legend->setLayer(QStringLiteral("legend"));
  coll->setMarginGroup(QCP::msLeft, left);
  QCPBars* below = nullptr;
  double top = 0;
  bool anyCollective = false;
  for (int p = 0; p < 2; ++p) {
    auto* bars = new QCPBars(key, value);
    bars->setName(parts[p]);
    bars->setWidth(0.7);
    bars->setPen(Qt::NoPen);
    bars->setBrush(colors[p]);
    QStringList tips;
    for (int i = 0; i < n; ++i) {
      const RankRow& r = t.rows[static_cast<size_t>(i)];
      const CollectiveWait& c = r.collectives;
      const TimeNs v = p == 0 ? c.wait : std::max<TimeNs>(0, c.total - c.wait);
      bars->addData(i, ms(v));
      top = std::max(top, ms(c.total));
      anyCollective |= c.count > 0;
      tips.append(QStringLiteral("rank %1\n%2: %3 of %4 in %L5 collectives (%6 matched on every rank)")
                      .arg(r.rank)
                      .arg(parts[p], durationText(static_cast<double>(v)), durationText(static_cast<double>(c.total)))
                      .arg(c.count)
                      .arg(c.matched));
    }
    bars->setProperty("tips", tips);
    if (below) bars->moveAbove(below);
    below = bars;
    bars->addToLegend(legend);
  }
  key->setTicker(rankTicks());
  key->setRange(-0.6, n - 0.4);
  key->setRangeReversed(true);
  key->grid()->setVisible(false);
  key->setTickLabelFont(QFont(QStringLiteral("Sans"), 8));
  value->setRange(0, std::max(1e-3, top * 1.05));
  value->setLabel(QStringLiteral("ms in collectives (NCCL/RCCL kernels)"));
  if (!anyCollective) {
    legend->setVisible(false);
    emptyNote(coll,
              n > 1 ? QStringLiteral("no collective kernels")
                    : QStringLiteral("one rank: open a folder of rank traces (File ▸ Open folder of ranks)"),
              theme);
  }
  if (kernels) plotKernelsPerRank(plot, 4, t, theme, rankTicks(), left);
  plot->plotLayout()->setRowStretchFactors(kernels ? QList<double>{0.01, 1.0, 0.01, 0.8, 1.0}
                                                   : QList<double>{0.01, 1.0, 0.01, 0.8});
  setMinimumChartHeight(plot, 60 + (kernels ? 3 : 2) * (60 + rowsPx) + (kernels ? 110 : 0));
  plot->replot();
}

void plotMemory(QCustomPlot* plot, const MemoryTimeline& m, const Trace& trace, const ChartTheme& theme,
                const QString& title) {
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  if (m.devices.empty()) {
    QCPAxisRect* rect = addRect(plot, 1, 0, theme);
    emptyNote(rect, QStringLiteral("no [memory] events: record with torch.profiler.profile(profile_memory=True)"),
              theme);
    setMinimumChartHeight(plot, 200);
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

void plotAdvice(QCustomPlot* plot, const std::vector<Advice>& advice, const ChartTheme& theme, const QString& title) {
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  QCPAxisRect* rect = addRect(plot, 1, 0, theme);
  if (advice.empty()) {
    emptyNote(rect, QStringLiteral("nothing stands out: no rule found time at stake"), theme);
    setMinimumChartHeight(plot, 160);
    plot->replot();
    return;
  }
  QStringList labels, texts, tips;
  std::vector<double> values;
  std::vector<QColor> colors;
  for (size_t i = 0; i < advice.size(); ++i) {
    const Advice& a = advice[i];
    labels << QString::fromStdString(a.id).replace(QLatin1Char('_'), QLatin1Char(' '));
    values.push_back(ms(a.atStake));
    colors.push_back(paletteColor(static_cast<int>(i)));
    texts << durationText(static_cast<double>(a.atStake)) + QStringLiteral(" · %1 %").arg(a.sharePct, 0, 'f', 1);
    tips << QString::fromStdString(a.title + "\ntry: " + a.action);
  }
  horizontalBars(rect, labels, values, colors, texts, tips,
                 QStringLiteral("time at stake (ms): at most this much could be gained"), theme);
  setMinimumChartHeight(plot, 60 + barsHeight(static_cast<int>(advice.size())));
  plot->replot();
}

QString chartTipAt(QCustomPlot* plot, const QPoint& pos) {
  // Heatmaps by their axis rect: a map's data range spans cell centres, so the outer
  // half of its edge cells is no hit for plottableAt.
  for (int i = 0; i < plot->plottableCount(); ++i) {
    auto* map = qobject_cast<QCPColorMap*>(plot->plottable(i));
    if (!map || !map->keyAxis()->axisRect()->rect().contains(pos)) continue;
    const QStringList tips = map->property("tips").toStringList();
    const QCPColorMapData* d = map->data();
    int key = -1, value = -1;
    d->coordToCell(map->keyAxis()->pixelToCoord(pos.x()), map->valueAxis()->pixelToCoord(pos.y()), &key, &value);
    if (key < 0 || value < 0 || key >= d->keySize() || value >= d->valueSize()) return {};
    const int index = value * d->keySize() + key;
    return index < tips.size() ? tips[index] : QString();
  }
  int index = -1;
  QCPAbstractPlottable* p = plot->plottableAt(pos, true, &index);
  if (!p) return {};
  const QStringList tips = p->property("tips").toStringList();
  return index >= 0 && index < tips.size() ? tips[index] : QString();
}

int chartMinimumHeight(const QCustomPlot* plot) { return plot->property("minHeight").toInt(); }

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

}  // namespace opscope::ui
