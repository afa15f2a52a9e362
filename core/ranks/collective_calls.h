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
// A call where two or more ranks start together has no last rank (-1). The kernels carry
// no message size (the c10d op's args do, read by the performance models a layer up): the
// caller may pass sizeOf, asked on every rank for the collective its ops record and its
// nccl-tests bus bytes: the call takes the last rank's size (else the first known), or
// "mixed" and no size where ranks name different collectives; the call's bus bandwidth is then those bytes over the
// communication proper (the last rank's kernel), not over the early ranks' kernels, which include their waiting. The
// op's collective can differ from the kernel's name (NCCL runs an all-to-all as SendRecv kernels).
#include <cstdint>
#include <functional>
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
  std::string op;                        // the collective its ops record ("all_to_all"), "mixed", or ""
  double busBytes = 0;                   // from sizeOf; 0 when no rank's op records its size
  double busGBs = 0;                     // busBytes / comm; 0 when unknown
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

// What the ops around a collective kernel record: which collective, and its bus bytes
// (0 when unknown).
struct CollectiveSize {
  std::string op;
  double busBytes = 0;
};
// sizeOf(rank index, CollectiveCall::kernel).
using CollectiveSizeOf = std::function<CollectiveSize(size_t, uint64_t)>;

// ranks: one RankMetrics per rank, by rank (measureRanks of a session, or the cluster
// table's metrics).
CollectivesAcrossRanks collectivesAcrossRanks(const std::vector<RankMetrics>& ranks,
                                              const CollectiveSizeOf& sizeOf = {});

}  // namespace opscope
