#pragma once
// The ranks of a merged multi-rank session (rank_session.h), side by side: iteration
// wall times per rank (the ranks × iterations heatmap), stragglers, and per rank the
// time in collectives and how much of it waited for the slowest rank. A single trace is
// a table of one rank (its meta rank, or 0).
#include <cstdint>
#include <vector>

#include "model/trace.h"
#include "ranks/cross_rank.h"

namespace opscope {

struct RankRow {
  int64_t rank = 0;
  std::vector<TimeNs> iterationWall;  // per ProfilerStep of this rank: start to host end or GPU drain
  CollectiveWait collectives;
  TimeNs computeTime = 0, overlapTime = 0, gpuBusy = 0;
};

struct RankTable {
  std::vector<RankRow> rows;  // by rank
  std::vector<Straggler> stragglers;
  double stragglerPct = 5.0;
  size_t maxIterations = 0;
  // False for a table read from opscope-cluster's output: summaries carry no collective
  // timings, so the collective columns are unknown rather than zero.
  bool collectivesMeasured = true;
};

RankTable rankTable(const Trace& trace, double stragglerPct = 5.0);

}  // namespace opscope
