#pragma once
// Analyses across the ranks of one job: stragglers from iteration times, clock
// alignment, and how long each rank waits in collectives for the slowest one.
#include <cstdint>
#include <string>
#include <vector>

#include "ranks/rank_metrics.h"

namespace opscope {

struct Straggler {
  int64_t rank = 0;
  double iterationUsMean = 0;
  double excessPct = 0;  // over the median of the ranks' means
};

// Ranks whose mean iteration (µs, per rank: its iterations) exceeds the median of the
// ranks' means by more than thresholdPct, slowest first. Ranks without iterations take
// no part; fewer than two ranks with iterations give none.
std::vector<Straggler> findStragglers(const std::vector<int64_t>& ranks,
                                      const std::vector<std::vector<double>>& iterationUs, double thresholdPct);
// The same from each rank's mean (excessPct ignored on input): ranks whose means are
// known without their iterations (a table of 10^6 ranks).
std::vector<Straggler> stragglersOfMeans(std::vector<Straggler> means, double thresholdPct);

// Offsets that put every rank on the clock of the first: time on rank i + offsets[i] is
// time on rank 0's clock. "collectives": the k-th collective ends together on every
// rank (a collective completes for all at once), offset = median over k of the end
// differences; "first_iteration": the first ProfilerSteps start together; "none": all 0
// (fewer than two ranks, or neither anchor on every rank).
struct ClockAlignment {
  std::string method = "none";
  std::vector<TimeNs> offsets;
  size_t anchors = 0;  // collectives or iterations compared
};
ClockAlignment alignClocks(const std::vector<const RankMetrics*>& ranks);

// Per rank: its collectives matched by order with every other rank (NCCL runs the
// collectives of a group in the same order everywhere), and of their time how much was
// spent waiting for the last rank to arrive: Σ_k (latest aligned start of k − own start).
struct CollectiveWait {
  size_t count = 0;    // this rank's collective kernels
  size_t matched = 0;  // of them, present on every rank
  TimeNs total = 0;    // union of its collective kernels
  TimeNs wait = 0;
};
std::vector<CollectiveWait> collectiveWaits(const std::vector<const RankMetrics*>& ranks, const ClockAlignment& clocks);

// Median of a non-empty list (mean of the middle two for even sizes).
double medianOf(std::vector<double> values);

}  // namespace opscope
