// JsonObjectWriter writes, a member and an element at a time, the bytes nlohmann writes
// for the whole object with an indent of 2.
#include <gtest/gtest.h>

#include "text/json_stream.h"
#include "text/json_text.h"

namespace opscope {
namespace {

using Json = nlohmann::ordered_json;

TEST(JsonStream, PiecesMakeTheTextOfTheWholeObject) {
  const Json rows = Json::parse(R"([{"name": "a\nb \"q\"", "v": [1, 2.5, null]}, [], {}, [[]], "x",
                                    {"deep": {"deeper": [{"k": true}]}}, 3])");
  const Json names = Json::parse(R"(["gemm", "ünïcode", ""])");
  std::string text;
  {
    JsonObjectWriter w([&](std::string_view piece) { text += piece; });
    w.value("format", "multi-rank");
    w.value("empty", Json::array());
    w.value("object", Json::object());
    w.array("none", 0, [](size_t) { return Json(); });
    w.array("rows", rows.size(), [&](size_t i) { return rows[i]; });
    JsonObjectWriter inner = w.object("top_kernels");
    inner.value("names", names);
    inner.array("total_us", rows.size(), [&](size_t i) { return rows[i]; });
    inner.close();
    JsonObjectWriter empty = w.object("nothing");
    empty.close();
    w.close();
  }
  Json whole;
  whole["format"] = "multi-rank";
  whole["empty"] = Json::array();
  whole["object"] = Json::object();
  whole["none"] = Json::array();
  whole["rows"] = rows;
  whole["top_kernels"] = {{"names", names}, {"total_us", rows}};
  whole["nothing"] = Json::object();
  EXPECT_EQ(text, jsonText(whole, 2));
  std::string bare;
  {
    JsonObjectWriter w([&](std::string_view piece) { bare += piece; });
    w.close();
  }
  EXPECT_EQ(bare, jsonText(Json::object(), 2));
}

}  // namespace
}  // namespace opscope
