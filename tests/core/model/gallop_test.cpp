// gallopLowerBound gives std::lower_bound's answer from any start the precondition
// allows (every element before it less than the key): sorted vectors with runs of equal
// values, keys below, between, equal to and above every element, every length from 0.
#include "model/gallop.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <random>
#include <vector>

namespace opscope {
namespace {

TEST(Gallop, GivesLowerBoundFromEveryAllowedStart) {
  std::mt19937 rng(11);
  size_t checked = 0;
  for (size_t n = 0; n < 70; ++n) {
    std::vector<int> v(n);
    std::uniform_int_distribution<int> value(0, static_cast<int>(n / 2) + 1);
    for (int& x : v) x = 2 * value(rng);  // even values: odd keys fall between them
    std::sort(v.begin(), v.end());
    for (int key = -1; key <= static_cast<int>(n) + 3; ++key) {
      const auto want = std::lower_bound(v.begin(), v.end(), key);
      // Every start up to the answer (everything before it is < key); by index, so that
      // no iterator steps past the end.
      for (std::ptrdiff_t f = 0; f <= want - v.begin(); ++f) {
        ASSERT_EQ(gallopLowerBound(v.begin() + f, v.end(), key, std::less<>()), want)
            << "n " << n << " key " << key << " from " << f;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 10000u);
}

}  // namespace
}  // namespace opscope
