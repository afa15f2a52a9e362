#include "analysis/cp_graph.h"

#include <algorithm>
#include <numeric>

namespace opscope {

void CpGraph::add(uint32_t u, TimeNs uts, uint32_t v, TimeNs vts, CpEdgeType type, bool zeroWeight, uint32_t attr) {
  if (!(type == CpEdgeType::Dependency || type == CpEdgeType::Sync || zeroWeight) && vts < uts) ++clamped;
  touch(u);
  touch(v);
  edges_.push_back({u, v, attr, type, zeroWeight});
}

void CpGraph::finish() {
  // Repeated (u, v): the first's place, the last's data. Found among the edges of each
  // source, which a counting sort lists in insertion order (a sort of all edges by
  // (from, to) was the graph's largest cost on 1 GB); a source's few edges are compared
  // pairwise, a source with many sorted by (to, insertion).
  const size_t nodes = seen_.size();
  std::vector<uint32_t> fromAt(nodes + 1, 0);
  for (const Edge& e : edges_) ++fromAt[e.from + 1];
  for (size_t k = 0; k < nodes; ++k) fromAt[k + 1] += fromAt[k];
  std::vector<uint32_t> byFrom(edges_.size());
  {
    std::vector<uint32_t> fill(fromAt.begin(), fromAt.end() - 1);
    for (uint32_t e = 0; e < edges_.size(); ++e) byFrom[fill[edges_[e].from]++] = e;
  }
  std::vector<uint8_t> keep(edges_.size(), 1);
  constexpr uint32_t kPairwise = 32;
  std::vector<uint32_t> bucket;
  for (size_t u = 0; u < nodes; ++u) {
    const uint32_t b = fromAt[u], end = fromAt[u + 1];
    if (end - b <= kPairwise) {
      for (uint32_t i = b; i < end; ++i) {
        const uint32_t first = byFrom[i];
        if (!keep[first]) continue;
        uint32_t last = first;
        for (uint32_t j = i + 1; j < end; ++j)
          if (edges_[byFrom[j]].to == edges_[first].to) keep[last = byFrom[j]] = 0;
        if (last != first) edges_[first] = edges_[last];
      }
      continue;
    }
    bucket.assign(byFrom.begin() + b, byFrom.begin() + end);
    std::sort(bucket.begin(), bucket.end(), [&](uint32_t x, uint32_t y) {
      return edges_[x].to != edges_[y].to ? edges_[x].to < edges_[y].to : x < y;
    });
    for (size_t i = 0; i < bucket.size();) {
      size_t j = i;
      while (j + 1 < bucket.size() && edges_[bucket[j + 1]].to == edges_[bucket[i]].to) keep[bucket[++j]] = 0;
      if (j != i) edges_[bucket[i]] = edges_[bucket[j]];
      i = j + 1;
    }
  }
  std::vector<uint32_t>().swap(byFrom);
  std::vector<uint32_t>().swap(fromAt);
  size_t n = 0;
  for (size_t i = 0; i < edges_.size(); ++i)
    if (keep[i]) edges_[n++] = edges_[i];
  edges_.resize(n);  // not shrunk: reserved close to need, and a copy would hold both
  // Adjacency in edge (insertion) order.
  auto build = [&](std::vector<uint32_t>& at, std::vector<uint32_t>& ids, bool out) {
    at.assign(nodes + 1, 0);
    for (const Edge& e : edges_) ++at[(out ? e.from : e.to) + 1];
    for (size_t k = 0; k < nodes; ++k) at[k + 1] += at[k];
    ids.resize(edges_.size());
    std::vector<uint32_t> fill(at.begin(), at.end() - 1);
    for (uint32_t e = 0; e < edges_.size(); ++e) ids[fill[out ? edges_[e].from : edges_[e].to]++] = e;
  };
  build(succAt_, succ_, true);
  build(predAt_, pred_, false);
}

const CpGraph::Edge* CpGraph::find(uint32_t u, uint32_t v) const {
  if (u + 1 >= succAt_.size()) return nullptr;
  for (uint32_t k = succAt_[u]; k < succAt_[u + 1]; ++k)
    if (edges_[succ_[k]].to == v) return &edges_[succ_[k]];
  return nullptr;
}

std::vector<uint32_t> CpGraph::longestPath(bool* cycle) const {
  const size_t nodes = seen_.size();
  // A node's distance and best predecessor: the first of its in-edges (in insertion
  // order) of maximal distance, itself when it has none (networkx' choice).
  std::vector<TimeNs> dist(nodes, 0);
  const auto bestInto = [&](uint32_t v, uint32_t* from) {
    TimeNs best = 0;
    uint32_t bestFrom = v;
    bool any = false;
    for (uint32_t k = predAt_[v]; k < predAt_[v + 1]; ++k) {
      const Edge& e = edges_[pred_[k]];
      const TimeNs d = dist[e.from] + weight(e);
      if (!any || d > best) {
        best = d;
        bestFrom = e.from;
        any = true;
      }
    }
    if (from) *from = bestFrom;
    return best;
  };
  // Kahn's generations, nodes in insertion order; a node's distance is final when it is
  // taken (its predecessors were all taken before), so neither the topological order
  // nor every node's predecessor is kept: the path is walked back from its end.
  std::vector<uint32_t> indegree(nodes, 0), generation, next;
  for (uint32_t n : order_) indegree[n] = predAt_[n + 1] - predAt_[n];
  for (uint32_t n : order_)
    if (indegree[n] == 0) generation.push_back(n);
  size_t taken = 0;
  uint32_t end = kNone;  // the first node taken of maximal distance
  while (!generation.empty()) {
    next.clear();
    for (uint32_t n : generation) {
      dist[n] = bestInto(n, nullptr);
      if (end == kNone || dist[n] > dist[end]) end = n;
      ++taken;
      for (uint32_t k = succAt_[n]; k < succAt_[n + 1]; ++k)
        if (--indegree[edges_[succ_[k]].to] == 0) next.push_back(edges_[succ_[k]].to);
    }
    generation.swap(next);
  }
  *cycle = taken != order_.size();
  if (*cycle || taken == 0) return {};
  std::vector<uint32_t>().swap(indegree);
  std::vector<uint32_t> path;
  for (uint32_t v = end, u = kNone; u != v;) {
    path.push_back(v);
    u = v;
    bestInto(u, &v);
  }
  std::reverse(path.begin(), path.end());
  return path;
}

void CpGraph::dropPathSearch() {
  nodeCount_ = order_.size();
  decltype(order_)().swap(order_);
  decltype(seen_)().swap(seen_);
  decltype(predAt_)().swap(predAt_);
  decltype(pred_)().swap(pred_);
}

size_t CpGraph::memoryBytes() const {
  return edges_.capacity() * sizeof(Edge) + seen_.capacity() + order_.capacity() * 4 +
         (succAt_.capacity() + succ_.capacity() + predAt_.capacity() + pred_.capacity()) * 4;
}

}  // namespace opscope
