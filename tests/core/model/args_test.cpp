#include "model/args.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

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

// A part's records, written with the part's string ids, merged into another pool: every
// key and string/JSON value is renamed, numbers and doubles kept, rows without args stay
// so, and a record that would take the blob to the ceiling is dropped as appendRow drops.
TEST(Args, AppendTranslatedRenamesEveryStringIdAndDropsAtTheCeiling) {
  StringPool part, merged;
  for (const char* early : {"x", "y", "z", "w"}) merged.intern(early);  // the merged ids differ
  ArgsWriter a, b;
  a.addInt(part.intern("External id"), 300);
  a.addString(part.intern("name"), part.intern("aten::mm"));
  a.addJson(part.intern("Input Dims"), part.intern("[[2, 3]]"));
  a.addDouble(part.intern("d"), -2.5);
  b.addBool(part.intern("flag"), false);
  b.addNull(part.intern("name"));
  PodColumn<uint8_t> blob{7};
  const auto oa = static_cast<uint32_t>(a.appendTo(blob)), ob = static_cast<uint32_t>(b.appendTo(blob));
  constexpr uint32_t kNone = 0xFFFFFFFFu;
  const std::vector<uint32_t> offsets = {ob, kNone, oa};
  std::vector<StringId> ids(part.size());
  for (StringId i = 0; i < part.size(); ++i) ids[i] = merged.intern(std::string(part.get(i)));
  PodColumn<uint8_t> to{1, 2, 3};
  PodColumn<uint32_t> toOffsets;
  EXPECT_EQ(appendArgsTranslated({blob.data(), blob.size()}, offsets, ids, kNone, to, toOffsets), 0u);
  ASSERT_EQ(toOffsets.size(), 3u);
  EXPECT_EQ(toOffsets[1], kNone);
  auto named = [&](uint32_t at) {
    std::vector<std::string> out;
    for (const Arg& x : decodeArgs({to.data(), to.size()}, at))
      out.push_back(std::string(merged.get(x.key)) + "=" + argValueToJson(x.value, merged));
    return out;
  };
  EXPECT_EQ(named(toOffsets[0]), (std::vector<std::string>{"flag=false", "name=null"}));
  EXPECT_EQ(named(toOffsets[2]),
            (std::vector<std::string>{"External id=300", "name=\"aten::mm\"", "Input Dims=[[2, 3]]", "d=-2.5"}));
  // The same records against a ceiling of 40 bytes: the first fits, the second does not.
  PodColumn<uint8_t> small;
  PodColumn<uint32_t> smallOffsets;
  const std::vector<uint32_t> two = {oa, oa};
  EXPECT_EQ(appendArgsTranslated({blob.data(), blob.size()}, two, ids, 40, small, smallOffsets), 1u);
  ASSERT_EQ(smallOffsets.size(), 2u);
  EXPECT_EQ(smallOffsets[0], 0u);
  EXPECT_EQ(smallOffsets[1], 40u);
  EXPECT_LT(small.size(), 40u);
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
