#pragma once
// What the cross-rank analyses need of one rank's trace, measured once so the trace
// itself can be dropped (a summary over 64 ranks holds 64 of these, not 64 traces).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/trace.h"

namespace opscope {

// A communication kernel: NCCL/RCCL ("ncclDevKernel_AllReduce…", "ncclKernel_…",
// "rccl…") or a name that says which collective it is ("AllReduce", "all_gather",
// "reduce_scatter", "alltoall", "broadcast", "SendRecv").
bool isCollectiveKernelName(std::string_view name);
// "AllReduce", "AllGather", "ReduceScatter", "AllToAll", "Broadcast", "Reduce",
// "SendRecv" or "Collective" when the name does not say.
std::string collectiveKind(std::string_view name);

struct CollectiveCall {
  TimeNs start = 0, end = 0;  // on this rank's clock
  uint32_t kind = 0;          // index into RankMetrics::collectiveKinds
  uint64_t kernel = kNoRef;   // the kernel (EventRef::packed) in the measured trace; kNoRef from a table
};

struct RankMetrics {
  std::optional<int64_t> rank;              // distributedInfo.rank
  std::vector<Iteration> iterations;        // ProfilerStep#N by start
  std::vector<TimeNs> iterationWallEnds;    // iterationWallEnds(): host end or GPU drain
  std::vector<CollectiveCall> collectives;  // by start, over every stream
  std::vector<std::string> collectiveKinds;
  TimeNs gpuBusy = 0;         // union of every GPU event
  TimeNs collectiveTime = 0;  // union of collective kernels
  TimeNs computeTime = 0;     // union of the other kernels (Holistic Trace Analysis' "computation")
  TimeNs copyTime = 0;        // union of memcpy and memset
  // Collective time during which a compute kernel ran: kernels only, as HTA counts it (copies
  // under a collective counted as compute gave 20.99 % where HTA has 19.93 % on its rank 1).
  TimeNs overlapTime = 0;
  TimeNs copyOverlapTime = 0;  // collective time during which a memcpy or memset ran
  TimeNs overlapAnyTime = 0;   // collective time during which any other GPU work ran (not exposed)
};

// One trace: its ProfilerSteps, collectives and compute; rank from distributedInfo.
RankMetrics measureRank(const Trace& trace);

// Every rank of a merged session (ranks/rank_session.h) in one pass over the trace, by
// rank; rank is set on each. A single trace is one rank: its meta rank, or 0.
std::vector<RankMetrics> measureRanks(const Trace& trace);

}  // namespace opscope
