// Collectives across ranks, call by call: on HTA's two-rank NCCL test job against a
// matching written here over the raw JSON of each rank (its nccl kernels in start order,
// moved by the session's clock offset), and against the per-rank waits the rank table
// already reports (ranks/rank_table.h); by hand on three ranks.
#include "ranks/collective_calls.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "ranks/rank_session.h"
#include "ranks/rank_table.h"
#include "test_support.h"

namespace opscope {
namespace {

TEST(CollectiveCalls, SkewLastRankWaitAndCommunicationByHand) {
  auto rank = [](int64_t r, std::vector<std::pair<TimeNs, TimeNs>> calls) {
    RankMetrics m;
    m.rank = r;
    m.collectiveKinds = {"AllReduce"};
    for (auto [s, e] : calls) m.collectives.push_back({s, e, 0});
    return m;
  };
  // Ends line up (the clocks agree); rank 2 arrives last to call 0, rank 0 to call 1,
  // ranks 1 and 2 together last to call 2; rank 1 has a fourth, unmatched call.
  const std::vector<RankMetrics> ranks = {rank(0, {{100, 200}, {300, 400}, {500, 600}}),
                                          rank(1, {{120, 200}, {250, 400}, {540, 600}, {700, 800}}),
                                          rank(2, {{150, 200}, {280, 400}, {540, 600}})};
  const CollectivesAcrossRanks c = collectivesAcrossRanks(ranks);
  EXPECT_EQ(c.clocks.method, "collectives");
  EXPECT_EQ(c.matched, 3u);
  ASSERT_EQ(c.calls.size(), 3u);
  EXPECT_EQ(c.calls[0].lastRank, 2);
  EXPECT_EQ(c.calls[0].skew, 50);
  EXPECT_EQ(c.calls[0].waitTotal, 50 + 30);
  EXPECT_EQ(c.calls[0].comm, 50);
  EXPECT_EQ(c.calls[1].lastRank, 0);
  EXPECT_EQ(c.calls[2].lastRank, -1);  // a tie has no last rank
  EXPECT_EQ(c.ranks[0].lateStarts, 1u);
  EXPECT_EQ(c.ranks[1].lateStarts, 0u);
  EXPECT_EQ(c.ranks[2].lateStarts, 1u);
  EXPECT_EQ(c.ranks[1].collectives, 4u);
  // Waiting plus communication is each rank's time in its matched calls.
  EXPECT_EQ(c.ranks[0].wait + c.ranks[0].comm, 100 + 100 + 100);
  // One rank: nothing to compare.
  EXPECT_TRUE(collectivesAcrossRanks({ranks[0]}).calls.empty());
}

TEST(CollectiveCalls, AgreeWithARawMatchingOnHtasTwoRankJob) {
  const std::string dir = OPSCOPE_SOURCE_DIR "/tests/data/hta/ranks";
  LoadResult lr = loadTraceOrSession(dir);
  ASSERT_EQ(lr.status, LoadStatus::Ok) << lr.error;
  const Trace& t = *lr.trace;
  ASSERT_EQ(t.meta.sessionRanks.size(), 2u);
  const CollectivesAcrossRanks c = collectivesAcrossRanks(measureRanks(t));
  // The raw matching: each rank's nccl kernels by start, on the session's clock.
  std::vector<std::vector<std::pair<double, double>>> calls;  // per rank: (start, end) ns
  for (const auto& r : t.meta.sessionRanks) {
    const auto json = nlohmann::json::parse(test::gunzip(test::readFile(r.file)));
    std::vector<std::pair<double, double>> mine;
    for (const auto& e : json["traceEvents"])
      if (e.value("cat", "") == "kernel" && e["name"].get<std::string>().rfind("nccl", 0) == 0) {
        // nlohmann parses the epoch-µs text into a double (0.25 µs apart at 1.7e15): the
        // comparison below allows that, opscope's own parse is exact.
        const double s = e["ts"].get<double>() * 1000 + static_cast<double>(r.clockOffset);
        mine.push_back({s, s + e["dur"].get<double>() * 1000});
      }
    std::sort(mine.begin(), mine.end());
    calls.push_back(std::move(mine));
  }
  const size_t matched = std::min(calls[0].size(), calls[1].size());
  ASSERT_EQ(c.matched, matched);
  ASSERT_GT(matched, 5u);
  std::vector<size_t> late(2, 0);
  for (size_t k = 0; k < matched; ++k) {
    SCOPED_TRACE(k);
    const double s0 = calls[0][k].first, s1 = calls[1][k].first;
    EXPECT_NEAR(static_cast<double>(c.calls[k].skew), std::abs(s0 - s1), 512);
    if (std::abs(s0 - s1) > 1000) {
      const size_t last = s1 > s0 ? 1 : 0;
      ++late[last];
      EXPECT_EQ(c.calls[k].lastRank, static_cast<int64_t>(last));
    }
  }
  EXPECT_EQ(c.ranks[0].lateStarts, late[0]);
  EXPECT_EQ(c.ranks[1].lateStarts, late[1]);
  // The same waits as the rank table's (ranks/cross_rank.h's collectiveWaits).
  const RankTable table = rankTable(t);
  ASSERT_EQ(table.rows.size(), 2u);
  for (size_t r = 0; r < 2; ++r) EXPECT_EQ(c.ranks[r].wait, table.rows[r].collectives.wait) << r;
}

}  // namespace
}  // namespace opscope
