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
  // Repeated (u, v): the first's place, the last's data.
  std::vector<uint32_t> byKey(edges_.size());
  std::iota(byKey.begin(), byKey.end(), 0u);
  // By (from, to), then insertion: a total order, sorted in place (no stable sort's buffer).
  std::sort(byKey.begin(), byKey.end(), [&](uint32_t a, uint32_t b) {
    if (edges_[a].from != edges_[b].from) return edges_[a].from < edges_[b].from;
    if (edges_[a].to != edges_[b].to) return edges_[a].to < edges_[b].to;
    return a < b;
  });
  std::vector<uint8_t> keep(edges_.size(), 0);
  for (size_t i = 0; i < byKey.size();) {
    size_t j = i;
    while (j + 1 < byKey.size() && edges_[byKey[j + 1]].from == edges_[byKey[i]].from &&
           edges_[byKey[j + 1]].to == edges_[byKey[i]].to)
      ++j;
    edges_[byKey[i]] = edges_[byKey[j]];  // stable: byKey[i] is the first, byKey[j] the last
    keep[byKey[i]] = 1;
    i = j + 1;
  }
  std::vector<uint32_t>().swap(byKey);
  size_t n = 0;
  for (size_t i = 0; i < edges_.size(); ++i)
    if (keep[i]) edges_[n++] = edges_[i];
  edges_.resize(n);  // not shrunk: reserved close to need, and a copy would hold both
  // Adjacency in edge (insertion) order.
  const size_t nodes = seen_.size();
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
