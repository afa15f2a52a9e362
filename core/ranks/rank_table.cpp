#include "ranks/rank_table.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "ranks/rank_metrics.h"

namespace opscope {

namespace {

// Kernel time per rank for the kernels with the most time over all ranks. Tracks go to
// rows by their process's rank, as measureRanks counts them (one row: every track).
void topKernelsPerRank(const Trace& trace, RankTable& table) {
  std::map<int64_t, size_t> rowOfRank;
  for (size_t r = 0; r < table.rows.size(); ++r) rowOfRank.emplace(table.rows[r].rank, r);
  std::vector<std::unordered_map<StringId, TimeNs>> perRow(table.rows.size());
  std::unordered_map<StringId, TimeNs> overall;
  for (const Track& tr : trace.tracks) {
    size_t row = 0;
    if (table.rows.size() > 1) {
      const auto it = rowOfRank.find(trace.processes[tr.process].rank);
      if (it == rowOfRank.end()) continue;
      row = it->second;
    }
    const SliceColumns& s = tr.slices;
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (s.kind[i] != SliceKind::Kernel) continue;
      addTo(perRow[row][s.name[i]], s.dur[i]);
      addTo(overall[s.name[i]], s.dur[i]);
    }
  }
  std::vector<std::pair<std::string_view, StringId>> order;
  for (const auto& [id, total] : overall) order.emplace_back(trace.str(id), id);
  std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
    const TimeNs ta = overall[a.second], tb = overall[b.second];
    return ta != tb ? ta > tb : a.first < b.first;
  });
  if (order.size() > RankTable::kTopKernels) order.resize(RankTable::kTopKernels);
  for (const auto& [name, id] : order) {
    table.kernelNames.emplace_back(name);
    for (size_t r = 0; r < table.rows.size(); ++r) {
      const auto it = perRow[r].find(id);
      table.rows[r].kernelTime.push_back(it == perRow[r].end() ? 0 : it->second);
    }
  }
}

}  // namespace

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
    row.copyOverlapTime = m.copyOverlapTime;
    row.overlapAnyTime = m.overlapAnyTime;
    row.gpuBusy = m.gpuBusy;
    for (size_t i = 0; i < m.iterations.size(); ++i)
      row.iterationWall.push_back(m.iterationWallEnds[i] - m.iterations[i].start);
    table.maxIterations = std::max(table.maxIterations, row.iterationWall.size());
  }
  // The session's clocks are aligned already: waits with no further offset.
  std::vector<const RankMetrics*> view;
  for (const RankMetrics& m : metrics) view.push_back(&m);
  ClockAlignment same;
  same.offsets.assign(metrics.size(), 0);
  const std::vector<CollectiveWait> waits = collectiveWaits(view, same);
  for (size_t r = 0; r < waits.size(); ++r) table.rows[r].collectives = waits[r];
  table.clockAlignment = trace.meta.clockAlignment;
  for (const TraceMetadata::SessionRank& s : trace.meta.sessionRanks)
    for (RankRow& row : table.rows)
      if (row.rank == s.rank) row.clockOffset = s.clockOffset;
  topKernelsPerRank(trace, table);

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
