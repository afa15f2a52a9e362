// A table line's iterations and top kernels read by SAX must be what the parsed document
// gives (iterationWallUs, and topKernelsOf of the same summary held), on lines built to
// hit every rule: repeated keys, wrong types, elements that are not objects, nested
// values, numbers of every kind; and bad lines must be refused in the table reader's
// words.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "io/input_limits.h"
#include "report/rank_line_facts.h"
#include "report/rank_summary.h"
#include "test_support.h"

namespace opscope {
namespace {

using ojson = nlohmann::ordered_json;

// A random JSON value for a field: numbers of every kind, strings, the other scalars,
// and small containers (which are neither numbers nor strings).
std::string randomValue(std::mt19937& rng) {
  switch (rng() % 11) {
    case 0:
      return std::to_string(static_cast<int>(rng() % 20000) - 1000);
    case 1:
      return "18446744073709551615";  // unsigned beyond int64
    case 2:
      return "-9223372036854775808";  // int64's least
    case 3:
      return "1.5e3";
    case 4:
      return "-0.0";
    case 5:
      return std::to_string(rng() % 1000) + "." + std::to_string(rng() % 1000);
    case 6:
      return "\"k" + std::to_string(rng() % 5) + "\\u00e9\"";
    case 7:
      return rng() % 2 ? "null" : "true";
    case 8:
      return "{\"wall_us\": 1, \"name\": \"inner\"}";
    case 9:
      return "[1, 2, {\"total_us\": 3}]";
    default:
      return "\"gemm_" + std::to_string(rng() % 3) + "\"";
  }
}

// An element of a list: usually an object whose keys repeat and mix the two lists' keys.
std::string randomElement(std::mt19937& rng) {
  if (rng() % 8 == 0) return randomValue(rng);  // not an object
  static const char* kKeys[] = {"wall_us", "dur_us", "name", "total_us", "count", "step"};
  std::string out = "{";
  // A third start as a well-formed kernel or iteration, then random keys may spoil them.
  int f = 0;
  if (rng() % 3 == 0) {
    out += rng() % 2
               ? "\"name\": \"gemm_" + std::to_string(rng() % 4) + "\", \"total_us\": " + std::to_string(rng() % 900)
               : "\"dur_us\": " + std::to_string(rng() % 900) + ".5";
    ++f;
  }
  const int fields = f + static_cast<int>(rng() % 3);
  for (; f < fields; ++f) out += std::string(f ? ", " : "") + "\"" + kKeys[rng() % 6] + "\": " + randomValue(rng);
  return out + "}";
}

std::string randomLine(std::mt19937& rng) {
  static const char* kKeys[] = {"iteration_list", "top_kernels", "file", "rank"};
  std::string out = "{";
  const int keys = static_cast<int>(rng() % 6);
  for (int k = 0; k < keys; ++k) {
    out += std::string(k ? ", " : "") + "\"" + kKeys[rng() % 4] + "\": ";
    if (rng() % 6 == 0) {
      out += randomValue(rng);  // a list key whose value is not an array
      continue;
    }
    out += "[";
    const int elements = static_cast<int>(rng() % 5);
    for (int e = 0; e < elements; ++e) out += std::string(e ? ", " : "") + randomElement(rng);
    out += "]";
  }
  return out + "}";
}

TEST(RankLineFacts, RandomLinesGiveWhatTheParsedDocumentHolds) {
  std::mt19937 rng(7);
  size_t withIterations = 0, withKernels = 0;
  for (int n = 0; n < 20000; ++n) {
    const std::string line = randomLine(rng);
    RankSummary held;
    held.summary = ojson::parse(line);
    const std::vector<double> wantIterations = iterationWallUs(held.summary);
    const auto wantKernels = topKernelsOf(held);
    withIterations += !wantIterations.empty();
    withKernels += !wantKernels.empty();

    std::vector<double> iterations{-1};
    std::vector<std::pair<std::string, double>> kernels{{"stale", 1}};
    std::string why;
    ASSERT_TRUE(readRankLineFacts(line, &iterations, &kernels, why)) << line << ": " << why;
    ASSERT_EQ(iterations, wantIterations) << line;
    ASSERT_EQ(kernels, wantKernels) << line;
    // Either list alone is the same list.
    ASSERT_TRUE(readRankLineFacts(line, &iterations, nullptr, why));
    ASSERT_EQ(iterations, wantIterations) << line;
    ASSERT_TRUE(readRankLineFacts(line, nullptr, &kernels, why));
    ASSERT_EQ(kernels, wantKernels) << line;
  }
  // The generator reaches both lists often (a rule never met would test nothing).
  EXPECT_GT(withIterations, 1000u);
  EXPECT_GT(withKernels, 1000u);
}

TEST(RankLineFacts, TheLastOfARepeatedKeyCountsAsInTheDocument) {
  std::vector<double> its;
  std::vector<std::pair<std::string, double>> ks;
  std::string why;
  ASSERT_TRUE(readRankLineFacts(
      R"({"iteration_list": [{"wall_us": 1}], "top_kernels": [{"name": "a", "total_us": 2}],
          "iteration_list": [{"wall_us": 5, "wall_us": "x", "dur_us": 7}, {"dur_us": 8, "wall_us": 9}],
          "top_kernels": [{"name": "b", "total_us": 3, "name": 4}, {"total_us": 6, "name": "c"}]})",
      &its, &ks, why));
  EXPECT_EQ(its, (std::vector<double>{7, 9}));
  EXPECT_EQ(ks, (std::vector<std::pair<std::string, double>>{{"c", 6}}));
  ASSERT_TRUE(
      readRankLineFacts(R"({"iteration_list": [{"wall_us": 1}], "iteration_list": {"wall_us": 2}})", &its, &ks, why));
  EXPECT_TRUE(its.empty());
  EXPECT_TRUE(ks.empty());
}

