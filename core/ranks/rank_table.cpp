#include "ranks/rank_table.h"

#include <algorithm>

#include "ranks/rank_metrics.h"

namespace opscope {

RankTable rankTable(const Trace& trace, double stragglerPct) {
  RankTable table;
  table.stragglerPct = stragglerPct;
  const std::vector<RankMetrics> metrics = measureRanks(trace);
  table.rows.resize(metrics.size());
  for (size_t r = 0; r < metrics.size(); ++r) {
    const RankMetrics& m = metrics[r];
    RankRow& row = table.rows[r];
    row.rank = m.rank.value_or(0);
    row.computeTime = m.computeTime;
    row.overlapTime = m.overlapTime;
    row.gpuBusy = m.gpuBusy;
    for (size_t i = 0; i < m.iterations.size(); ++i) row.iterationWall.push_back(m.iterationWallEnds[i] - m.iterations[i].start);
    table.maxIterations = std::max(table.maxIterations, row.iterationWall.size());
  }
  // The session's clocks are aligned already: waits with no further offset.
  std::vector<const RankMetrics*> view;
  for (const RankMetrics& m : metrics) view.push_back(&m);
  ClockAlignment same;
  same.offsets.assign(metrics.size(), 0);
  const std::vector<CollectiveWait> waits = collectiveWaits(view, same);
  for (size_t r = 0; r < waits.size(); ++r) table.rows[r].collectives = waits[r];

  std::vector<int64_t> ranks;
  std::vector<std::vector<double>> us;
  for (const RankRow& r : table.rows) {
    ranks.push_back(r.rank);
    std::vector<double> v;
    for (TimeNs w : r.iterationWall) v.push_back(static_cast<double>(w) / 1000.0);
    us.push_back(std::move(v));
  }
  table.stragglers = findStragglers(ranks, us, stragglerPct);
  return table;
}

}  // namespace opscope
