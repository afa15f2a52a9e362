#include "panels/cluster_view.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QToolTip>

#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "charts/analysis_charts.h"
#include "panels/rank_list_model.h"
#include "panels/table_items.h"
#include "ranks/cross_rank.h"

namespace opscope::ui {

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
  list_ = new QTableView;
  model_ = new RankListModel(list_);
  list_->setModel(model_);
  styleTable(list_, {RankListModel::kFile});
  list_->setSelectionMode(QAbstractItemView::SingleSelection);
  list_->setContextMenuPolicy(Qt::CustomContextMenu);
  split->addWidget(list_);
  split->setSizes({500, 300});
  layout->addWidget(split, 1);
  auto* hint = new QLabel(
      QStringLiteral("Double-click a rank to open its trace; right-click to open it with its neighbours."), this);
  hint->setStyleSheet(QStringLiteral("color: gray"));
  layout->addWidget(hint);

  connect(plot_, &QCustomPlot::mouseMove, this, &ClusterView::showTip);
  connect(list_, &QTableView::doubleClicked, this, [this](const QModelIndex& i) { activate(i.row(), false); });
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
    QCPColorMap* map = nullptr;
    const int cell = heatmapCellAt(plot_, e->pos(), &map);
    if (!map) return;
    // The rank the clicked cell shows (of grouped ranks, the slowest or furthest from the
    // median: chart kind "ranks" names it in "cellRows"), else the row at that height.
    int index = static_cast<int>(std::lround(map->valueAxis()->pixelToCoord(e->pos().y())));
    const QList<int> cellRows = map->property("cellRows").value<QList<int>>();
    if (cell >= 0 && cell < cellRows.size()) index = cellRows[cell];
    const int row = model_->rowOf(index);  // table_'s rows are ranks_, as the model's indices
    if (row < 0) return;
    list_->selectRow(row);
    list_->scrollTo(model_->index(row, 0));
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
  model_->reset(nullptr, RankTable{});  // it reads ranks_: emptied before they change
  ranks_ = std::move(ranks);
  try {
    table_ = rankTableOfSummaries(ranks_, stragglerPct);
  } catch (const std::runtime_error& e) {  // its lines are read again: it changed meanwhile
    ranks_.clear();
    table_ = RankTable{};
    heading_->setText(
        QStringLiteral("<b>%1</b> · cannot be read again: %2")
            .arg(QFileInfo(path).fileName().toHtmlEscaped(), QString::fromUtf8(e.what()).toHtmlEscaped()));
    model_->reset(nullptr, table_);
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
  // Rows slowest first, ranks without iterations (failed ones) last: the rank that matters
  // is at the top. Header clicks re-sort (RankListModel::sort); no indicator until then.
  list_->setSortingEnabled(false);
  list_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
  model_->reset(&ranks_, table_);
  list_->setSortingEnabled(true);
  redraw();
}

QString ClusterView::cellText(int row, int column) const {
  return model_->data(model_->index(row, column), Qt::DisplayRole).toString();
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
  const int index = model_->rankIndex(row);
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
