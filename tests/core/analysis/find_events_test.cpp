#include "analysis/find_events.h"

#include <gtest/gtest.h>

#include "navigation_fixture.h"
#include "test_support.h"

namespace opscope {
namespace {

std::vector<std::string> names(const Trace& t, const std::vector<EventRef>& refs) {
  std::vector<std::string> out;
  for (EventRef r : refs) out.emplace_back(t.name(r));
  return out;
}

TEST(FindEvents, SubstringIgnoresCaseAndOrdersByTime) {
  auto t = test::loadOk(test::kNavigationTrace);
  ASSERT_TRUE(t);
  const NameMatcher m = matchNames(t->strings, {"gemm", false, false});
  EXPECT_EQ(m.names, 2u);
  const auto hits = findEvents(*t, m);
  EXPECT_EQ(names(*t, hits), (std::vector<std::string>{"sgemm_128x64", "SGEMM_tail"}));
  const NameMatcher exactCase = matchNames(t->strings, {"gemm", false, true});
  EXPECT_EQ(findEvents(*t, exactCase).size(), 1u);
}

TEST(FindEvents, RegularExpressionsAndLimits) {
  auto t = test::loadOk(test::kNavigationTrace);
  ASSERT_TRUE(t);
  const NameMatcher m = matchNames(t->strings, {"^aten::(linear|addmm)$", true, false});
  const auto hits = findEvents(*t, m);
  EXPECT_EQ(names(*t, hits), (std::vector<std::string>{"aten::linear", "aten::addmm", "aten::linear", "aten::addmm"}));
  EXPECT_EQ(findEvents(*t, m, 3).size(), 3u);
  EXPECT_THROW(matchNames(t->strings, {"(unclosed", true, false}), PatternError);
}

TEST(FindEvents, EmptyOrMissingPatternMatchesNothing) {
  auto t = test::loadOk(test::kNavigationTrace);
  ASSERT_TRUE(t);
  EXPECT_FALSE(matchNames(t->strings, {"", false, false}).any());
  const NameMatcher none = matchNames(t->strings, {"no such op", false, false});
  EXPECT_FALSE(none.any());
  EXPECT_TRUE(findEvents(*t, none).empty());
}

}  // namespace
}  // namespace opscope
