#pragma once
// The ranks of a merged multi-rank session (rank_session.h), side by side: iteration
// wall times per rank (the ranks × iterations heatmap), stragglers, and per rank the
// time in collectives and how much of it waited for the slowest rank, the clock offset
// the session applied, and its time in the job's top kernels. A single trace is a table
// of one rank (its meta rank, or 0).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/trace.h"
#include "ranks/cross_rank.h"

namespace opscope {

struct RankRow {
  int64_t rank = 0;
  std::vector<TimeNs> iterationWall;  // per ProfilerStep of this rank: start to host end or GPU drain
  CollectiveWait collectives;
  // As RankMetrics: compute kernels, collective time under compute kernels, under copies, under any.
  TimeNs computeTime = 0, overlapTime = 0, copyOverlapTime = 0, overlapAnyTime = 0, gpuBusy = 0;
  // Added to this rank's times to put it on the first rank's clock; unset outside a
  // merged session (one trace, or a cluster table).
  std::optional<TimeNs> clockOffset;
  // Per RankTable::kernelNames: this rank's total time in that kernel; -1 where unknown
  // (a cluster table lists only each rank's own top kernels).
  std::vector<TimeNs> kernelTime;
};

struct RankTable {
  std::vector<RankRow> rows;  // by rank
  std::vector<Straggler> stragglers;
  double stragglerPct = 5.0;
  size_t maxIterations = 0;
  // The kernels with the most time summed over every rank, most first (at most
  // kTopKernels), and how the session's clocks were aligned (empty: not a session).
  std::vector<std::string> kernelNames;
  std::string clockAlignment;
  static constexpr size_t kTopKernels = 10;
  // False for a table read from opscope-cluster's output: summaries carry no collective
  // timings, so the collective columns are unknown rather than zero.
  bool collectivesMeasured = true;
};

RankTable rankTable(const Trace& trace, double stragglerPct = 5.0);

}  // namespace opscope
