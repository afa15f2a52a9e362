#include "analysis/cp_graph.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace opscope {

void CpGraph::add(uint32_t u, TimeNs uts, uint32_t v, TimeNs vts, CpEdgeType type, bool zeroWeight, uint32_t attr) {
  // Past 28 bits an event would overwrite the edge's type (the builder refuses such windows).
  if (attr != kNone && attr > kMaxAttr) throw std::length_error("critical path: an edge's event index past 28 bits");
  if (!(type == CpEdgeType::Dependency || type == CpEdgeType::Sync || zeroWeight) && vts < uts) ++clamped;
  added_.push_back({u, v, pack(attr, type, zeroWeight)});
}

void CpGraph::finish() {
  // The edges by source, in insertion order within a source (a counting sort; a sort of
  // all edges by (from, to) was the graph's largest cost on 1 GB): byFrom[k] is the
  // insertion index of the k-th, and becomes the ranks.
  std::vector<uint32_t>& at = at_;
  at.assign(nodes_ + 1, 0);
  for (const Added& e : added_) ++at[e.from + 1];
  for (size_t k = 0; k < nodes_; ++k) at[k + 1] += at[k];
  std::vector<uint32_t>& byFrom = rank_;
  byFrom.resize(added_.size());
  {
    std::vector<uint32_t> fill(at.begin(), at.end() - 1);
    for (uint32_t e = 0; e < added_.size(); ++e) byFrom[fill[added_[e].from]++] = e;
  }
  // Repeated (u, v): the first's place, the last's data, found among each source's edges:
  // a source's few edges compared pairwise, a source with many sorted by (to, insertion).
  std::vector<uint8_t> keep(added_.size(), 1);
  constexpr uint32_t kPairwise = 32;
  std::vector<uint32_t> bucket;
  for (size_t u = 0; u < nodes_; ++u) {
    const uint32_t b = at[u], end = at[u + 1];
    if (end - b <= kPairwise) {
      for (uint32_t i = b; i < end; ++i) {
        const uint32_t first = byFrom[i];
        if (!keep[first]) continue;
        uint32_t last = first;
        for (uint32_t j = i + 1; j < end; ++j)
          if (added_[byFrom[j]].to == added_[first].to) keep[last = byFrom[j]] = 0;
        if (last != first) added_[first].packed = added_[last].packed;
      }
      continue;
    }
    bucket.assign(byFrom.begin() + b, byFrom.begin() + end);
    std::sort(bucket.begin(), bucket.end(), [&](uint32_t x, uint32_t y) {
      return added_[x].to != added_[y].to ? added_[x].to < added_[y].to : x < y;
    });
    for (size_t i = 0; i < bucket.size();) {
      size_t j = i;
      while (j + 1 < bucket.size() && added_[bucket[j + 1]].to == added_[bucket[i]].to) keep[bucket[++j]] = 0;
      if (j != i) added_[bucket[i]].packed = added_[bucket[j]].packed;
      i = j + 1;
    }
  }
  std::vector<uint32_t>().swap(bucket);
  // The kept edges by source; byFrom compacted in place into the ranks, the offsets
  // rewritten as they are passed (at[u] and at[u + 1] are read before at[u] is written).
  size_t kept = 0;
  for (uint8_t k : keep) kept += k;
  out_.resize(kept);
  uint32_t w = 0;
  for (size_t u = 0; u < nodes_; ++u) {
    const uint32_t b = at[u], end = at[u + 1];
    at[u] = w;
    for (uint32_t i = b; i < end; ++i) {
      const uint32_t e = byFrom[i];
      if (!keep[e]) continue;
      out_[w] = {added_[e].to, added_[e].packed};
      byFrom[w++] = e;
    }
  }
  at[nodes_] = w;
  rank_.resize(w);  // not shrunk: few edges repeat, and a copy would hold both
  std::vector<uint8_t>().swap(keep);
  std::vector<Added>().swap(added_);
  std::vector<uint8_t> entered(nodes_, 0);  // a node some edge enters
  for (const Out& e : out_) entered[e.to] = 1;
  // The nodes in the graph, and the first generation: the nodes no edge enters, in the
  // order they entered the graph (with their first edge, which left them: its rank is
  // the first of theirs).
  std::vector<std::pair<uint32_t, uint32_t>> firstRank;
  nodeCount_ = 0;
  for (uint32_t n = 0; n < nodes_; ++n) {
    const bool leaves = at[n + 1] > at[n];
    if (leaves || entered[n]) ++nodeCount_;
    if (leaves && !entered[n]) firstRank.emplace_back(rank_[at[n]], n);
  }
  std::sort(firstRank.begin(), firstRank.end());
  sources_.resize(firstRank.size());
  for (size_t k = 0; k < firstRank.size(); ++k) sources_[k] = firstRank[k].second;
}

