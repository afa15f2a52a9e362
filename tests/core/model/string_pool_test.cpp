#include "model/string_pool.h"

#include <gtest/gtest.h>

#include <string>

namespace opscope {
namespace {

TEST(StringPool, EmptyStringIsIdZero) {
  StringPool p;
  EXPECT_EQ(p.intern(""), 0u);
  EXPECT_EQ(p.get(0), "");
}

TEST(StringPool, SameTextSameIdAndViewsStayValidWhileGrowing) {
  StringPool p;
  const StringId a = p.intern("aten::mm");
  const std::string_view view = p.get(a);
  std::vector<StringId> ids;
  for (int i = 0; i < 100000; ++i) ids.push_back(p.intern("name_" + std::to_string(i)));
  EXPECT_EQ(p.intern("aten::mm"), a);
  EXPECT_EQ(view.data(), p.get(a).data()) << "views must never move";
  for (int i = 0; i < 100000; i += 997) EXPECT_EQ(p.get(ids[i]), "name_" + std::to_string(i));
  EXPECT_EQ(p.find("name_5"), ids[5]);
  EXPECT_EQ(p.find("missing"), StringPool::kNotFound);
}

TEST(StringPool, LargeStringsKeepTheirOwnBlock) {
  StringPool p;
  const std::string big(600000, 'k');
  const StringId small1 = p.intern("before");
  const StringId b = p.intern(big);
  const StringId b2 = p.intern(big + "x");
  const StringId small2 = p.intern("after");
  EXPECT_EQ(p.get(small1), "before");
  EXPECT_EQ(p.get(b), big);
  EXPECT_EQ(p.get(b2), big + "x");
  EXPECT_EQ(p.get(small2), "after");
}

TEST(StringPool, BinaryContent) {
  StringPool p;
  const std::string s("a\0b", 3);
  const StringId id = p.intern(s);
  EXPECT_EQ(p.get(id), s);
  EXPECT_NE(p.intern("a"), id);
}

}  // namespace
}  // namespace opscope
