// Ranks × iterations heatmap, collective time per rank, ranks × the job's top kernels.
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "charts/analysis_charts.h"
#include "charts/chart_kinds.h"
#include "charts/chart_parts.h"
#include "ranks/rank_table.h"
#include "timeline/names.h"

namespace opscope::ui {

using namespace parts;

namespace {

// A heatmap's cells: 14 px a rank up to 32 ranks, never under 60 px (the colour scale's
// ticks and title need it).
int heatmapHeight(int ranks) { return std::max(60, 14 * std::min(ranks, 32)); }

// The heatmaps' rows: one a rank while the ranks fit the heatmap's pixel rows, else runs
// of consecutive ranks, each drawn as its most extreme rank. QCPColorMap scales its cells
// to the rect without smoothing, so 10^5 ranks in 448 px showed every ~220th rank (moiré
// stripes, and a straggler between two shown ranks not at all).
// Heatmap row b covers the rank axis' coordinates −0.5 + b·cell … −0.5 + (b + 1)·cell
// (cell = rows / bins ≥ 1, shapeHeatmap), and a rank sits at its row number, so rank r
// belongs to the heatmap row its centre falls in: ⌊(r + 0.5) / cell⌋. Binned by its top
// edge instead, the last rank of a run was drawn one row above its label and tip.
struct RankBins {
  int rows = 0;  // ranks (table rows)
  int bins = 0;  // heatmap rows: rows itself, or at most heatmapHeight(rows)
  int of(int row) const { return static_cast<int>((2 * static_cast<int64_t>(row) + 1) * bins / (2 * int64_t{rows})); }
  // The first rank of heatmap row `bin` (first(bins) == rows): the least r with
  // (2r + 1)·bins ≥ 2·bin·rows. Every row holds at least one rank (cell ≥ 1).
  int first(int bin) const {
    const int64_t num = 2 * static_cast<int64_t>(bin) * rows - bins;
    return num <= 0 ? 0 : static_cast<int>((num + 2 * int64_t{bins} - 1) / (2 * int64_t{bins}));
  }
  bool grouped() const { return bins < rows; }
};
RankBins rankBins(int rows) { return RankBins{rows, std::min(rows, heatmapHeight(rows))}; }

// QCPColorMap draws nothing along a dimension of one cell (its range is a point: a table
// of one-iteration ranks showed an empty heatmap). Such a dimension gets two equal cells
// over −0.25…0.25, which together cover the cell's −0.5…0.5; setHeatCell fills both.
// Grouped ranks: `values` cells spread evenly over the rows −0.5…rows−0.5, so the rank
// axis keeps counting rows (its labels, a click's row) whatever the grouping.
void shapeHeatmap(QCPColorMap* map, int keys, int values, int rows = -1) {
  auto range = [](int cells) { return cells == 1 ? QCPRange(-0.25, 0.25) : QCPRange(0, std::max(0, cells - 1)); };
  map->data()->setSize(keys == 1 ? 2 : std::max(1, keys), values == 1 ? 2 : std::max(1, values));
  QCPRange valueRange = range(values);
  if (rows > values && values > 1) {
    const double cell = static_cast<double>(rows) / values;
    valueRange = QCPRange(-0.5 + cell / 2, rows - 0.5 - cell / 2);
  }
  map->data()->setRange(range(keys), valueRange);
}

// Values in the order of the map's cells (chartTipAt reads cell value * keySize + key)
// from one a logical cell: a dimension shapeHeatmap doubled repeats its one value (one
// kernel or one iteration had the tips of the next row's cell, or none).
template <typename T>
QList<T> perCell(const QCPColorMap* map, const QList<T>& logical, int keys, const T& none = T()) {
  const QCPColorMapData* d = map->data();
  const bool keyDoubled = d->keyRange().lower < 0, valueDoubled = d->valueRange().lower < 0;
  QList<T> out;
  out.reserve(d->keySize() * d->valueSize());
  for (int v = 0; v < d->valueSize(); ++v)
    for (int k = 0; k < d->keySize(); ++k)
      out.append(logical.value((valueDoubled ? 0 : v) * keys + (keyDoubled ? 0 : k), none));
  return out;
}

// The map's tips, and the table row each cell shows ("cellRows": a click on a grouped
// row's cell picks the rank it shows, not the rank at that height).
void setCellTipsAndRows(QCPColorMap* map, const QStringList& tips, const std::vector<int>& rows, int keys) {
  map->setProperty("tips", perCell(map, tips, keys));
  // -1 where a cell shows no rank (a map without iterations or kernels has one empty cell).
  map->setProperty("cellRows", QVariant::fromValue(perCell(map, QList<int>(rows.begin(), rows.end()), keys, -1)));
}

// "ranks 0–223 (224 ranks)" for a grouped heatmap row's tip.
QString binText(const RankTable& t, const RankBins& b, int bin) {
  const int first = b.first(bin), last = b.first(bin + 1) - 1;
  return QStringLiteral("ranks %1–%2 (%L3 ranks)")
      .arg(t.rows[static_cast<size_t>(first)].rank)
      .arg(t.rows[static_cast<size_t>(last)].rank)
      .arg(last - first + 1);
}

void setHeatCell(QCPColorMap* map, int key, int value, double v) {
  QCPColorMapData* d = map->data();
  const int keyCopies = d->keyRange().lower < 0 ? 2 : 1;  // shapeHeatmap's doubled dimensions
  const int valueCopies = d->valueRange().lower < 0 ? 2 : 1;
  for (int k = 0; k < keyCopies; ++k)
    for (int r = 0; r < valueCopies; ++r) d->setCell(key + k, value + r, v);
}

// Ranks × the job's top kernels: each rank's time in a kernel against the median of the
// ranks for it, so the kernel that makes a rank slow shows in its row.
void plotKernelsPerRank(QCustomPlot* plot, int row, const RankTable& t, const ChartTheme& theme,
                        const QSharedPointer<QCPAxisTickerText>& rankTicks, QCPMarginGroup* left) {
  QCPAxisRect* rect = addRect(plot, row, 0, theme);
  rect->setMarginGroup(QCP::msLeft, left);
  // The cells keep their height: the rotated kernel names below took all but 18 px of
  // the rect in a 1280x720 dock, piling up the colour scale's labels.
  rect->setSizeConstraintRect(QCPLayoutElement::scrInnerRect);
  rect->setMinimumSize(0, heatmapHeight(static_cast<int>(t.rows.size())));
  QCPAxis* x = rect->axis(QCPAxis::atBottom);
  QCPAxis* y = rect->axis(QCPAxis::atLeft);
  const int n = static_cast<int>(t.rows.size());
  const int k = static_cast<int>(t.kernelNames.size());
  auto* map = new QCPColorMap(x, y);
  const RankBins bins = rankBins(n);
  shapeHeatmap(map, k, bins.bins, n);
  std::vector<double> median(static_cast<size_t>(k), 0);
  for (int c = 0; c < k; ++c) {
    std::vector<double> known;
    for (const RankRow& r : t.rows)
      if (static_cast<size_t>(c) < r.kernelTime.size() && r.kernelTime[static_cast<size_t>(c)] >= 0)
        known.push_back(static_cast<double>(r.kernelTime[static_cast<size_t>(c)]));
    median[static_cast<size_t>(c)] = known.empty() ? 0 : medianOf(known);
  }
  double extreme = 5;  // at least ±5 %: equal ranks stay pale
  // Each heatmap row's cell: its rank's excess, or of grouped ranks the one furthest from
  // the median either way (the rank a kernel makes slow, or fast).
  const auto kernelTime = [&](int r, int c) {
    const RankRow& rr = t.rows[static_cast<size_t>(r)];
    return static_cast<size_t>(c) < rr.kernelTime.size() ? rr.kernelTime[static_cast<size_t>(c)] : TimeNs{-1};
  };
  const auto excessPct = [&](int r, int c) {
    const TimeNs v = kernelTime(r, c);
    const double m = median[static_cast<size_t>(c)];
    return v < 0 || m <= 0 ? std::nan("") : (static_cast<double>(v) / m - 1) * 100;
  };
  std::vector<int> shown(static_cast<size_t>(bins.bins) * static_cast<size_t>(std::max(k, 0)), -1);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < k; ++c) {
      int& at = shown[static_cast<size_t>(bins.of(r)) * static_cast<size_t>(k) + static_cast<size_t>(c)];
      const double pct = excessPct(r, c);
      if (at < 0 || (!std::isnan(pct) && (std::isnan(excessPct(at, c)) || std::abs(pct) > std::abs(excessPct(at, c)))))
        at = r;
    }
  QStringList tips;
  for (int b = 0; b < bins.bins; ++b)
    for (int c = 0; c < k; ++c) {
      const int r = shown[static_cast<size_t>(b) * static_cast<size_t>(k) + static_cast<size_t>(c)];
      const TimeNs v = kernelTime(r, c);
      const double pct = excessPct(r, c);
      setHeatCell(map, c, b, pct);
      if (!std::isnan(pct)) extreme = std::max(extreme, std::abs(pct));
      const QString kernel = QString::fromStdString(t.kernelNames[static_cast<size_t>(c)]).left(160);
      const QString figure = v < 0 ? QStringLiteral("not among this rank's top kernels")
                                   : QStringLiteral("%1 (%2%3 % against the median rank)")
                                         .arg(durationText(static_cast<double>(v)))
                                         .arg(pct >= 0 ? QStringLiteral("+") : QString())
                                         .arg(pct, 0, 'f', 1);
      const qint64 rank = t.rows[static_cast<size_t>(r)].rank;
      tips.append(bins.grouped() ? QStringLiteral("%1 · %2\nfurthest from the median: rank %3, %4")
                                       .arg(binText(t, bins, b), kernel)
                                       .arg(rank)
                                       .arg(figure)
                                 : QStringLiteral("rank %1 · %2\n%3").arg(rank).arg(kernel, figure));
    }
  setCellTipsAndRows(map, tips, shown, k);
  map->setGradient(aboveBelow());
  map->setDataRange(QCPRange(-extreme, extreme));
  map->setInterpolate(false);
  addColorScale(plot, row, rect, map, QStringLiteral("% vs median"), theme);  // fits a 60 px scale
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
  x->setLabel(bins.grouped() ? QStringLiteral("time in the job's top kernels (most time first) · a row: of up to %L1 "
                                              "ranks, the furthest from the median")
                                   .arg((n + bins.bins - 1) / bins.bins)
                             : QStringLiteral("time in the job's top kernels (most time first), per rank"));
  if (k == 0) emptyNote(rect, QStringLiteral("no kernels"), theme);
}

}  // namespace

