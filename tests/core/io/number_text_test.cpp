#include "io/number_text.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace opscope {
namespace {

struct MicrosCase {
  const char* text;
  int64_t ns;
};

void PrintTo(const MicrosCase& c, std::ostream* os) { *os << c.text; }

class MicrosToNs : public ::testing::TestWithParam<MicrosCase> {};

TEST_P(MicrosToNs, ConvertsExactly) {
  int64_t ns = -1;
  ASSERT_EQ(microsTextToNs(GetParam().text, ns), NumberStatus::Ok) << GetParam().text;
  EXPECT_EQ(ns, GetParam().ns) << GetParam().text;
}

INSTANTIATE_TEST_SUITE_P(
    Golden, MicrosToNs,
    ::testing::Values(MicrosCase{"5.1", 5100}, MicrosCase{"0", 0}, MicrosCase{"12", 12000},
                      MicrosCase{"1712196118349367.372", 1712196118349367372LL},  // 19 digits: beyond a double
                      MicrosCase{"1712196118349367.373", 1712196118349367373LL},
                      MicrosCase{"4203669604595.407", 4203669604595407LL}, MicrosCase{"-2.5", -2500},
                      MicrosCase{"0.0004", 0}, MicrosCase{"0.0005", 1},  // half away from zero
                      MicrosCase{"1.23456", 1235}, MicrosCase{"1.5e3", 1500000}, MicrosCase{"2E-3", 2},
                      MicrosCase{"1695835542514261", 1695835542514261000LL}, MicrosCase{"3.", 3000},
                      MicrosCase{"00012.000", 12000}, MicrosCase{"1712196118349367.3729999", 1712196118349367373LL}));

TEST(MicrosToNs, RejectsOutOfRangeAndGarbage) {
  int64_t ns;
  EXPECT_EQ(microsTextToNs("99999999999999999999", ns), NumberStatus::OutOfRange);
  EXPECT_EQ(microsTextToNs("1e300", ns), NumberStatus::OutOfRange);
  EXPECT_EQ(microsTextToNs("abc", ns), NumberStatus::Invalid);
  EXPECT_EQ(microsTextToNs("", ns), NumberStatus::Invalid);
  EXPECT_EQ(microsTextToNs("1.2.3", ns), NumberStatus::Invalid);
  EXPECT_EQ(microsTextToNs("-", ns), NumberStatus::Invalid);
}

TEST(IntegerText, AcceptsIntegralForms) {
  int64_t v;
  ASSERT_EQ(integerText("42", v), NumberStatus::Ok);
  EXPECT_EQ(v, 42);
  ASSERT_EQ(integerText("-7", v), NumberStatus::Ok);
  EXPECT_EQ(v, -7);
  ASSERT_EQ(integerText("12.0", v), NumberStatus::Ok);
  EXPECT_EQ(v, 12);
  ASSERT_EQ(integerText("1e3", v), NumberStatus::Ok);
  EXPECT_EQ(v, 1000);
  ASSERT_EQ(integerText("9223372036854775807", v), NumberStatus::Ok);
  EXPECT_EQ(v, INT64_MAX);
  EXPECT_EQ(integerText("9223372036854775808", v), NumberStatus::OutOfRange);
  EXPECT_EQ(integerText("12.5", v), NumberStatus::Invalid);
  EXPECT_EQ(integerText("x", v), NumberStatus::Invalid);
}

TEST(DoubleText, Parses) {
  double d;
  ASSERT_EQ(doubleText("0.25", d), NumberStatus::Ok);
  EXPECT_DOUBLE_EQ(d, 0.25);
  EXPECT_EQ(doubleText("0.2x", d), NumberStatus::Invalid);
}

// The eight-digits-a-step fast path against the digit-by-digit reading (a number's value
// by its decimal text, computed here without the library): every digit count around the
// step's width, every non-digit byte in every position of an eight-byte run, fractions.
TEST(NumberText, TimestampsOfEveryDigitCountReadAsTheirDigitsSay) {
  std::mt19937_64 rng(7);
  auto expected = [](const std::string& intDigits, const std::string& frac, int64_t& out) {
    uint64_t v = 0;
    for (char c : intDigits) v = v * 10 + static_cast<unsigned>(c - '0');
    for (size_t i = 0; i < 3; ++i) v = v * 10 + (i < frac.size() ? static_cast<unsigned>(frac[i] - '0') : 0);
    out = static_cast<int64_t>(v);
  };
  for (int len = 1; len <= 16; ++len) {
    for (int round = 0; round < 200; ++round) {
      std::string digits;
      for (int i = 0; i < len; ++i) digits.push_back(static_cast<char>('0' + rng() % 10));
      if (len == 16) digits[0] = '1';  // nanoseconds past 2^63 are out of range, not this test's case
      std::string frac;
      for (int i = 0, n = static_cast<int>(rng() % 4); i < n; ++i) frac.push_back(static_cast<char>('0' + rng() % 10));
      const std::string text = digits + (frac.empty() && rng() % 2 ? "" : "." + frac);
      int64_t want = 0, got = -1;
      expected(digits, frac, want);
      ASSERT_EQ(microsTextToNs(text, got), NumberStatus::Ok) << text;
      EXPECT_EQ(got, want) << text;
      ASSERT_EQ(microsTextToNs("-" + text, got), NumberStatus::Ok) << text;
      EXPECT_EQ(got, -want) << text;
    }
  }
  // A byte next to the digits in ASCII ('/' and ':'), or far from them, anywhere in the
  // first sixteen: never read as a digit.
  for (const char bad : {'/', ':', ' ', 'a', '\x06', '\xB0', '\xF9', '\x00'}) {
    for (int pos = 0; pos < 16; ++pos) {
      std::string text = "1712196118350464";
      text[static_cast<size_t>(pos)] = bad;
      int64_t got = 0;
      EXPECT_EQ(microsTextToNs(text, got), NumberStatus::Invalid) << pos << " " << int(bad);
    }
  }
  int64_t got = 0;
  ASSERT_EQ(microsTextToNs("1712196118350464.385", got), NumberStatus::Ok);
  EXPECT_EQ(got, 1712196118350464385);
}

}  // namespace
}  // namespace opscope
