// JsonObjectWriter writes, a member and an element at a time, the bytes nlohmann writes
// for the whole object with an indent of 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

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

TEST(JsonStream, AppendedDoublesAreNlohmannsText) {
  // appendJsonDouble writes what dumping the number as a value writes: shortest digits,
  // ".0" on whole numbers, nlohmann's exponent style, null for what JSON cannot hold.
  std::vector<double> values = {0.0,
                                -0.0,
                                1.0,
                                -1.0,
                                0.5,
                                0.001,
                                1e-5,
                                123.456,
                                1e15,
                                1e16,
                                1e21,
                                1e22,
                                1e-300,
                                5e-324,
                                0.1,
                                1.0 / 3,
                                2.0 / 3,
                                1e308,
                                -2.5e-7,
                                4503599627370496.5,
                                9007199254740993.0,
                                std::numeric_limits<double>::quiet_NaN(),
                                std::numeric_limits<double>::infinity(),
                                -std::numeric_limits<double>::infinity()};
  uint64_t x = 88172645463325252ull;  // xorshift: bit patterns of every magnitude
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    double d;
    std::memcpy(&d, &x, sizeof d);
    values.push_back(d);
    values.push_back(std::round(static_cast<double>(x % 100000000) / 7.0) / 1000.0);  // as round3 gives
  }
  for (const double v : values) {
    std::string out = "x";
    appendJsonDouble(out, v);
    std::string want = "x";
    want += jsonText(Json(v));
    ASSERT_EQ(out, want) << v;
  }
}

TEST(JsonStream, ALongArrayIsPassedOnInBatchesWithTheWholeText) {
  // 100,000 elements (about 3 MB): the text is dump(2)'s across the batches' seams, and
  // the sink is called a batch at a time, not an element at a time.
  const size_t n = 100000;
  std::string text;
  size_t calls = 0, largest = 0;
  {
    JsonObjectWriter w([&](std::string_view piece) {
      text += piece;
      ++calls;
      largest = std::max(largest, piece.size());
    });
    w.value("before", 1);
    const std::string in(w.elementIndent() + 2, ' ');
    w.arrayText("rows", n, [&](size_t i, std::string& o) {
      o += "{\n" + in + "\"i\": " + std::to_string(i) + ",\n" + in + "\"us\": ";
      appendJsonDouble(o, static_cast<double>(i) / 1000);
      o += "\n" + std::string(w.elementIndent(), ' ') + "}";
    });
    w.value("after", "end");
    w.close();
  }
  Json whole;
  whole["before"] = 1;
  whole["rows"] = Json::array();
  for (size_t i = 0; i < n; ++i) whole["rows"].push_back(Json{{"i", i}, {"us", static_cast<double>(i) / 1000}});
  whole["after"] = "end";
  EXPECT_EQ(text, jsonText(whole, 2));
  EXPECT_LT(calls, 100u);                 // about 3 MB / 64 KiB pieces, and the other members
  EXPECT_LT(largest, 64u * 1024 + 1024);  // a batch ends at the element that passes 64 KiB
}

TEST(JsonStream, AnArrayWrittenOnTwoThreadsHasArrayTextsBytes) {
  // Counts either side of the threshold (8 here) and odd halves. Each writer made counts
  // the elements it wrote: two writers split a large array in halves.
  for (const size_t n : {0u, 1u, 2u, 3u, 7u, 8u, 9u, 1001u, 20000u}) {
    SCOPED_TRACE(n);
    std::vector<std::shared_ptr<size_t>> writers;
    const auto document = [&](bool twoThreads) {
      std::string text;
      JsonObjectWriter w([&](std::string_view piece) { text += piece; });
      w.value("before", 1);
      const std::string in(w.elementIndent() + 2, ' '), close(w.elementIndent(), ' ');
      const auto make = [&] {
        auto count = writers.emplace_back(std::make_shared<size_t>(0));
        return JsonObjectWriter::ElementWriter([&in, &close, count](size_t i, std::string& o) {
          o += "{\n" + in + "\"i\": " + std::to_string(i) + ",\n" + in + "\"name\": \"row " + std::to_string(i % 7) +
               "\"\n" + close + "}";
          ++*count;
        });
      };
      if (twoThreads) w.arrayTextOnTwoThreads("rows", n, make, 8);
      else w.arrayText("rows", n, make());
      w.value("after", "end");
      w.close();
      return text;
    };
    const std::string one = document(false);
    writers.clear();
    const std::string two = document(true);
    // Compared by hand: gtest's diff of two large texts takes gigabytes.
    const auto firstDifference = [](const std::string& a, const std::string& b) {
      return static_cast<size_t>(std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin());
    };
    EXPECT_TRUE(two == one) << "differs from arrayText's at byte " << firstDifference(two, one);
    if (n >= 8 && std::thread::hardware_concurrency() >= 2) {
      ASSERT_EQ(writers.size(), 2u);
      EXPECT_EQ(*writers[0] + *writers[1], n);
      EXPECT_EQ(*writers[0], n / 2);
    }
    Json whole;
    whole["before"] = 1;
    whole["rows"] = Json::array();
    for (size_t i = 0; i < n; ++i) whole["rows"].push_back(Json{{"i", i}, {"name", "row " + std::to_string(i % 7)}});
    whole["after"] = "end";
    const std::string dumped = jsonText(whole, 2);
    EXPECT_TRUE(two == dumped) << "differs from dump(2)'s at byte " << firstDifference(two, dumped);
  }
}

TEST(JsonStream, AnExceptionOnTheSecondThreadReachesTheCaller) {
  std::string text;
  JsonObjectWriter w([&](std::string_view piece) { text += piece; });
  const auto make = [] {
    return JsonObjectWriter::ElementWriter([](size_t i, std::string& o) {
      if (i == 15) throw std::runtime_error("element 15");
      o += "0";
    });
  };
  EXPECT_THROW(w.arrayTextOnTwoThreads("rows", 20, make, 8), std::runtime_error);
  // On this thread's half: the other is joined before it is rethrown.
  const auto first = [] {
    return JsonObjectWriter::ElementWriter([](size_t i, std::string& o) {
      if (i == 2) throw std::runtime_error("element 2");
      o += "0";
    });
  };
  std::string other;
  JsonObjectWriter v([&](std::string_view piece) { other += piece; });
  EXPECT_THROW(v.arrayTextOnTwoThreads("rows", 20, first, 8), std::runtime_error);
}

}  // namespace
}  // namespace opscope
