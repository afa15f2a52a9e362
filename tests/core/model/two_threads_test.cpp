// Work split over two threads: every index visited once, the sort equal to one
// std::sort, an exception on the second thread rethrown on the first.
#include "model/two_threads.h"

#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <stdexcept>
#include <vector>

namespace opscope {
namespace {

TEST(TwoThreads, EveryIndexOnceWhateverTheSize) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{2}, size_t{3}, size_t{1000}, size_t{100001}}) {
    for (size_t from : {size_t{0}, kTwoThreadsFrom, SIZE_MAX}) {
      std::vector<std::atomic<int>> seen(n);
      forTwoHalves(
          n,
          [&](size_t b, size_t e) {
            for (size_t i = b; i < e; ++i) seen[i].fetch_add(1);
          },
          from);
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(seen[i].load(), 1) << "n " << n << " from " << from << " i " << i;
    }
  }
}

TEST(TwoThreads, SortEqualsOneSort) {
  std::mt19937_64 rng(7);
  for (size_t n : {size_t{0}, size_t{1}, size_t{5}, size_t{4097}, size_t{200000}}) {
    std::vector<uint64_t> v(n);
    for (uint64_t& x : v) x = rng() % 1000;  // many equal keys
    std::vector<uint64_t> expected = v;
    std::sort(expected.begin(), expected.end());
    sortOnTwoThreads(v.begin(), v.end(), std::less<>(), 0);
    EXPECT_EQ(v, expected) << n;
  }
}

TEST(TwoThreads, AnExceptionOnTheSecondThreadReachesTheCaller) {
  std::atomic<int> ran{0};
  EXPECT_THROW(forTwoHalves(
                   10,
                   [&](size_t, size_t e) {
                     ++ran;
                     if (e == 10) throw std::runtime_error("the part that ends the range");
                   },
                   0),
               std::runtime_error);
  EXPECT_EQ(ran.load(), std::thread::hardware_concurrency() >= 2 ? 2 : 1);
}

}  // namespace
}  // namespace opscope
