#include "panels/op_tree_panel.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

#include "panels/op_tree_model.h"

namespace opscope::ui {

OpTreePanel::OpTreePanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  filter_ = new QLineEdit(this);
  filter_->setPlaceholderText(QStringLiteral("Filter ops (substring)"));
  filter_->setClearButtonEnabled(true);
  view_ = new QTreeView(this);
  model_ = new OpTreeModel(this);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(OpTreeModel::SortRole);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  proxy_->setRecursiveFilteringEnabled(true);  // keep the path to every match
  proxy_->setFilterKeyColumn(OpTreeModel::Name);
  proxy_->setFilterRole(Qt::ToolTipRole);  // the full name: rows show the short one
  view_->setModel(proxy_);
  view_->setSortingEnabled(true);
  view_->sortByColumn(OpTreeModel::Total, Qt::DescendingOrder);
  view_->setUniformRowHeights(true);
  view_->setAlternatingRowColors(true);
  // Names take what the numbers leave. A narrow dock shows the two times that rank ops
  // (total, GPU); calls and self time are a right-click on the header away.
  QHeaderView* header = view_->header();
  header->setStretchLastSection(false);
  header->setSectionResizeMode(OpTreeModel::Name, QHeaderView::Stretch);
  header->setMinimumSectionSize(48);
  for (int c = OpTreeModel::Calls; c < OpTreeModel::ColumnCount; ++c)
    header->setSectionResizeMode(c, QHeaderView::ResizeToContents);
  header->hideSection(OpTreeModel::Calls);
  header->hideSection(OpTreeModel::Self);
  header->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(header, &QHeaderView::customContextMenuRequested, this, [this, header](const QPoint& at) {
    QMenu menu;
    for (int c = OpTreeModel::Calls; c < OpTreeModel::ColumnCount; ++c) {
      QAction* a = menu.addAction(model_->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
      a->setCheckable(true);
      a->setChecked(!header->isSectionHidden(c));
      connect(a, &QAction::toggled, header, [header, c](bool on) { header->setSectionHidden(c, !on); });
    }
    menu.exec(header->mapToGlobal(at));
  });
  // Names cut at the end (their start tells ops apart: "aten::conv…"), whole in the tooltip.
  view_->setTextElideMode(Qt::ElideRight);
  layout->addWidget(filter_);
  layout->addWidget(view_);
  connect(filter_, &QLineEdit::textChanged, this, &OpTreePanel::setFilter);
  connect(view_, &QTreeView::activated, this, [this](const QModelIndex& idx) {
    const auto packed = idx.data(OpTreeModel::RefRole).toULongLong();
    if (packed != kNoRef) emit eventActivated(EventRef::unpack(packed));
  });
}

void OpTreePanel::setDocument(std::shared_ptr<const TraceDocument> doc) { model_->setDocument(std::move(doc)); }

void OpTreePanel::setFilter(const QString& text) {
  if (filter_->text() != text) filter_->setText(text);
  proxy_->setFilterFixedString(text);
  if (!text.isEmpty()) view_->expandAll();
}

}  // namespace opscope::ui
