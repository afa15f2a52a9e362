#pragma once
// The searchable op tree: a filter box over the merged call tree. Activating a row
// selects that op's longest call in the timeline.
#include <QWidget>
#include <memory>

#include "trace_document.h"

class QLineEdit;
class QTreeView;
class QSortFilterProxyModel;

namespace opscope::ui {

class OpTreeModel;

class OpTreePanel : public QWidget {
  Q_OBJECT
 public:
  explicit OpTreePanel(QWidget* parent = nullptr);
  void setDocument(std::shared_ptr<const TraceDocument> doc);
  void setFilter(const QString& text);
  QTreeView* view() const { return view_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }

 signals:
  void eventActivated(opscope::EventRef ref);

 private:
  QLineEdit* filter_ = nullptr;
  QTreeView* view_ = nullptr;
  OpTreeModel* model_ = nullptr;
  QSortFilterProxyModel* proxy_ = nullptr;
};

}  // namespace opscope::ui
