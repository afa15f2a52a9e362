#pragma once
// The same collective on every rank of a merged session: NCCL runs a group's
// collectives in one order on all ranks, so the k-th collective kernel of one rank is
// the k-th of each other (by start over the rank's GPU streams).
#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace opscope {

struct CollectivePeer {
  int64_t rank = 0;
  EventRef kernel;
};

// For a collective kernel of a multi-rank session: its ordinal among its rank's
// collectives and the kernel at that ordinal on every rank that has one, by rank (the
// given kernel included). Empty for anything else, or outside a session.
struct CollectiveMatch {
  size_t ordinal = 0;
  std::vector<CollectivePeer> peers;
};
CollectiveMatch sameCollectiveOnEveryRank(const Trace& trace, EventRef kernel);

}  // namespace opscope
