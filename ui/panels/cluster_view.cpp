#include "panels/cluster_view.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QToolTip>

#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "charts/analysis_charts.h"
#include "panels/table_items.h"
#include "ranks/cross_rank.h"

namespace opscope::ui {

namespace {
constexpr int kRankRole = Qt::UserRole + 1;  // index into ranks_ of a list row
}

ClusterView::ClusterView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  heading_ = new QLabel(this);
  heading_->setWordWrap(true);
  layout->addWidget(heading_);
  auto* split = new QSplitter(Qt::Vertical, this);
  plot_ = new QCustomPlot;
  plot_->setMinimumHeight(260);
  // Many ranks need more height than the view has: the chart scrolls (as the Analysis
  // dock's do) instead of squeezing its title under the heatmaps.
  auto* scroll = new QScrollArea;
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setWidget(plot_);
  split->addWidget(scroll);
  list_ = makeTable({QStringLiteral("Rank"), QStringLiteral("Iterations"), QStringLiteral("Mean iteration (ms)"),
                     QStringLiteral("Over the median (%)"), QStringLiteral("Host"), QStringLiteral("File")},
                    {5});
  list_->setContextMenuPolicy(Qt::CustomContextMenu);
  split->addWidget(list_);
  split->setSizes({500, 300});
  layout->addWidget(split, 1);
  auto* hint = new QLabel(
      QStringLiteral("Double-click a rank to open its trace; right-click to open it with its neighbours."), this);
  hint->setStyleSheet(QStringLiteral("color: gray"));
  layout->addWidget(hint);

  connect(plot_, &QCustomPlot::mouseMove, this, &ClusterView::showTip);
  connect(list_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { activate(row, false); });
  connect(list_, &QWidget::customContextMenuRequested, this, [this](const QPoint& p) {
    const int row = list_->rowAt(p.y());
    if (row < 0) return;
    QMenu menu(this);
    menu.addAction(QStringLiteral("Open this rank's trace"), this, [this, row] { activate(row, false); });
    menu.addAction(QStringLiteral("Open it with its neighbours (one session)"), this,
                   [this, row] { activate(row, true); });
    menu.exec(list_->viewport()->mapToGlobal(p));
  });
  // A heatmap cell (iterations or kernels: both have the ranks down the side) selects its
  // rank in the list.
  connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
    QCPAxisRect* rect = nullptr;
    for (QCPAxisRect* r : plot_->axisRects())
      if (r->rect().contains(e->pos()) && !r->plottables().isEmpty() &&
          qobject_cast<QCPColorMap*>(r->plottables().first()))
        rect = r;
    if (!rect) return;
    // The rank the clicked cell shows (of grouped ranks, the slowest or furthest from the
    // median: chart kind "ranks" names it in "cellRows"), else the row at that height.
    int index = static_cast<int>(std::lround(rect->axis(QCPAxis::atLeft)->pixelToCoord(e->pos().y())));
    const auto* map = qobject_cast<QCPColorMap*>(rect->plottables().first());
    const QList<int> cellRows = map->property("cellRows").value<QList<int>>();
    int key = -1, value = -1;
    map->data()->coordToCell(map->keyAxis()->pixelToCoord(e->pos().x()), map->valueAxis()->pixelToCoord(e->pos().y()),
                             &key, &value);
    if (key >= 0 && value >= 0 && key < map->data()->keySize() && value < map->data()->valueSize() &&
        value * map->data()->keySize() + key < cellRows.size())
      index = cellRows[value * map->data()->keySize() + key];
    if (index < 0 || index >= static_cast<int>(table_.rows.size())) return;
    const int64_t rank = table_.rows[static_cast<size_t>(index)].rank;
    for (int r = 0; r < list_->rowCount(); ++r)
      if (static_cast<int64_t>(list_->item(r, 0)->data(Qt::DisplayRole).toDouble()) == rank) {
        list_->selectRow(r);
        list_->scrollToItem(list_->item(r, 0));
      }
  });
}

void ClusterView::closeEvent(QCloseEvent* e) {
  QWidget::closeEvent(e);
  emit closed();
}

void ClusterView::showTip(QMouseEvent* e) {
  const QString tip = chartTipAt(plot_, e->pos());
  if (tip.isEmpty()) QToolTip::hideText();
  else QToolTip::showText(e->globalPosition().toPoint(), tip, plot_);
}

