// sortRuns gives std::sort's order on vectors made of sorted runs, whether it merges the
// runs or (past maxRuns) sorts.
#include "model/sorted_runs.h"

#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

namespace opscope {
namespace {

// (key, id): keys repeat across runs, ids make the order total as the critical path's
// (start, event) is.
using Item = std::pair<int, int>;

std::vector<Item> runsOf(std::mt19937& rng, size_t runs, size_t maxLength) {
  std::vector<Item> v;
  std::uniform_int_distribution<int> key(0, 50);
  std::uniform_int_distribution<size_t> length(0, maxLength);
  for (size_t r = 0; r < runs; ++r) {
    std::vector<Item> run(length(rng));
    for (Item& x : run) x = {key(rng), static_cast<int>(v.size() + (&x - run.data()))};
    std::sort(run.begin(), run.end());
    v.insert(v.end(), run.begin(), run.end());
  }
  return v;
}

TEST(SortedRuns, MergingOrSortingGivesTheSortedOrder) {
  std::mt19937 rng(7);
  const auto less = [](const Item& a, const Item& b) { return a < b; };
  size_t checked = 0;
  for (const size_t runs : {0, 1, 2, 3, 5, 8, 17, 63, 64, 65, 200})
    for (const size_t maxLength : {0, 1, 3, 40})
      for (int rep = 0; rep < 5; ++rep) {
        std::vector<Item> v = runsOf(rng, runs, maxLength), expected = v;
        std::sort(expected.begin(), expected.end());
        for (const size_t maxRuns : {size_t{1}, size_t{4}, size_t{64}}) {
          std::vector<Item> got = v;
          sortRuns(got, less, maxRuns);
          EXPECT_EQ(got, expected) << runs << " runs of up to " << maxLength << ", merged up to " << maxRuns;
          ++checked;
        }
      }
  EXPECT_EQ(checked, 11u * 4 * 5 * 3);
}

TEST(SortedRuns, DescendingDataEveryElementItsOwnRunIsSorted) {
  // 1000 runs of one element, past the default maxRuns (sorted, not merged: the result
  // cannot tell the routes apart, only that it is sorted).
  std::vector<Item> v;
  for (int i = 1000; i > 0; --i) v.push_back({i, 0});
  sortRuns(v, [](const Item& a, const Item& b) { return a < b; });
  ASSERT_EQ(v.size(), 1000u);
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i].first, static_cast<int>(i + 1));
}

}  // namespace
}  // namespace opscope
