#pragma once
// The cluster view's list of ranks as a model: one row a rank, slowest first, sortable by
// any column. Nothing is held per cell (a QTableWidget of 10^5 ranks held 6·10^5 items:
// ~200 MiB); a row is five numbers, and a rank's host is read from its summary (a table
// line, read again) when first shown or sorted on, then kept.
//
// Invariants: rows() is a permutation of the ranks given to reset(); rankIndex(row) is a
// rank's index into that vector (sorted by rank, so its neighbours are its neighbours).
#include <QAbstractTableModel>
#include <QString>
#include <cstdint>
#include <vector>

#include "ranks/rank_table.h"
#include "report/multi_rank_report.h"

namespace opscope::ui {

class RankListModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { kRank, kIterations, kMean, kOverMedian, kHost, kFile, kColumns };
  using QAbstractTableModel::QAbstractTableModel;

  // ranks must outlive the model's use of them (until the next reset); table is
  // rankTableOfSummaries(ranks): its rows in the same order.
  void reset(const std::vector<RankSummary>* ranks, const RankTable& table);
  // The index into reset()'s ranks of a row; -1 outside.
  int rankIndex(int row) const;
  // The row showing ranks[index]; -1 when none.
  int rowOf(int index) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
  // A column < 0 (the header's "no sort indicator") is the initial order: slowest mean
  // first, ranks without iterations last. Ties keep the rank order.
  void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

 private:
  struct Row {
    int index = 0;  // into ranks_
    int64_t rank = 0;
    int64_t iterations = 0;
    double meanMs = 0;      // NaN: no iterations
    double overMedian = 0;  // % over the median rank's mean; NaN: no iterations or median
  };
  const QString& host(int index) const;  // read once, then kept
  QString fileText(int index) const;
  void sortRows(int column, Qt::SortOrder order);

  const std::vector<RankSummary>* ranks_ = nullptr;
  std::vector<Row> rows_;
  mutable std::vector<QString> hosts_;     // by rank index
  mutable std::vector<uint8_t> hostRead_;  // by rank index
};

}  // namespace opscope::ui
