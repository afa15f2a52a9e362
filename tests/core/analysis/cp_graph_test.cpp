// The critical path's graph merges a repeated (u, v) as networkx' DiGraph does: the
// place of its first insertion, the data of its last. The merge (per source, pairwise
// or sorted for sources with many edges) is checked against that rule written out here.
#include "analysis/cp_graph.h"

#include <gtest/gtest.h>

#include <map>
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
  const auto& got = g.edges();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].from, want[i].from) << i;
    EXPECT_EQ(got[i].to, want[i].to) << i;
    EXPECT_EQ(got[i].attr, want[i].attr) << i;
  }
  const CpGraph::Edge* hub = g.find(0, want[0].to);
  ASSERT_NE(hub, nullptr);
  EXPECT_EQ(hub->attr, want[0].attr);
}

}  // namespace
}  // namespace opscope