void ClusterView::setTable(const QString& path, std::vector<RankSummary> ranks, double stragglerPct) {
  path_ = path;
  ranks_ = std::move(ranks);
  try {
    table_ = rankTableOfSummaries(ranks_, stragglerPct);
  } catch (const std::runtime_error& e) {  // its lines are read again: it changed meanwhile
    ranks_.clear();
    table_ = RankTable{};
    heading_->setText(
        QStringLiteral("<b>%1</b> · cannot be read again: %2")
            .arg(QFileInfo(path).fileName().toHtmlEscaped(), QString::fromUtf8(e.what()).toHtmlEscaped()));
    list_->setRowCount(0);
    redraw();
    return;
  }
  size_t failed = 0;
  for (const RankSummary& r : ranks_) failed += r.error.empty() ? 0 : 1;
  heading_->setText(
      QStringLiteral("<b>%1</b> · %2 ranks%3 · %4 straggler%5 (mean iteration more than %6 % over the median)")
          .arg(QFileInfo(path).fileName().toHtmlEscaped())
          .arg(ranks_.size())
          .arg(failed ? QStringLiteral(", %1 not summarised").arg(failed) : QString())
          .arg(table_.stragglers.size())
          .arg(table_.stragglers.size() == 1 ? "" : "s")
          .arg(stragglerPct));
  // Rows slowest first: the rank that matters is at the top.
  std::vector<double> means(ranks_.size(), std::nan(""));
  std::vector<double> present;
  for (size_t i = 0; i < ranks_.size(); ++i) {
    const auto& w = table_.rows[i].iterationWall;
    if (w.empty()) continue;
    double sum = 0;
    for (TimeNs v : w) sum += static_cast<double>(v) / 1e6;
    means[i] = sum / static_cast<double>(w.size());
    present.push_back(means[i]);
  }
  const double median = present.empty() ? 0 : medianOf(present);
  // Rows slowest first, ranks without iterations (failed ones) last: the rank that matters
  // is at the top. Header clicks re-sort.
  std::vector<size_t> order(ranks_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (std::isnan(means[a]) != std::isnan(means[b])) return std::isnan(means[b]);
    return !std::isnan(means[a]) && means[a] > means[b];
  });
  list_->setSortingEnabled(false);
  list_->setRowCount(static_cast<int>(ranks_.size()));
  for (size_t row = 0; row < order.size(); ++row) {
    const size_t i = order[row];
    const RankSummary& r = ranks_[i];
    const bool has = !std::isnan(means[i]);
    // The host is read from the rank's summary (a table's line is read again: the table
    // is not held in memory).
    QString host;
    try {
      const auto s = summaryKeysOf(r, {"host"});
      if (s.is_object() && s.contains("host") && s["host"].is_string())
        host = QString::fromStdString(s["host"].get<std::string>());
    } catch (const std::runtime_error&) {
    }
    QString file = QString::fromStdString(r.file);
    if (!r.error.empty()) file = QStringLiteral("%1 — not summarised: %2").arg(file, QString::fromStdString(r.error));
    fillRow(list_, static_cast<int>(row),
            {numberItem(static_cast<double>(table_.rows[i].rank), 0),
             numberItem(static_cast<double>(table_.rows[i].iterationWall.size()), 0),
             has ? numberItem(means[i], 3) : textItem(QStringLiteral("–")),
             has && median > 0 ? numberItem((means[i] / median - 1) * 100, 1) : textItem(QStringLiteral("–")),
             textItem(host), textItem(file)});
    list_->item(static_cast<int>(row), 0)->setData(kRankRole, static_cast<int>(i));
  }
  list_->setSortingEnabled(true);
  redraw();
}

void ClusterView::setDark(bool dark) {
  theme_.dark = dark;
  redraw();
}

void ClusterView::redraw() {
  plotRanks(plot_, table_, theme_,
            QStringLiteral("Ranks: iteration time and top kernels · %1").arg(QFileInfo(path_).fileName()));
  plot_->setMinimumHeight(std::max(260, chartMinimumHeight(plot_)));
}

std::vector<std::string> ClusterView::filesFor(int row, bool neighbours) const {
  std::vector<std::string> files;
  if (row < 0 || row >= list_->rowCount()) return files;
  const int index = list_->item(row, 0)->data(kRankRole).toInt();
  if (index < 0 || index >= static_cast<int>(ranks_.size())) return files;
  // ranks_ is sorted by rank: neighbours are the entries on either side.
  const int from = neighbours ? std::max(0, index - 1) : index;
  const int to = neighbours ? std::min(static_cast<int>(ranks_.size()) - 1, index + 1) : index;
  for (int i = from; i <= to; ++i) {
    const RankSummary& r = ranks_[static_cast<size_t>(i)];
    if (i != index && !r.error.empty()) continue;  // a neighbour that failed is left out
    if (QFileInfo::exists(QString::fromStdString(r.file)) || i == index) files.push_back(r.file);
  }
  return files;
}

void ClusterView::activate(int row, bool neighbours) {
  std::vector<std::string> files = filesFor(row, neighbours);
  if (!files.empty()) emit openRequested(std::move(files));
}

}  // namespace opscope::ui
