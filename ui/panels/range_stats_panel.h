#pragma once
// Area selection table (Shift+drag in the timeline): per track kind and name, the
// count, total and mean duration of the slices in the range, sortable.
#include <QAbstractTableModel>
#include <QWidget>
#include <vector>

#include "analysis/range_aggregate.h"

class QLabel;
class QTableView;

namespace opscope::ui {

class RangeStatsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Kind, Name, Count, Total, Mean, InRange, ColumnCount };
  static constexpr int SortRole = Qt::UserRole;
  explicit RangeStatsModel(QObject* parent = nullptr) : QAbstractTableModel(parent) {}
  void setRows(const Trace* trace, std::vector<RangeRow> rows);
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 private:
  const Trace* trace_ = nullptr;
  std::vector<RangeRow> rows_;
};

class RangeStatsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit RangeStatsPanel(QWidget* parent = nullptr);
  void showRange(const Trace* trace, TimeNs start, TimeNs end, const std::vector<uint32_t>& tracks);
  void clear();
  RangeStatsModel* model() const { return model_; }
  QString headline() const;

 private:
  QLabel* title_ = nullptr;
  QTableView* view_ = nullptr;
  RangeStatsModel* model_ = nullptr;
};

}  // namespace opscope::ui