void plotRanks(QCustomPlot* plot, const RankTable& t, const ChartTheme& theme, const QString& title) {
  if (t.rows.size() < 2) {
    // Ranks are compared with each other: one rank makes a one-row heatmap of nothing.
    showPlotMessage(plot,
                    QStringLiteral("%1\n\nOne rank: there is nothing to compare it with. Open the folder of every "
                                   "rank's trace (File \u25B8 Open folder of ranks) to see stragglers, collective "
                                   "waits and per-rank kernels; this rank's figures are in the table.")
                        .arg(title),
                    theme);
    return;
  }
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  const int n = static_cast<int>(t.rows.size());
  const int iters = static_cast<int>(t.maxIterations);
  std::map<int64_t, double> excess;
  for (const Straggler& s : t.stragglers) excess[s.rank] = s.excessPct;
  // Rank tick labels: every rank up to 32, else every k-th and every straggler; a k-th
  // closer than k rows to a straggler is left out (the two labels would overlap: rank
  // 77 of 256 was written over ranks 72 and 80).
  const int every = std::max(1, (n + 31) / 32);
  std::vector<int> slowRows;
  for (int i = 0; i < n; ++i)
    if (excess.count(t.rows[static_cast<size_t>(i)].rank)) slowRows.push_back(i);
  const auto nearStraggler = [&](int i) {
    const auto at = std::lower_bound(slowRows.begin(), slowRows.end(), i);
    return (at != slowRows.end() && *at - i < every) || (at != slowRows.begin() && i - *(at - 1) < every);
  };
  auto rankTicks = [&] {
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < n; ++i) {
      const RankRow& r = t.rows[static_cast<size_t>(i)];
      const auto slow = excess.find(r.rank);
      if (slow != excess.end())
        ticker->addTick(i, QStringLiteral("rank %1 · +%2 %").arg(r.rank).arg(slow->second, 0, 'f', 1));
      else if (i % every == 0 && !nearStraggler(i)) ticker->addTick(i, QStringLiteral("rank %1").arg(r.rank));
    }
    return ticker;
  };

  QCPAxisRect* heat = addRect(plot, 1, 0, theme);
  QCPAxis* x = heat->axis(QCPAxis::atBottom);
  QCPAxis* y = heat->axis(QCPAxis::atLeft);
  auto* map = new QCPColorMap(x, y);
  const RankBins bins = rankBins(n);
  shapeHeatmap(map, iters, bins.bins, n);
  double lo = 0, hi = 0;
  bool any = false;
  // Each heatmap row's cell: its rank's wall time, or of grouped ranks the slowest's.
  const auto wall = [&](int r, int i) {
    const auto& walls = t.rows[static_cast<size_t>(r)].iterationWall;
    return i < static_cast<int>(walls.size()) ? walls[static_cast<size_t>(i)] : TimeNs{-1};
  };
  // The colour scale spans every rank's times, not only the rows' slowest: grouped rows
  // whose slowest are alike stay at the scale's top, not stretched over a sliver.
  std::vector<int> slowest(static_cast<size_t>(bins.bins) * static_cast<size_t>(std::max(iters, 0)), -1);
  for (int r = 0; r < n; ++r)
    for (int i = 0; i < iters; ++i) {
      int& at = slowest[static_cast<size_t>(bins.of(r)) * static_cast<size_t>(iters) + static_cast<size_t>(i)];
      if (at < 0 || wall(r, i) > wall(at, i)) at = r;
      if (wall(r, i) < 0) continue;
      const double v = ms(wall(r, i));
      lo = any ? std::min(lo, v) : v;
      hi = any ? std::max(hi, v) : v;
      any = true;
    }
  QStringList heatTips;  // row-major: heatmap row by row, iteration by iteration
  for (int b = 0; b < bins.bins; ++b)
    for (int i = 0; i < iters; ++i) {
      const int r = slowest[static_cast<size_t>(b) * static_cast<size_t>(iters) + static_cast<size_t>(i)];
      const TimeNs w = wall(r, i);
      const double v = w < 0 ? std::nan("") : ms(w);
      setHeatCell(map, i, b, v);
      const qint64 rank = t.rows[static_cast<size_t>(r)].rank;
      const QString time = durationText(static_cast<double>(w));
      heatTips.append(std::isnan(v) ? QString()
                      : bins.grouped()
                          ? QStringLiteral("%1, iteration %2\nslowest: rank %3, wall time %4")
                                .arg(binText(t, bins, b))
                                .arg(i)
                                .arg(rank)
                                .arg(time)
                          : QStringLiteral("rank %1, iteration %2\nwall time %3").arg(rank).arg(i).arg(time));
    }
  setCellTipsAndRows(map, heatTips, slowest, iters);
  map->setGradient(viridis());
  map->setDataRange(QCPRange(lo, hi > lo ? hi : lo + 1e-3));
  map->setInterpolate(false);
  addColorScale(plot, 1, heat, map, QStringLiteral("wall ms"), theme);  // fits a 60 px scale
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
  x->setLabel(
      QStringLiteral("iteration (ProfilerStep, in order) · stragglers: mean > %1 % over the median%2")
          .arg(t.stragglerPct)
          .arg(bins.grouped()
                   ? QStringLiteral(" · a row: the slowest of up to %L1 ranks").arg((n + bins.bins - 1) / bins.bins)
                   : QString()));
  x->grid()->setVisible(false);
  if (!any) emptyNote(heat, QStringLiteral("no ProfilerStep iterations on any rank"), theme);

  auto* left = new QCPMarginGroup(plot);  // rank labels of every chart in one column
  heat->setMarginGroup(QCP::msLeft, left);
  heat->setSizeConstraintRect(QCPLayoutElement::scrInnerRect);
  heat->setMinimumSize(0, heatmapHeight(n));
  const int rowsPx = heatmapHeight(n);
  constexpr int kRotatedNamesPx = 150;  // the kernels' names at 30°, up to ~45 characters
  const bool kernels = !t.kernelNames.empty();
  if (!t.collectivesMeasured) {  // a cluster table: iteration times and top kernels only
    if (kernels) plotKernelsPerRank(plot, 2, t, theme, rankTicks(), left);
    plot->plotLayout()->setRowStretchFactors(kernels ? QList<double>{0.01, 1.0, 1.0} : QList<double>{0.01, 1.0});
    setMinimumChartHeight(plot, 60 + (kernels ? 2 : 1) * (60 + rowsPx) + (kernels ? kRotatedNamesPx : 0));
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
  legend->setWrap(2);
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
  setMinimumChartHeight(plot, 60 + (kernels ? 3 : 2) * (60 + rowsPx) + (kernels ? kRotatedNamesPx : 0));
  plot->replot();
}

namespace charts {

extern const ChartDrawing ranks;
const ChartDrawing ranks{
    "ranks", [](QCustomPlot* plot, const AnalysisResult& r, const Trace&, const ChartTheme& theme, const QString& title,
                const ChartOptions&) { plotRanks(plot, analysisValue<RankTable>(r), theme, title); }};

}  // namespace charts
}  // namespace opscope::ui
