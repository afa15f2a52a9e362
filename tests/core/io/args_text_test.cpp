// compactJson: an array or object without the whitespace between its tokens, strings as
// written (escapes included), and the input itself when there is nothing to drop.
#include "io/args_text.h"

#include <gtest/gtest.h>

#include <string>

namespace opscope {
namespace {

TEST(CompactJson, DropsWhitespaceBetweenTokensAndKeepsStrings) {
  std::string scratch;
  EXPECT_EQ(compactJson("[[8, 256],\n  [256]]", scratch), "[[8,256],[256]]");
  EXPECT_EQ(compactJson(R"(["a b", "c\" d",  {"k e": [1, 2]}])", scratch), R"(["a b","c\" d",{"k e":[1,2]}])");
  EXPECT_EQ(compactJson("[\"x\\\\\", 1 ]", scratch), "[\"x\\\\\",1]");  // an escaped backslash ends the string
  EXPECT_EQ(compactJson("\t[ ]\r\n", scratch), "[]");
  // A shorter value after a longer one: the reused buffer's old bytes are not returned.
  EXPECT_EQ(compactJson("[1, 2]", scratch), "[1,2]");
}

TEST(CompactJson, ReturnsTheInputItselfWhenNothingIsDropped) {
  std::string scratch;
  const std::string compact = R"([[8,256],["a b"]])";
  const std::string_view out = compactJson(compact, scratch);
  EXPECT_EQ(out, compact);
  EXPECT_EQ(out.data(), compact.data());
  EXPECT_EQ(compactJson("", scratch), "");
  EXPECT_EQ(compactJson("\"unterminated \\", scratch), "\"unterminated \\");
}

}  // namespace
}  // namespace opscope
