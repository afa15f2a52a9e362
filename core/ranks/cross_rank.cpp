#include "ranks/cross_rank.h"

#include <algorithm>
#include <numeric>

namespace opscope {

double medianOf(std::vector<double> v) {
  if (v.empty()) return 0;
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double hi = v[mid];
  if (v.size() % 2 == 1) return hi;
  const double lo = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lo + hi) / 2;
}

std::vector<Straggler> findStragglers(const std::vector<int64_t>& ranks,
                                      const std::vector<std::vector<double>>& iterationUs, double thresholdPct) {
  std::vector<Straggler> means;
  for (size_t i = 0; i < ranks.size() && i < iterationUs.size(); ++i) {
    const auto& its = iterationUs[i];
    if (its.empty()) continue;
    means.push_back({ranks[i], std::accumulate(its.begin(), its.end(), 0.0) / static_cast<double>(its.size()), 0});
  }
  return stragglersOfMeans(std::move(means), thresholdPct);
}

std::vector<Straggler> stragglersOfMeans(std::vector<Straggler> means, double thresholdPct) {
  if (means.size() < 2) return {};
  std::vector<double> values;
  for (const Straggler& s : means) values.push_back(s.iterationUsMean);
  const double median = medianOf(values);
  std::vector<Straggler> out;
  if (median <= 0) return out;
  for (Straggler s : means) {
    s.excessPct = (s.iterationUsMean / median - 1.0) * 100.0;
    if (s.excessPct > thresholdPct) out.push_back(s);
  }
  std::sort(out.begin(), out.end(), [](const Straggler& a, const Straggler& b) {
    return a.excessPct != b.excessPct ? a.excessPct > b.excessPct : a.rank < b.rank;
  });
  return out;
}

namespace {

TimeNs medianNs(std::vector<TimeNs> v) {
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  return v[mid];
}

size_t commonCollectives(const std::vector<const RankMetrics*>& ranks) {
  size_t n = SIZE_MAX;
  for (const RankMetrics* r : ranks) n = std::min(n, r->collectives.size());
  return ranks.empty() ? 0 : n;
}

}  // namespace

ClockAlignment alignClocks(const std::vector<const RankMetrics*>& ranks) {
  ClockAlignment a;
  a.offsets.assign(ranks.size(), 0);
  if (ranks.size() < 2) return a;
  const size_t common = commonCollectives(ranks);
  if (common > 0) {
    a.method = "collectives";
    a.anchors = common;
    const auto& ref = ranks[0]->collectives;
    for (size_t r = 1; r < ranks.size(); ++r) {
      std::vector<TimeNs> diffs;
      diffs.reserve(common);
      for (size_t k = 0; k < common; ++k) diffs.push_back(ref[k].end - ranks[r]->collectives[k].end);
      a.offsets[r] = medianNs(std::move(diffs));
    }
    return a;
  }
  const bool allIterate =
      std::all_of(ranks.begin(), ranks.end(), [](const RankMetrics* r) { return !r->iterations.empty(); });
  if (allIterate) {
    a.method = "first_iteration";
    a.anchors = 1;
    for (size_t r = 1; r < ranks.size(); ++r)
      a.offsets[r] = ranks[0]->iterations[0].start - ranks[r]->iterations[0].start;
  }
  return a;
}

std::vector<CollectiveWait> collectiveWaits(const std::vector<const RankMetrics*>& ranks,
                                            const ClockAlignment& clocks) {
  std::vector<CollectiveWait> out(ranks.size());
  const size_t common = commonCollectives(ranks);
  for (size_t r = 0; r < ranks.size(); ++r) {
    out[r].count = ranks[r]->collectives.size();
    out[r].matched = common;
    out[r].total = ranks[r]->collectiveTime;
  }
  const auto offset = [&](size_t r) { return r < clocks.offsets.size() ? clocks.offsets[r] : 0; };
  for (size_t k = 0; k < common; ++k) {
    TimeNs latest = INT64_MIN;
    for (size_t r = 0; r < ranks.size(); ++r) latest = std::max(latest, ranks[r]->collectives[k].start + offset(r));
    for (size_t r = 0; r < ranks.size(); ++r) {
      const CollectiveCall& c = ranks[r]->collectives[k];
      // A rank waits at most as long as its kernel ran: beyond that the clocks disagree.
      out[r].wait += std::min(latest - (c.start + offset(r)), c.end - c.start);
    }
  }
  return out;
}

}  // namespace opscope
