// The cluster view's rank list as a model: its initial order (slowest first, failed ranks
// last), each column's sort both ways with ties in rank order, failed ranks after every
// number either way, the selection following its rank through a sort, and the model
// contract (QAbstractItemModelTester).
#include "panels/rank_list_model.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <vector>

namespace opscope::ui {
namespace {

// Four ranks held as summaries: rank 2 slowest, rank 1 failed (no iterations), ranks 0
// and 3 equal; hosts b, -, a, a.
struct Fixture {
  std::vector<RankSummary> ranks;
  RankTable table;
  Fixture() {
    const std::vector<std::vector<TimeNs>> walls = {{1000000, 1000000}, {}, {3000000}, {1000000}};
    const char* hosts[] = {"b", "", "a", "a"};
    for (int r = 0; r < 4; ++r) {
      RankSummary s;
      s.rank = r;
      s.file = "rank" + std::to_string(r) + ".json";
      if (walls[static_cast<size_t>(r)].empty()) s.error = "cannot open";
      else s.summary = nlohmann::ordered_json{{"host", hosts[r]}};
      ranks.push_back(s);
      RankRow row;
      row.rank = r;
      row.iterationWall = walls[static_cast<size_t>(r)];
      table.rows.push_back(row);
    }
  }
};

std::vector<int> column(const RankListModel& m, int c) {
  std::vector<int> out;
  for (int r = 0; r < m.rowCount(); ++r) out.push_back(m.data(m.index(r, c), Qt::DisplayRole).toString().toInt());
  return out;
}

TEST(RankListModel, SlowestFirstFailedLastAndEveryColumnSortsBothWays) {
  Fixture f;
  RankListModel m;
  QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
  m.reset(&f.ranks, f.table);
  ASSERT_EQ(m.rowCount(), 4);
  EXPECT_EQ(column(m, RankListModel::kRank), (std::vector<int>{2, 0, 3, 1}));
  EXPECT_EQ(m.data(m.index(0, RankListModel::kMean), Qt::DisplayRole).toString(), QStringLiteral("3.000"));
  // Median of 1, 3, 1 ms is 1: rank 2 is 200 % over it; the failed rank shows dashes.
  EXPECT_EQ(m.data(m.index(0, RankListModel::kOverMedian), Qt::DisplayRole).toString(), QStringLiteral("200.0"));
  EXPECT_EQ(m.data(m.index(3, RankListModel::kMean), Qt::DisplayRole).toString(), QStringLiteral("–"));
  EXPECT_TRUE(
      m.data(m.index(3, RankListModel::kFile), Qt::DisplayRole).toString().contains("not summarised: cannot open"));
  EXPECT_EQ(m.data(m.index(0, RankListModel::kHost), Qt::DisplayRole).toString(), QStringLiteral("a"));
  EXPECT_EQ(m.rankIndex(0), 2);
  EXPECT_EQ(m.rowOf(2), 0);
  EXPECT_EQ(m.rankIndex(4), -1);

  m.sort(RankListModel::kRank, Qt::DescendingOrder);
  EXPECT_EQ(column(m, RankListModel::kRank), (std::vector<int>{3, 2, 1, 0}));
  m.sort(RankListModel::kMean, Qt::AscendingOrder);  // ties (0 and 3) in rank order, the failed rank last
  EXPECT_EQ(column(m, RankListModel::kRank), (std::vector<int>{0, 3, 2, 1}));
  m.sort(RankListModel::kOverMedian, Qt::DescendingOrder);  // the failed rank last this way too
  EXPECT_EQ(column(m, RankListModel::kRank), (std::vector<int>{2, 0, 3, 1}));
  m.sort(RankListModel::kIterations, Qt::DescendingOrder);
  EXPECT_EQ(column(m, RankListModel::kRank), (std::vector<int>{0, 2, 3, 1}));
  m.sort(RankListModel::kHost, Qt::AscendingOrder);  // "", a, a, b
  EXPECT_EQ(column(m, RankListModel::kRank), (std::vector<int>{1, 2, 3, 0}));
  m.sort(-1);  // the header's "no column": the initial order
  EXPECT_EQ(column(m, RankListModel::kRank), (std::vector<int>{2, 0, 3, 1}));
}

TEST(RankListModel, TheSelectionFollowsItsRankThroughASort) {
  Fixture f;
  RankListModel m;
  m.reset(&f.ranks, f.table);
  QItemSelectionModel selection(&m);
  selection.select(m.index(m.rowOf(3), 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  m.sort(RankListModel::kRank, Qt::AscendingOrder);
  const QModelIndexList rows = selection.selectedRows();
  ASSERT_EQ(rows.size(), 1);
  EXPECT_EQ(rows.front().row(), 3);
  EXPECT_EQ(m.rankIndex(rows.front().row()), 3);
}

}  // namespace
}  // namespace opscope::ui
