#pragma once
// Collectives across ranks, call by call: the k-th collective kernel of every rank is one
// call (NCCL runs a group's collectives in one order on all ranks: ranks/cross_rank.h),
// on the aligned clocks. Per call: when the first and the last rank arrived (the skew
// between them is time the early ranks spend waiting), which rank came last, and the
// communication proper — the last rank's kernel, which waits for no one. Per rank: how
// often it was the last to arrive (Holistic Trace Analysis' straggler signal, "late
// starts"), its waiting and its communication; beside the iteration-time stragglers of
// ranks/rank_table.h.
//
// Calls count up to the fewest collectives any rank has (a rank cut short by the
// profiler's window leaves the rest unmatched: `matched` against each rank's count).
// A call where two or more ranks start together has no last rank (-1). Bus bandwidth is
// not measured here: the kernels carry no message size (the c10d op's args do).
#include <cstdint>
#include <string>
#include <vector>

#include "ranks/cross_rank.h"
#include "ranks/rank_metrics.h"

namespace opscope {

struct CollectiveCallAcross {
  size_t ordinal = 0;
  std::string kind;                      // the kind on every rank, or "mixed"
  TimeNs firstStart = 0, lastStart = 0;  // aligned clock
  int64_t lastRank = -1;                 // the rank that arrived last; -1 for a tie
  TimeNs skew = 0;                       // lastStart - firstStart
  TimeNs waitTotal = 0;                  // Σ over ranks of (lastStart - own start), each at most its kernel
  TimeNs comm = 0;                       // the last rank's kernel duration
};

struct RankCollectives {
  int64_t rank = 0;
  size_t collectives = 0;  // its collective kernels (matched or not)
  size_t lateStarts = 0;   // calls it arrived last to
  TimeNs wait = 0;         // its waiting in matched calls
  TimeNs comm = 0;         // its kernels' time in matched calls minus its waiting
};

struct CollectivesAcrossRanks {
  ClockAlignment clocks;
  size_t matched = 0;
  std::vector<CollectiveCallAcross> calls;  // by ordinal
  std::vector<RankCollectives> ranks;       // by rank
};

// ranks: one RankMetrics per rank, by rank (measureRanks of a session, or the cluster
// table's metrics).
CollectivesAcrossRanks collectivesAcrossRanks(const std::vector<RankMetrics>& ranks);

}  // namespace opscope
