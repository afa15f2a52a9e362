#include <gtest/gtest.h>

#include <chrono>

#include "text/clip.h"
#include "text/name_pattern.h"

namespace opscope {
namespace {

TEST(Clip, CutsLongTextAndKeepsItOnOneLine) {
  EXPECT_EQ(clipForMessage("short"), "short");
  const std::string cut = clipForMessage(std::string(100'000'000, 'x'));
  EXPECT_EQ(cut, std::string(40, 'x') + "… (100000000 bytes)");
  EXPECT_EQ(clipForMessage("a\nb\tc\0d"), "a?b?c");  // the literal stops at the NUL
  EXPECT_EQ(clipForMessage(std::string_view("a\nb\0c", 5)), "a?b?c");
  // A UTF-8 character is never cut in two: "é" is 2 bytes, keep 2 of "aé..." -> "a".
  EXPECT_EQ(clipForMessage("aé" + std::string(10, 'z'), 2), "a… (13 bytes)");
}

TEST(NamePattern, FindsLikeARegexSearchAndRefusesWhatRe2CannotDo) {
  std::string error;
  auto p = NamePattern::compile("^aten::(linear|addmm)$", NamePattern::Case::Insensitive, error);
  ASSERT_TRUE(p) << error;
  EXPECT_TRUE(p->foundIn("ATEN::Linear"));
  EXPECT_FALSE(p->foundIn("aten::linear_backward"));
  auto exact = NamePattern::compile("Gemm", NamePattern::Case::Sensitive, error);
  ASSERT_TRUE(exact);
  EXPECT_TRUE(exact->foundIn("xGemm"));
  EXPECT_FALSE(exact->foundIn("xgemm"));
  // Names are bytes, not necessarily UTF-8.
  auto bytes = NamePattern::compile("k.rnel", NamePattern::Case::Insensitive, error);
  EXPECT_TRUE(
      bytes->foundIn(std::string_view("k\xff"
                                      "rnel",
                                      6)));
  for (const char* bad : {"(unclosed", "a(?!b)", "(a)\\1", "x{2,1}"}) {
    EXPECT_FALSE(NamePattern::compile(bad, NamePattern::Case::Insensitive, error)) << bad;
    EXPECT_NE(error.find(bad), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

// What made std::regex fall over: catastrophic backtracking and recursion per character.
TEST(NamePattern, HostileNamesAndPatternsStayLinear) {
  std::string error;
  auto p = NamePattern::compile("(a+)+b", NamePattern::Case::Sensitive, error);  // exponential for a backtracker
  ASSERT_TRUE(p);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(p->foundIn(std::string(1 << 20, 'a')));
  auto q = NamePattern::compile("embedding.*forward", NamePattern::Case::Insensitive, error);
  EXPECT_TRUE(q->foundIn("embedding" + std::string(8 << 20, '.') + "forward"));
  // Not a timing test: a backtracker does not finish this in a day; RE2 in milliseconds.
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::minutes(1));
}

}  // namespace
}  // namespace opscope
