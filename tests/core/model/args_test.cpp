#include "model/args.h"

#include <gtest/gtest.h>

#include <limits>

namespace opscope {
namespace {

TEST(Args, RoundTripEveryType) {
  StringPool pool;
  ArgsWriter w;
  w.addInt(pool.intern("neg"), -123456789012345LL);
  w.addInt(pool.intern("min"), std::numeric_limits<int64_t>::min());
  w.addDouble(pool.intern("d"), 0.125);
  w.addString(pool.intern("s"), pool.intern("hello \"you\""));
  w.addJson(pool.intern("dims"), pool.intern("[[2, 3], []]"));
  w.addBool(pool.intern("t"), true);
  w.addNull(pool.intern("z"));
  PodColumn<uint8_t> blob{9, 9};  // records start anywhere
  const uint64_t off = w.appendTo(blob);
  const auto args = decodeArgs({blob.data(), blob.size()}, off);
  ASSERT_EQ(args.size(), 7u);
  EXPECT_EQ(pool.get(args[0].key), "neg");
  EXPECT_EQ(args[0].value.i, -123456789012345LL);
  EXPECT_EQ(args[1].value.i, std::numeric_limits<int64_t>::min());
  EXPECT_EQ(args[2].value.d, 0.125);
  EXPECT_EQ(argValueToJson(args[3].value, pool), "\"hello \\\"you\\\"\"");
  EXPECT_EQ(argValueToText(args[3].value, pool), "hello \"you\"");
  EXPECT_EQ(argValueToJson(args[4].value, pool), "[[2, 3], []]");
  EXPECT_EQ(argValueToJson(args[5].value, pool), "true");
  EXPECT_EQ(argValueToJson(args[6].value, pool), "null");
}

TEST(Args, EmptyRecord) {
  ArgsWriter w;
  PodColumn<uint8_t> blob;
  const uint64_t off = w.appendTo(blob);
  EXPECT_TRUE(decodeArgs({blob.data(), blob.size()}, off).empty());
}

TEST(Args, JsonQuoteEscapesControlCharacters) { EXPECT_EQ(jsonQuote(std::string("a\x01\n", 3)), "\"a\\u0001\\n\""); }

TEST(Args, IntArgTakesWholeNumbersThatFitAndNothingElse) {
  auto arg = [](ArgType t, int64_t i, double d, std::string text = "") {
    NamedArg a;
    a.key = "Sequence number";
    a.type = t, a.i = i, a.d = d, a.text = std::move(text);
    return std::vector<NamedArg>{a};
  };
  EXPECT_EQ(intArg(arg(ArgType::Int, -7, 0), "Sequence number"), -7);
  EXPECT_EQ(intArg(arg(ArgType::Double, 0, 890.0), "Sequence number"), 890);
  EXPECT_EQ(intArg(arg(ArgType::Double, 0, -3.5), "Sequence number"), -3);
  EXPECT_FALSE(intArg(arg(ArgType::Int, 5, 0), "External id"));  // another key
  // Past int64 (a damaged file's 1e300): no value rather than an undefined cast.
  EXPECT_FALSE(intArg(arg(ArgType::Double, 0, 1e300), "Sequence number"));
  EXPECT_FALSE(intArg(arg(ArgType::Double, 0, -1e19), "Sequence number"));
  EXPECT_FALSE(intArg(arg(ArgType::Double, 0, std::numeric_limits<double>::quiet_NaN()), "Sequence number"));
  EXPECT_FALSE(intArg(arg(ArgType::String, 0, 0, "890"), "Sequence number"));
}

}  // namespace
}  // namespace opscope
