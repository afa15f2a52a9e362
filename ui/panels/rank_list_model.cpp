#include "panels/rank_list_model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "ranks/cross_rank.h"
#include "report/rank_summary.h"

namespace opscope::ui {

void RankListModel::reset(const std::vector<RankSummary>* ranks, const RankTable& table) {
  beginResetModel();
  ranks_ = ranks;
  rows_.clear();
  const size_t n = ranks ? std::min(ranks->size(), table.rows.size()) : 0;
  rows_.reserve(n);
  std::vector<double> present;
  for (size_t i = 0; i < n; ++i) {
    const auto& w = table.rows[i].iterationWall;
    Row row;
    row.index = static_cast<int>(i);
    row.rank = table.rows[i].rank;
    row.iterations = static_cast<int64_t>(w.size());
    row.meanMs = std::nan("");
    if (!w.empty()) {
      double sum = 0;
      for (TimeNs v : w) sum += static_cast<double>(v) / 1e6;
      row.meanMs = sum / static_cast<double>(w.size());
      present.push_back(row.meanMs);
    }
    rows_.push_back(row);
  }
  const double median = present.empty() ? 0 : medianOf(present);
  for (Row& r : rows_)
    r.overMedian = std::isnan(r.meanMs) || median <= 0 ? std::nan("") : (r.meanMs / median - 1) * 100;
  hosts_.assign(n, QString());
  hostRead_.assign(n, 0);
  sortRows(-1, Qt::AscendingOrder);
  endResetModel();
}

int RankListModel::rankIndex(int row) const {
  return row >= 0 && row < static_cast<int>(rows_.size()) ? rows_[static_cast<size_t>(row)].index : -1;
}

int RankListModel::rowOf(int index) const {
  for (size_t r = 0; r < rows_.size(); ++r)
    if (rows_[r].index == index) return static_cast<int>(r);
  return -1;
}

int RankListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int RankListModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kColumns; }

const QString& RankListModel::host(int index) const {
  const auto i = static_cast<size_t>(index);
  if (!hostRead_[i]) {
    hostRead_[i] = 1;
    try {  // a table line is read again: the table is not held in memory
      const auto s = summaryKeysOf((*ranks_)[i], {"host"});
      if (s.is_object() && s.contains("host") && s["host"].is_string())
        hosts_[i] = QString::fromStdString(s["host"].get<std::string>());
    } catch (const std::runtime_error&) {  // changed since it was read: no host shown
    }
  }
  return hosts_[i];
}

QString RankListModel::fileText(int index) const {
  const RankSummary& r = (*ranks_)[static_cast<size_t>(index)];
  const QString file = QString::fromStdString(r.file);
  return r.error.empty() ? file : QStringLiteral("%1 — not summarised: %2").arg(file, QString::fromStdString(r.error));
}

QVariant RankListModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= static_cast<int>(rows_.size())) return {};
  const Row& r = rows_[static_cast<size_t>(index.row())];
  const int column = index.column();
  if (role == Qt::TextAlignmentRole)
    return column < kHost ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  if (role == Qt::ToolTipRole && column < kHost) return {};
  // Numbers as fixed-point text, never scientific (a double in the display role is drawn
  // with six significant digits).
  auto number = [](double v, int decimals) {
    return std::isnan(v) ? QStringLiteral("–") : QString::number(v, 'f', decimals);
  };
  switch (column) {
    case kRank:
      return QString::number(r.rank);
    case kIterations:
      return QString::number(r.iterations);
    case kMean:
      return number(r.meanMs, 3);
    case kOverMedian:
      return number(r.overMedian, 1);
    case kHost:
      return host(r.index);
    case kFile:
      return fileText(r.index);
    default:
      return {};
  }
}

QVariant RankListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* const kNames[kColumns] = {"Rank", "Iterations", "Mean iteration (ms)", "Over the median (%)",
                                               "Host", "File"};
  return section >= 0 && section < kColumns ? QString::fromLatin1(kNames[section]) : QVariant();
}

void RankListModel::sort(int column, Qt::SortOrder order) {
  emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
  const QModelIndexList before = persistentIndexList();
  std::vector<int> oldIndex;  // the rank index each persistent index pointed at
  for (const QModelIndex& i : before) oldIndex.push_back(rankIndex(i.row()));
  sortRows(column, order);
  QModelIndexList after;
  for (size_t k = 0; k < oldIndex.size(); ++k) {
    const int row = rowOf(oldIndex[k]);
    after.push_back(row < 0 ? QModelIndex() : createIndex(row, before[static_cast<int>(k)].column()));
  }
  changePersistentIndexList(before, after);
  emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void RankListModel::sortRows(int column, Qt::SortOrder order) {
  // Rank order first, so every sort below breaks ties by rank.
  std::sort(rows_.begin(), rows_.end(), [](const Row& a, const Row& b) { return a.index < b.index; });
  // NaN (no iterations) after every number, whichever the direction.
  auto byNumber = [order](double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return !std::isnan(a) && std::isnan(b);
    return order == Qt::AscendingOrder ? a < b : a > b;
  };
  switch (column) {
    case kRank:
    case kIterations:
      std::stable_sort(rows_.begin(), rows_.end(), [&](const Row& a, const Row& b) {
        const int64_t x = column == kRank ? a.rank : a.iterations, y = column == kRank ? b.rank : b.iterations;
        return order == Qt::AscendingOrder ? x < y : x > y;
      });
      break;
    case kMean:
    case kOverMedian:
      std::stable_sort(rows_.begin(), rows_.end(), [&](const Row& a, const Row& b) {
        return column == kMean ? byNumber(a.meanMs, b.meanMs) : byNumber(a.overMedian, b.overMedian);
      });
      break;
    case kHost:
    case kFile: {
      // Each text made once (every host read: a click on Host reads each rank's line).
      std::vector<QString> text(rows_.size());
      for (const Row& r : rows_)
        text[static_cast<size_t>(r.index)] = column == kHost ? host(r.index) : fileText(r.index);
      std::stable_sort(rows_.begin(), rows_.end(), [&](const Row& a, const Row& b) {
        const int c =
            QString::localeAwareCompare(text[static_cast<size_t>(a.index)], text[static_cast<size_t>(b.index)]);
        return order == Qt::AscendingOrder ? c < 0 : c > 0;
      });
      break;
    }
    default:  // the initial order: slowest mean first, ranks without iterations last
      std::stable_sort(rows_.begin(), rows_.end(), [](const Row& a, const Row& b) {
        if (std::isnan(a.meanMs) || std::isnan(b.meanMs)) return !std::isnan(a.meanMs) && std::isnan(b.meanMs);
        return a.meanMs > b.meanMs;
      });
  }
}

}  // namespace opscope::ui
