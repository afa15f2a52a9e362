// The critical path's graph merges a repeated (u, v) as networkx' DiGraph does: the
// place of its first insertion, the data of its last. The merge (per source, pairwise
// or sorted for sources with many edges) is checked against that rule written out here.
#include "analysis/cp_graph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <utility>
#include <vector>

namespace opscope {
namespace {

TEST(CpGraph, RepeatedEdgesKeepTheFirstPlaceAndTheLastData) {
  constexpr uint32_t kNodes = 300;
  std::mt19937 rng(11);
  CpGraph g(kNodes, [](uint32_t n) { return static_cast<TimeNs>(n) * 10; });
  struct In {
    uint32_t from, to, attr;
  };
  std::vector<In> added;
  for (int i = 0; i < 6000; ++i) {
    // Node 0 is a hub of ~100 distinct successors (the sorted path); the rest have few.
    const uint32_t from = i % 3 == 0 ? 0 : 1 + rng() % (kNodes - 1);
    const uint32_t to = from == 0 ? 1 + rng() % 100 : 1 + rng() % (kNodes - 1);
    if (to == from) continue;
    added.push_back({from, to, static_cast<uint32_t>(i)});
    g.add(from, from * 10, to, to * 10, CpEdgeType::Operator, false, static_cast<uint32_t>(i));
  }
  g.finish();
  // The rule: one edge per (u, v), in the order of first insertion, with the last attr.
  std::map<std::pair<uint32_t, uint32_t>, size_t> slot;
  std::vector<In> want;
  for (const In& e : added) {
    auto [it, fresh] = slot.try_emplace({e.from, e.to}, want.size());
    if (fresh) want.push_back(e);
    else want[it->second].attr = e.attr;
  }
  ASSERT_LT(want.size(), added.size());  // there were repeats to merge
  ASSERT_EQ(g.edgeCount(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    const std::optional<CpGraph::Edge> e = g.find(want[i].from, want[i].to);
    ASSERT_TRUE(e) << i;
    EXPECT_EQ(e->from, want[i].from) << i;
    EXPECT_EQ(e->to, want[i].to) << i;
    EXPECT_EQ(e->attr, want[i].attr) << i;
  }
  EXPECT_FALSE(g.find(0, 0));
  // The place of first insertion decides the longest path's ties; RankedTiesAreNetworkx'
  // checks it there.
}

// networkx.dag_longest_path written out over the edges as added: the repeated-edge rule,
// nodes in the order they enter, predecessors in the order their edges were first added,
// topological generations, the first maximal predecessor, the first node of maximal
// distance. The graph must find the same path node for node.
std::vector<uint32_t> networkxLongestPath(const std::vector<CpGraph::Edge>& added, uint32_t nodes,
                                          const std::function<TimeNs(const CpGraph::Edge&)>& weight) {
  std::map<std::pair<uint32_t, uint32_t>, size_t> slot;
  std::vector<CpGraph::Edge> edges;
  for (const CpGraph::Edge& e : added) {
    auto [it, fresh] = slot.try_emplace({e.from, e.to}, edges.size());
    if (fresh) edges.push_back(e);
    else edges[it->second] = e;
  }
  std::vector<uint32_t> order;
  std::vector<bool> seen(nodes, false);
  std::vector<std::vector<size_t>> succ(nodes), pred(nodes);
  for (size_t k = 0; k < edges.size(); ++k) {
    for (uint32_t n : {edges[k].from, edges[k].to})
      if (!seen[n]) seen[n] = true, order.push_back(n);
    succ[edges[k].from].push_back(k);
    pred[edges[k].to].push_back(k);
  }
  std::vector<size_t> indegree(nodes);
  std::vector<uint32_t> generation, topo;
  for (uint32_t n : order)
    if ((indegree[n] = pred[n].size()) == 0) generation.push_back(n);
  while (!generation.empty()) {
    std::vector<uint32_t> next;
    for (uint32_t n : generation) {
      topo.push_back(n);
      for (size_t k : succ[n])
        if (--indegree[edges[k].to] == 0) next.push_back(edges[k].to);
    }
    generation = next;
  }
  if (topo.size() != order.size()) return {};
  std::vector<std::pair<TimeNs, uint32_t>> dist(nodes);
  for (uint32_t v : topo) {
    dist[v] = {0, v};
    bool any = false;
    for (size_t k : pred[v]) {
      const TimeNs d = dist[edges[k].from].first + weight(edges[k]);
      if (!any || d > dist[v].first) dist[v] = {d, edges[k].from}, any = true;
    }
  }
  uint32_t end = topo.front();
  for (uint32_t v : topo)
    if (dist[v].first > dist[end].first) end = v;
  std::vector<uint32_t> path{end};
  while (dist[path.back()].second != path.back()) path.push_back(dist[path.back()].second);
  return {path.rbegin(), path.rend()};
}

TEST(CpGraph, RankedTiesAreNetworkx) {
  // Random DAGs over shuffled labels (so labels are not a topological order), with many
  // repeated edges and ties: node times from a handful of values, weightless dependency
  // edges. A cyclic one must report its cycle.
  std::mt19937 rng(5);
  int paths = 0;
  for (int round = 0; round < 400; ++round) {
    const uint32_t nodes = 2 + rng() % 60;
    std::vector<uint32_t> label(nodes);
    for (uint32_t i = 0; i < nodes; ++i) label[i] = i;
    std::shuffle(label.begin(), label.end(), rng);
    std::vector<TimeNs> ts(nodes);
    for (TimeNs& t : ts) t = static_cast<TimeNs>(rng() % 5);
    const auto nodeTs = [&](uint32_t n) { return ts[n]; };
    CpGraph g(nodes, nodeTs);
    std::vector<CpGraph::Edge> added;
    const bool cyclic = round % 10 == 9;
    // Odd rounds: node label[0] is a hub of 40 edges or more (its repeats are merged by
    // sorting, not pairwise), and the repeats come after every first insertion, far
    // from it: the first's place must decide the ties, not the last's.
    const bool hub = round % 2 == 1, repeatsLast = round % 4 == 1;
    const int edges = static_cast<int>(rng() % (3 * nodes)) + (hub ? 40 : 0);
    std::vector<CpGraph::Edge> repeats;
    for (int i = 0; i < edges; ++i) {
      uint32_t a = hub && i < 40 ? 0 : rng() % nodes, b = rng() % nodes;
      if (a == b) continue;
      if (a > b) std::swap(a, b);
      const CpGraph::Edge e{label[a], label[b], static_cast<uint32_t>(i),
                            rng() % 3 == 0 ? CpEdgeType::Dependency : CpEdgeType::Operator, rng() % 7 == 0};
      added.push_back(e);
      if (i % 2 == 0)
        (repeatsLast ? repeats : added).push_back({e.from, e.to, e.attr + 1000, CpEdgeType::Operator, false});
    }
    added.insert(added.end(), repeats.rbegin(), repeats.rend());
    if (cyclic && !added.empty()) added.push_back({added.back().to, added.back().from, 0, CpEdgeType::Sync, false});
    for (const CpGraph::Edge& e : added) g.add(e.from, ts[e.from], e.to, ts[e.to], e.type, e.zeroWeight, e.attr);
    g.finish();
    bool cycle = false;
    const std::vector<uint32_t> got = g.longestPath(&cycle);
    EXPECT_EQ(cycle, cyclic && !added.empty()) << round;
    const auto weight = [&](const CpGraph::Edge& e) { return g.weight(e); };
    const std::vector<uint32_t> want =
        added.empty() ? std::vector<uint32_t>{} : networkxLongestPath(added, nodes, weight);
    EXPECT_EQ(got, want) << round;
    if (want.size() > 2) ++paths;
  }
  EXPECT_GT(paths, 200);  // most rounds had a path to compare
}

TEST(CpGraph, AHubOfHundredsOfInEdgesIsTakenAfterItsLastPredecessor) {
  // In-degrees past 255 are counted beyond a byte: the hub (node 0) waits on 700 chains
  // of two nodes, one of them longer, and leads to one more node. Taken a predecessor too
  // early it would miss the longest chain.
  constexpr uint32_t kChains = 700, kNodes = 2 + 2 * kChains;
  std::vector<TimeNs> ts(kNodes, 0);
  for (uint32_t c = 0; c < kChains; ++c) {
    ts[2 + 2 * c] = c == 431 ? -100 : 0;  // chain 431 starts first: 160 to the hub, the others 60
    ts[2 + 2 * c + 1] = 10;
  }
  ts[0] = 60;
  ts[1] = 70;
  CpGraph g(kNodes, [&](uint32_t n) { return ts[n]; });
  std::vector<CpGraph::Edge> added;
  for (uint32_t c = 0; c < kChains; ++c) {
    added.push_back({2 + 2 * c, 2 + 2 * c + 1, 0, CpEdgeType::Operator, false});
    added.push_back({2 + 2 * c + 1, 0, 0, CpEdgeType::Operator, false});
  }
  added.push_back({0, 1, 0, CpEdgeType::Operator, false});
  for (const CpGraph::Edge& e : added) g.add(e.from, ts[e.from], e.to, ts[e.to], e.type, e.zeroWeight, e.attr);
  g.finish();
  bool cycle = true;
  const std::vector<uint32_t> got = g.longestPath(&cycle);
  EXPECT_FALSE(cycle);
  const std::vector<uint32_t> want = {2 + 2 * 431, 2 + 2 * 431 + 1, 0, 1};
  EXPECT_EQ(got, want);
  EXPECT_EQ(got, networkxLongestPath(added, kNodes, [&](const CpGraph::Edge& e) { return g.weight(e); }));
}

}  // namespace
}  // namespace opscope