TEST(RankLineFacts, BadLinesAreRefusedInTheTableReadersWords) {
  const auto notJson = [](const std::string& text) {
    try {
      const ojson parsed = ojson::parse(text);
      (void)parsed;
    } catch (const nlohmann::json::exception& e) {
      return std::string("not JSON (") + e.what() + ")";
    }
    return std::string("parsed");
  };
  for (const std::string text : {"", "{", R"({"iteration_list": [})", "{} x", R"({"a": 01})", "{\"a\": \"\xff\"}"}) {
    std::vector<double> its;
    std::string why;
    EXPECT_FALSE(readRankLineFacts(text, &its, nullptr, why)) << text;
    EXPECT_EQ(why, notJson(text)) << text;
    EXPECT_NE(why, "parsed");
  }
  std::string why;
  std::vector<double> its;
  EXPECT_FALSE(readRankLineFacts("[1, 2]", &its, nullptr, why));
  EXPECT_EQ(why, "not a JSON object");
  const std::string deep = "{\"x\": " + std::string(kMaxJsonDepth + 1, '[') + std::string(kMaxJsonDepth + 1, ']') + "}";
  EXPECT_FALSE(readRankLineFacts(deep, &its, nullptr, why));
  EXPECT_EQ(why, "nested deeper than 256 levels");
  // At the ceiling and around it, the table reader (a document parse) and this agree.
  for (int arrays = kMaxJsonDepth - 2; arrays <= kMaxJsonDepth + 1; ++arrays) {
    const std::string line =
        "{\"iteration_list\": [{\"wall_us\": 1}], \"x\": " + std::string(arrays, '[') + std::string(arrays, ']') + "}";
    const std::string path = test::tempPath("deep.jsonl");
    std::ofstream(path) << line << "\n";
    std::vector<RankSummary> ranks;
    std::string tableError;
    const bool tableRead = readRankTable(path, ranks, tableError);
    EXPECT_EQ(readRankLineFacts(line, &its, nullptr, why), tableRead) << arrays << " arrays: " << tableError;
    if (!tableRead) {
      EXPECT_EQ("line 1: " + why, tableError);
    }
    std::remove(path.c_str());
  }
}

}  // namespace
}  // namespace opscope
