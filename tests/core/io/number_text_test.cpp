#include "io/number_text.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace opscope