uint32_t CpGraph::sourceOf(uint32_t k) const {
  // The last node whose edges start at or before k (nodes without edges share its offset
  // and come before it).
  return static_cast<uint32_t>(std::upper_bound(at_.begin(), at_.end(), k) - at_.begin() - 1);
}

std::optional<CpGraph::Edge> CpGraph::find(uint32_t u, uint32_t v) const {
  if (u + 1 >= at_.size()) return std::nullopt;
  for (uint32_t k = at_[u]; k < at_[u + 1]; ++k)
    if (out_[k].to == v) return Edge{u, v, attrOf(out_[k].packed), typeOf(out_[k].packed), zeroOf(out_[k].packed)};
  return std::nullopt;
}

std::vector<uint32_t> CpGraph::longestPath(bool* cycle) const {
  // Kahn's generations. A node's distance is final when it is taken (every predecessor
  // was taken before and pushed its distance to it), so it is pushed to the node's
  // successors then: a successor keeps the largest, of equal ones the edge of lowest
  // rank (networkx' first maximal predecessor in insertion order), the node with none
  // is at 0 and its own predecessor. Only the best in-edge of each node is kept, and the
  // path is walked back along them from its end.
  // In-degrees in a byte, those of 255 and more counted on in a map (a node waiting on
  // hundreds of streams or lock calls is rare): 12 MB fewer at the path search's peak on 1 GB.
  std::vector<uint8_t> indegree(nodes_, 0);
  std::unordered_map<uint32_t, uint32_t> beyond;  // a node's in-edges past 255
  for (const Out& e : out_) {
    if (indegree[e.to] == 255) ++beyond[e.to];
    else ++indegree[e.to];
  }
  // Removes one in-edge of v; true when it was the last.
  const auto removeInEdge = [&](uint32_t v) {
    if (indegree[v] == 255)
      if (const auto it = beyond.find(v); it != beyond.end()) {
        if (--it->second == 0) beyond.erase(it);
        return false;
      }
    return --indegree[v] == 0;
  };
  std::vector<TimeNs> dist(nodes_, 0);
  std::vector<uint32_t> best(nodes_, kNone);  // the stored edge a node's distance came by
  std::vector<uint32_t> generation(sources_), next;
  size_t taken = 0;
  uint32_t end = kNone;  // the first node taken of maximal distance
  while (!generation.empty()) {
    next.clear();
    for (uint32_t n : generation) {
      if (end == kNone || dist[n] > dist[end]) end = n;
      ++taken;
      for (uint32_t k = at_[n]; k < at_[n + 1]; ++k) {
        const Out& e = out_[k];
        const TimeNs d = dist[n] + weight(n, e.to, typeOf(e.packed), zeroOf(e.packed));
        uint32_t& b = best[e.to];
        if (b == kNone || d > dist[e.to] || (d == dist[e.to] && rank_[k] < rank_[b])) {
          dist[e.to] = d;
          b = k;
        }
        if (removeInEdge(e.to)) next.push_back(e.to);
      }
    }
    generation.swap(next);
  }
  *cycle = taken != nodeCount_;
  if (*cycle || taken == 0) return {};
  std::vector<uint8_t>().swap(indegree);
  std::vector<TimeNs>().swap(dist);
  std::vector<uint32_t> path;
  for (uint32_t v = end;; v = sourceOf(best[v])) {
    path.push_back(v);
    if (best[v] == kNone) break;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

void CpGraph::dropPathSearch() {
  decltype(rank_)().swap(rank_);
  decltype(sources_)().swap(sources_);
}

std::array<size_t, CpGraph::kEdgeTypes> CpGraph::edgesByType() const {
  std::array<size_t, kEdgeTypes> n{};
  for (const Out& e : out_) ++n[static_cast<size_t>(typeOf(e.packed))];
  return n;
}

}  // namespace opscope
