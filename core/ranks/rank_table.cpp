#include "ranks/rank_table.h"

#include <algorithm>
#include <map>

#include "analysis/interval_set.h"
#include "hierarchy/iterations.h"

namespace opscope {

namespace {

int64_t rankOf(const Trace& t, uint32_t track) {
  const int64_t r = t.processes[t.tracks[track].process].rank;
  return r != kNoId ? r : t.meta.rank.value_or(0);
}

}  // namespace

RankTable rankTable(const Trace& trace, double stragglerPct) {
  RankTable table;
  table.stragglerPct = stragglerPct;
  std::map<int64_t, size_t> index;  // rank -> row
  auto row = [&](int64_t rank) -> size_t {
    auto [it, fresh] = index.emplace(rank, 0);
    if (fresh) it->second = index.size() - 1;
    return it->second;
  };
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) row(rankOf(trace, t));
  if (index.empty()) row(trace.meta.rank.value_or(0));
  // Rows by rank: renumber in key order.
  size_t n = 0;
  for (auto& [rank, i] : index) i = n++;
  std::vector<RankMetrics> metrics(index.size());
  table.rows.resize(index.size());
  for (const auto& [rank, i] : index) table.rows[i].rank = rank;

  // Each rank's ProfilerSteps, and the GPU drain of what each step launched.
  for (const Iteration& it : findProfilerSteps(trace))
    metrics[index[rankOf(trace, EventRef::unpack(it.ref).track)]].iterations.push_back(it);
  for (size_t r = 0; r < metrics.size(); ++r) {
    metrics[r].iterationWallEnds.clear();
    for (const Iteration& it : metrics[r].iterations) metrics[r].iterationWallEnds.push_back(it.end);
  }
  for (const LaunchLinks::Pair& p : trace.links.launchToGpu) {
    const EventRef launch = EventRef::unpack(p.first);
    RankMetrics& m = metrics[index[rankOf(trace, launch.track)]];
    const TimeNs ts = trace.start(launch);
    auto next = std::upper_bound(m.iterations.begin(), m.iterations.end(), ts,
                                 [](TimeNs t, const Iteration& i) { return t < i.start; });
    if (next == m.iterations.begin()) continue;
    const size_t i = static_cast<size_t>(next - m.iterations.begin()) - 1;
    if (ts < m.iterations[i].end) m.iterationWallEnds[i] = std::max(m.iterationWallEnds[i], trace.end(EventRef::unpack(p.second)));
  }

  // Collectives and compute per rank (the session's clocks are aligned already).
  std::vector<std::vector<IntervalSet::Interval>> comm(metrics.size()), compute(metrics.size());
  std::vector<int8_t> verdict;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    const Track& tr = trace.tracks[t];
    if (tr.kind != TrackKind::GpuStream) continue;
    const size_t r = index[rankOf(trace, t)];
    const SliceColumns& s = tr.slices;
    for (size_t i = 0; i < s.size(); ++i) {
      if (!isGpuKind(s.kind[i])) continue;
      const StringId id = s.name[i];
      if (id >= verdict.size()) verdict.resize(id + 1, -1);
      if (verdict[id] < 0) verdict[id] = s.kind[i] == SliceKind::Kernel && isCollectiveKernelName(trace.str(id)) ? 1 : 0;
      const TimeNs a = s.start[i], b = s.start[i] + s.dur[i];
      if (verdict[id] == 1) {
        metrics[r].collectives.push_back({a, b, 0});
        comm[r].emplace_back(a, b);
      } else {
        compute[r].emplace_back(a, b);
      }
    }
  }
  for (size_t r = 0; r < metrics.size(); ++r) {
    RankMetrics& m = metrics[r];
    std::sort(m.collectives.begin(), m.collectives.end(),
              [](const CollectiveCall& x, const CollectiveCall& y) { return x.start < y.start; });
    const IntervalSet c = IntervalSet::fromUnsorted(std::move(comm[r]));
    const IntervalSet k = IntervalSet::fromUnsorted(std::move(compute[r]));
    m.collectiveTime = c.length();
    RankRow& row = table.rows[r];
    row.computeTime = k.length();
    row.overlapTime = c.lengthInside(k);
    row.gpuBusy = c.unite(k).length();
    for (size_t i = 0; i < m.iterations.size(); ++i) row.iterationWall.push_back(m.iterationWallEnds[i] - m.iterations[i].start);
    table.maxIterations = std::max(table.maxIterations, row.iterationWall.size());
  }
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
