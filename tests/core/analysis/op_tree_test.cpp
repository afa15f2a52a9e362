#include "analysis/op_tree.h"

#include <gtest/gtest.h>

#include "navigation_fixture.h"
#include "test_support.h"

namespace opscope {
namespace {

const OpTreeNode* child(const Trace& t, const OpTree& tree, const OpTreeNode& parent, std::string_view name) {
  for (uint32_t c : parent.children)
    if (t.str(tree.nodes[c].name) == name) return &tree.nodes[c];
  return nullptr;
}

TEST(OpTree, MergesCallsByNamePathWithSelfAndGpuTime) {
  auto t = test::loadOk(test::kNavigationTrace);
  ASSERT_TRUE(t);
  const OpTree tree = buildOpTree(*t);
  ASSERT_EQ(tree.roots.size(), 2u);  // two CPU threads; GPU streams have no op tree
  const OpTreeNode& main = tree.nodes[tree.roots[0]];
  EXPECT_EQ(main.total, 100'000);  // sorted by total: the main thread first
  const OpTreeNode* step = child(*t, tree, main, "ProfilerStep#1");
  ASSERT_TRUE(step);
  const OpTreeNode* linear = child(*t, tree, *step, "aten::linear");
  ASSERT_TRUE(linear);
  EXPECT_EQ(linear->calls, 2u);
  EXPECT_EQ(linear->total, 60'000);
  EXPECT_EQ(linear->self, 60'000 - 40'000);  // the two addmm calls take 30 + 10
  EXPECT_EQ(step->self, 100'000 - 60'000);
  // GPU time through correlation: 30 + 2 (first linear) + 4 (second).
  EXPECT_EQ(linear->gpu, 36'000);
  EXPECT_EQ(step->gpu, 36'000);
  EXPECT_EQ(main.gpu, 36'000);
  const OpTreeNode* addmm = child(*t, tree, *linear, "aten::addmm");
  ASSERT_TRUE(addmm);
  EXPECT_EQ(addmm->calls, 2u);
  EXPECT_EQ(t->dur(EventRef::unpack(addmm->longest)), 30'000);
  const OpTreeNode* launch = child(*t, tree, *addmm, "cudaLaunchKernel");
  ASSERT_TRUE(launch);
  EXPECT_EQ(launch->calls, 3u);
  // Parents precede children: a reverse walk is bottom-up.
  for (size_t k = 0; k < tree.nodes.size(); ++k)
    if (tree.nodes[k].parent != UINT32_MAX) {
      EXPECT_LT(tree.nodes[k].parent, k);
    }
}

TEST(OpTree, CrossoversOnlyTakeTheirOverlapFromTheParentsSelfTime) {
  auto t = test::loadOk(R"([
    {"ph":"X","cat":"cpu_op","name":"outer","pid":1,"tid":1,"ts":0,"dur":10},
    {"ph":"X","cat":"cpu_op","name":"cross","pid":1,"tid":1,"ts":6,"dur":10}])");
  ASSERT_TRUE(t);
  const OpTree tree = buildOpTree(*t);
  const OpTreeNode* outer = child(*t, tree, tree.nodes[tree.roots[0]], "outer");
  ASSERT_TRUE(outer);
  EXPECT_EQ(outer->self, 6'000);
  EXPECT_GE(outer->self, 0);
}

}  // namespace
}  // namespace opscope

namespace opscope {
namespace {

TEST(OpTree, EveryProfilerStepMergesIntoOneNode) {
  auto t = test::loadOk(R"([
    {"ph":"X","cat":"user_annotation","name":"ProfilerStep#3","pid":1,"tid":1,"ts":0,"dur":10},
    {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":1,"dur":2},
    {"ph":"X","cat":"user_annotation","name":"ProfilerStep#4","pid":1,"tid":1,"ts":20,"dur":30},
    {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":21,"dur":4},
    {"ph":"X","cat":"user_annotation","name":"ProfilerStep#x","pid":1,"tid":1,"ts":60,"dur":1}])");
  ASSERT_TRUE(t);
  const OpTree tree = buildOpTree(*t);
  const OpTreeNode& root = tree.nodes[tree.roots[0]];
  ASSERT_EQ(root.children.size(), 2u);  // every step, and the odd "ProfilerStep#x"
  const OpTreeNode& steps = tree.nodes[root.children[0]];
  EXPECT_TRUE(steps.allSteps);
  EXPECT_EQ(steps.calls, 2u);
  EXPECT_EQ(steps.total, 40'000);
  EXPECT_EQ(t->dur(EventRef::unpack(steps.longest)), 30'000);
  ASSERT_EQ(steps.children.size(), 1u);
  EXPECT_EQ(tree.nodes[steps.children[0]].calls, 2u);
  EXPECT_FALSE(tree.nodes[root.children[1]].allSteps);
}

TEST(OpTree, ManyDistinctNamesUnderOneParent) {
  // Thousands of children of one node: the child lookup must stay a hash lookup.
  std::string json = R"([{"ph":"X","cat":"cpu_op","name":"root","pid":1,"tid":1,"ts":0,"dur":100000})";
  for (int i = 0; i < 5000; ++i)
    json += R"(,{"ph":"X","cat":"cpu_op","name":"op)" + std::to_string(i) + R"(","pid":1,"tid":1,"ts":)" +
            std::to_string(i * 2 + 1) + R"(,"dur":1})";
  auto t = test::loadOk(json + "]");
  ASSERT_TRUE(t);
  const OpTree tree = buildOpTree(*t);
  const OpTreeNode& root = tree.nodes[tree.nodes[tree.roots[0]].children[0]];
  EXPECT_EQ(root.children.size(), 5000u);
  EXPECT_EQ(root.self, 100'000'000 - 5000 * 1000);
}

}  // namespace
}  // namespace opscope
