#pragma once
// A cluster table (opscope-cluster's ranks.jsonl) at a glance: the ranks × iterations
// heatmap with the stragglers named, and a table of every rank (iterations, mean, how
// far over the median, host, the error of a rank that failed) sorted slowest first.
// Clicking a heatmap cell selects its rank; activating a rank opens its trace, or with
// "with neighbours" the folder session of it and the ranks on either side.
#include <QWidget>
#include <memory>
#include <vector>

#include "charts/chart_theme.h"
#include "ranks/rank_table.h"
#include "report/multi_rank_report.h"

class QCustomPlot;
class QTableView;
class QLabel;
class QMouseEvent;
class QCloseEvent;

namespace opscope::ui {

class ClusterView : public QWidget {
  Q_OBJECT
 public:
  explicit ClusterView(QWidget* parent = nullptr);

  // ranks: as readRankTable and assignRanks left them.
  void setTable(const QString& path, std::vector<RankSummary> ranks, double stragglerPct = 5.0);
  void setDark(bool dark);
  const RankTable& table() const { return table_; }
  QTableView* rankList() const { return list_; }
  // Row `row` of rankList()'s column `column` as shown.
  QString cellText(int row, int column) const;
  QCustomPlot* plot() const { return plot_; }
  // The trace files to open for the rank in row `row` of rankList(): its own, or with
  // neighbours the ranks on either side too (those whose files exist in the table).
  std::vector<std::string> filesFor(int row, bool neighbours) const;

 signals:
  // One file: open it; several: open them as one session.
  void openRequested(std::vector<std::string> files);
  // The window was closed (hidden, kept for the next table).
  void closed();

 protected:
  void closeEvent(QCloseEvent* e) override;

 private:
  void redraw();
  void showTip(QMouseEvent* e);  // the hovered heatmap cell or bar
  void activate(int row, bool neighbours);
  QString path_;
  std::vector<RankSummary> ranks_;
  RankTable table_;
  ChartTheme theme_;
  QLabel* heading_ = nullptr;
  QCustomPlot* plot_ = nullptr;
  QTableView* list_ = nullptr;
  class RankListModel* model_ = nullptr;
};

}  // namespace opscope::ui
