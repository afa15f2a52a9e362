#include "panels/op_tree_model.h"

#include "timeline/names.h"
#include "timeline/time_view.h"

namespace opscope::ui {

namespace {
const std::vector<uint32_t> kNone;
QString qstr(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
}  // namespace

OpTreeModel::OpTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void OpTreeModel::setDocument(std::shared_ptr<const TraceDocument> doc) {
  beginResetModel();
  doc_ = std::move(doc);
  rowInParent_.clear();
  if (doc_) {
    const OpTree& t = doc_->opTree;
    rowInParent_.assign(t.nodes.size(), 0);
    for (size_t r = 0; r < t.roots.size(); ++r) rowInParent_[t.roots[r]] = static_cast<uint32_t>(r);
    for (const OpTreeNode& n : t.nodes)
      for (size_t r = 0; r < n.children.size(); ++r) rowInParent_[n.children[r]] = static_cast<uint32_t>(r);
  }
  endResetModel();
}

const std::vector<uint32_t>& OpTreeModel::childrenOf(const QModelIndex& parent) const {
  if (!doc_) return kNone;
  if (!parent.isValid()) return doc_->opTree.roots;
  return doc_->opTree.nodes[parent.internalId()].children;
}

QModelIndex OpTreeModel::index(int row, int column, const QModelIndex& parent) const {
  const auto& kids = childrenOf(parent);
  if (row < 0 || column < 0 || column >= ColumnCount || static_cast<size_t>(row) >= kids.size()) return {};
  return createIndex(row, column, static_cast<quintptr>(kids[static_cast<size_t>(row)]));
}

QModelIndex OpTreeModel::parent(const QModelIndex& child) const {
  if (!child.isValid() || !doc_) return {};
  const uint32_t p = doc_->opTree.nodes[child.internalId()].parent;
  if (p == UINT32_MAX) return {};
  return createIndex(static_cast<int>(rowInParent_[p]), 0, static_cast<quintptr>(p));
}

int OpTreeModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() && parent.column() != 0) return 0;
  return static_cast<int>(childrenOf(parent).size());
}

int OpTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant OpTreeModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !doc_) return {};
  const OpTreeNode& n = doc_->opTree.nodes[index.internalId()];
  const Trace& t = *doc_->trace;
  if (role == RefRole) return QVariant::fromValue<qulonglong>(n.longest);
  const bool sort = role == SortRole;
  if (role != Qt::DisplayRole && !sort && role != Qt::ToolTipRole && role != Qt::TextAlignmentRole) return {};
  if (role == Qt::TextAlignmentRole)
    return index.column() == Name ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
  switch (index.column()) {
    case Name: {
      if (n.parent == UINT32_MAX) {
        // Top rows are threads: "4515 (python3.8)" in the narrow column, the whole label as
        // tip; a thread without a name keeps its word ("thread -1220540864", the id as the
        // file wrote it, not a bare negative number).
        const QString label = qstr(t.trackLabel(n.track));
        if (role == Qt::DisplayRole && label.startsWith(QStringLiteral("thread ")) && label.endsWith(u')'))
          return label.mid(7);
        return label;
      }
      if (n.allSteps) return QStringLiteral("ProfilerStep#* (every step)");
      // Shown short (names.h); sorted, filtered and tipped by the full name.
      if (role == Qt::DisplayRole) return displayName(t.str(n.name));
      return qstr(t.str(n.name));
    }
    case Calls:
      return sort ? QVariant::fromValue<qulonglong>(n.calls) : QVariant(QStringLiteral("%L1").arg(n.calls));
    case Total:
      return sort ? QVariant::fromValue<qlonglong>(n.total) : QVariant(qstr(formatDuration(n.total)));
    case Self:
      if (sort) return QVariant::fromValue<qlonglong>(n.self);
      return n.parent == UINT32_MAX ? QVariant(QStringLiteral("–")) : QVariant(qstr(formatDuration(n.self)));
    case Gpu:
      if (sort) return QVariant::fromValue<qlonglong>(n.gpu);
      return n.gpu ? QVariant(qstr(formatDuration(n.gpu))) : QVariant(QStringLiteral("–"));
  }
  return {};
}

QVariant OpTreeModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Name:
      return QStringLiteral("Op");
    case Calls:
      return QStringLiteral("Calls");
    case Total:
      return QStringLiteral("Total");
    case Self:
      return QStringLiteral("Self");
    case Gpu:
      return QStringLiteral("GPU time");
  }
  return {};
}

}  // namespace opscope::ui
