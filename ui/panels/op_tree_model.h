#pragma once
// Item model over analysis/op_tree.h: thread roots, then the merged call tree, with
// calls, total, self and GPU time. Sorting uses Qt::UserRole (raw numbers).
#include <QAbstractItemModel>
#include <memory>

#include "trace_document.h"

namespace opscope::ui {

class OpTreeModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  enum Column { Name, Calls, Total, Self, Gpu, ColumnCount };
  static constexpr int SortRole = Qt::UserRole;
  static constexpr int RefRole = Qt::UserRole + 1;  // packed EventRef of the longest call

  explicit OpTreeModel(QObject* parent = nullptr);
  void setDocument(std::shared_ptr<const TraceDocument> doc);

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

 private:
  const std::vector<uint32_t>& childrenOf(const QModelIndex& parent) const;
  std::shared_ptr<const TraceDocument> doc_;
  std::vector<uint32_t> rowInParent_;  // per node: its row under its parent (or in roots)
};

}  // namespace opscope::ui
