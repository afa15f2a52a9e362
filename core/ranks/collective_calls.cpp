#include "ranks/collective_calls.h"

#include <algorithm>
#include <limits>

namespace opscope {

namespace {

// The call's collective and bus bytes from what each rank's ops record: the last rank's
// size (its kernel is the communication proper; an all-to-all's size differs by rank),
// else the first rank's that knows. Ranks whose ops name different collectives ran
// different calls at this ordinal (a rank's order differs): "mixed", no size.
void sizeCall(CollectiveCallAcross& c, size_t k, size_t last, const std::vector<RankMetrics>& ranks,
              const CollectiveSizeOf& sizeOf) {
  for (size_t r = 0; r < ranks.size(); ++r) {
    CollectiveSize size = sizeOf(r, ranks[r].collectives[k].kernel);
    if (size.op.empty()) continue;
    if (!c.op.empty() && c.op != size.op) {
      c.op = "mixed";
      c.busBytes = 0;
      return;
    }
    c.op = std::move(size.op);
    if (size.busBytes > 0 && (c.busBytes <= 0 || r == last)) c.busBytes = size.busBytes;
  }
}

}  // namespace

CollectivesAcrossRanks collectivesAcrossRanks(const std::vector<RankMetrics>& ranks, const CollectiveSizeOf& sizeOf) {
  CollectivesAcrossRanks out;
  std::vector<const RankMetrics*> ptrs;
  for (const RankMetrics& r : ranks) ptrs.push_back(&r);
  out.clocks = alignClocks(ptrs);
  const auto offset = [&](size_t r) { return r < out.clocks.offsets.size() ? out.clocks.offsets[r] : 0; };
  out.matched = ranks.empty() ? 0 : std::numeric_limits<size_t>::max();
  for (const RankMetrics& r : ranks) out.matched = std::min(out.matched, r.collectives.size());
  out.ranks.resize(ranks.size());
  for (size_t r = 0; r < ranks.size(); ++r) {
    out.ranks[r].rank = ranks[r].rank.value_or(static_cast<int64_t>(r));
    out.ranks[r].collectives = ranks[r].collectives.size();
  }
  if (ranks.size() < 2) return out;  // one rank: no call to compare
  for (size_t k = 0; k < out.matched; ++k) {
    CollectiveCallAcross c;
    c.ordinal = k;
    c.firstStart = std::numeric_limits<TimeNs>::max();
    c.lastStart = std::numeric_limits<TimeNs>::min();
    size_t last = 0, atLast = 0;
    for (size_t r = 0; r < ranks.size(); ++r) {
      const CollectiveCall& call = ranks[r].collectives[k];
      const TimeNs s = call.start + offset(r);
      const std::string& kind = ranks[r].collectiveKinds[call.kind];
      c.kind = r == 0 ? kind : c.kind == kind ? c.kind : "mixed";
      c.firstStart = std::min(c.firstStart, s);
      if (s > c.lastStart) {
        c.lastStart = s;
        last = r;
        atLast = 1;
      } else if (s == c.lastStart) {
        ++atLast;
      }
    }
    c.skew = c.lastStart - c.firstStart;
    c.lastRank = atLast == 1 ? out.ranks[last].rank : -1;
    const CollectiveCall& lastCall = ranks[last].collectives[k];
    c.comm = lastCall.end - lastCall.start;
    for (size_t r = 0; r < ranks.size(); ++r) {
      const CollectiveCall& call = ranks[r].collectives[k];
      // A rank waits at most as long as its kernel ran: beyond that the clocks disagree.
      const TimeNs wait = std::clamp<TimeNs>(c.lastStart - (call.start + offset(r)), 0, call.end - call.start);
      c.waitTotal += wait;
      out.ranks[r].wait += wait;
      out.ranks[r].comm += (call.end - call.start) - wait;
    }
    if (c.lastRank >= 0) ++out.ranks[last].lateStarts;
    if (sizeOf) sizeCall(c, k, last, ranks, sizeOf);
    if (c.busBytes > 0 && c.comm > 0) c.busGBs = c.busBytes / static_cast<double>(c.comm);  // B/ns = GB/s
    out.calls.push_back(std::move(c));
  }
  return out;
}

}  // namespace opscope
