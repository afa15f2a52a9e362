#include "panels/range_stats_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "timeline/names.h"
#include "timeline/time_view.h"

namespace opscope::ui {

namespace {
QString qstr(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
QString kindText(TrackKind k) {
  switch (k) {
    case TrackKind::Thread:
      return QStringLiteral("CPU");
    case TrackKind::GpuStream:
      return QStringLiteral("GPU");
    case TrackKind::Async:
      return QStringLiteral("async");
  }
  return {};
}
}  // namespace

void RangeStatsModel::setRows(const Trace* trace, std::vector<RangeRow> rows) {
  beginResetModel();
  trace_ = trace;
  rows_ = std::move(rows);
  endResetModel();
}

int RangeStatsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int RangeStatsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RangeStatsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !trace_ || index.row() >= static_cast<int>(rows_.size())) return {};
  const RangeRow& r = rows_[static_cast<size_t>(index.row())];
  if (role == Qt::TextAlignmentRole)
    return index.column() >= Count ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
  const bool sort = role == SortRole;
  if (role == Qt::ToolTipRole && index.column() == Name) return qstr(trace_->str(r.name));
  if (role != Qt::DisplayRole && !sort) return {};
  switch (index.column()) {
    case Kind:
      return kindText(r.trackKind);
    case Name:
      return sort ? qstr(trace_->str(r.name)) : displayName(trace_->str(r.name));
    case Count:
      return sort ? QVariant::fromValue<qulonglong>(r.count) : QVariant(QStringLiteral("%L1").arg(r.count));
    case Total:
      return sort ? QVariant::fromValue<qlonglong>(r.total) : QVariant(qstr(formatDuration(r.total)));
    case Mean:
      return sort ? QVariant::fromValue<qlonglong>(r.mean()) : QVariant(qstr(formatDuration(r.mean())));
    case InRange:
      return sort ? QVariant::fromValue<qlonglong>(r.inRange) : QVariant(qstr(formatDuration(r.inRange)));
  }
  return {};
}

QVariant RangeStatsModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* names[] = {"Track kind", "Name", "Count", "Total", "Mean", "Inside range"};
  return section >= 0 && section < ColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

RangeStatsPanel::RangeStatsPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  title_ = new QLabel(this);
  view_ = new QTableView(this);
  model_ = new RangeStatsModel(this);
  auto* proxy = new QSortFilterProxyModel(this);
  proxy->setSourceModel(model_);
  proxy->setSortRole(RangeStatsModel::SortRole);
  view_->setModel(proxy);
  view_->setSortingEnabled(true);
  view_->sortByColumn(RangeStatsModel::Total, Qt::DescendingOrder);
  view_->verticalHeader()->hide();
  view_->horizontalHeader()->setSectionResizeMode(RangeStatsModel::Name, QHeaderView::Stretch);
  view_->setAlternatingRowColors(true);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  layout->addWidget(title_);
  layout->addWidget(view_);
  clear();
}

void RangeStatsPanel::clear() {
  model_->setRows(nullptr, {});
  title_->setText(QStringLiteral("Shift+drag over the timeline to aggregate what lies in a time range."));
}

QString RangeStatsPanel::headline() const { return title_->text(); }

void RangeStatsPanel::showRange(const Trace* trace, TimeNs start, TimeNs end, const std::vector<uint32_t>& tracks) {
  if (!trace || tracks.empty()) {
    clear();
    return;
  }
  auto rows = aggregateRange(*trace, tracks, start, end);
  uint64_t count = 0;
  for (const RangeRow& r : rows) count += r.count;
  title_->setText(QStringLiteral("%L1 slices on %2 tracks in %3 (from %4 to %5)")
                      .arg(count)
                      .arg(tracks.size())
                      .arg(qstr(formatDuration(end - start)), qstr(formatDuration(start - trace->minTs)),
                           qstr(formatDuration(end - trace->minTs))));
  model_->setRows(trace, std::move(rows));
  for (int c = RangeStatsModel::Count; c < RangeStatsModel::ColumnCount; ++c) view_->resizeColumnToContents(c);
}

}  // namespace opscope::ui
