// An opscope-cluster table is read once to check it and take each rank's facts, then
// read again line by line when the report is written: the ranks are not held whole.
#include <gtest/gtest.h>
#include <malloc.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "report/multi_rank_report.h"
#include "report/rank_summary.h"
#include "test_support.h"

namespace opscope {
namespace {

using ojson = nlohmann::ordered_json;

// Line r of a table: `iterations` iterations of 1000 + (r + i) % 7 µs (rank 3's are
// slower), two top kernels, a host.
std::string tableLine(int r, int iterations) {
  ojson j;
  j["file"] = "rank" + std::to_string(r) + ".json";
  j["rank"] = r;
  j["world_size"] = 8;
  j["host"] = "node" + std::to_string(r / 4);
  ojson its = ojson::array();
  for (int i = 0; i < iterations; ++i)
    its.push_back(
        {{"step", i}, {"start_us", i * 2000}, {"dur_us", 900.5}, {"wall_us", (r == 3 ? 1500 : 1000) + (r + i) % 7}});
  j["iteration_list"] = its;
  j["top_kernels"] = ojson::array({{{"name", "gemm"}, {"count", 2}, {"total_us", 30.25 + r}},
                                   {{"name", r % 2 ? "relu" : "softmax"}, {"count", 1}, {"total_us", 5.5}}});
  return j.dump();
}

std::string writeTable(const std::string& name, const std::vector<std::string>& lines) {
  const std::string path = test::tempPath(name);
  std::ofstream f(path, std::ios::binary);
  for (const auto& l : lines) f << l << "\n";
  return path;
}

std::vector<RankSummary> held(const std::vector<std::string>& lines) {
  std::vector<RankSummary> out;
  for (const auto& l : lines) {
    RankSummary r;
    r.summary = ojson::parse(l);
    r.file = r.summary["file"].get<std::string>();
    out.push_back(std::move(r));
  }
  return out;
}

TEST(RankTableFile, AReportFromTheTableIsTheReportOfTheSameSummariesHeld) {
  std::vector<std::string> lines;
  for (int r : {5, 0, 3, 1, 2, 7, 6}) lines.push_back(tableLine(r, 3));
  lines.insert(lines.begin() + 2, R"({"file": "rank4.json", "rank": 4, "error": "cannot open the file"})");
  const std::string path = writeTable("table_vs_held.jsonl", lines);
  std::vector<RankSummary> fromTable;
  std::string error;
  ASSERT_TRUE(readRankTable(path, fromTable, error)) << error;
  ASSERT_TRUE(assignRanks(fromTable, error)) << error;
  for (const RankSummary& r : fromTable) {
    EXPECT_TRUE(r.summary.is_null()) << r.file;  // not held: read again when written
    EXPECT_EQ(r.table != nullptr, r.error.empty()) << r.file;
  }
  std::vector<RankSummary> inMemory = held(lines);
  inMemory[2].summary = nullptr;
  inMemory[2].error = "cannot open the file";
  ASSERT_TRUE(assignRanks(inMemory, error)) << error;
  EXPECT_EQ(inMemory[4].rank, 4);  // the failed line's number comes from its file name here
  const std::string json = multiRankJson(fromTable, {});
  EXPECT_EQ(json, multiRankJson(inMemory, {}));
  EXPECT_EQ(multiRankText(fromTable, {}), multiRankText(inMemory, {}));
  // Written a piece at a time, the text is what nlohmann writes for the whole object.
  EXPECT_EQ(json, ojson::parse(json).dump(2) + "\n");
  const ojson j = ojson::parse(json);
  ASSERT_EQ(j["ranks"].size(), 8u);
  EXPECT_EQ(j["ranks"][3]["host"], "node0");  // every key of the line
  EXPECT_EQ(j["ranks"][4]["error"], "cannot open the file");
  EXPECT_EQ(j["iteration_us"][3], ojson::parse("[1503.0, 1504.0, 1505.0]"));  // 1500 + (3 + i) % 7
  EXPECT_EQ(j["iteration_us"][4], ojson::array());
  ASSERT_EQ(j["stragglers"].size(), 1u);
  EXPECT_EQ(j["stragglers"][0]["rank"], 3);
  EXPECT_EQ(j["top_kernels"]["names"], ojson::parse(R"(["gemm", "relu", "softmax"])"));
  EXPECT_EQ(j["top_kernels"]["total_us"][1], ojson::parse("[31.25, 5.5, null]"));
  std::filesystem::remove(path);
}

TEST(RankTableFile, ATableChangedAfterItWasReadIsNamedNotMisread) {
  const std::string path = writeTable("table_changed.jsonl", {tableLine(0, 2), tableLine(1, 2)});
  std::vector<RankSummary> ranks;
  std::string error;
  ASSERT_TRUE(readRankTable(path, ranks, error)) << error;
  ASSERT_TRUE(assignRanks(ranks, error)) << error;
  std::filesystem::resize_file(path, 30);
  try {
    (void)summaryOf(ranks[1]);
    FAIL() << "a cut table read as a summary";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "line 2: the table changed since it was read (cut short)");
  }
  EXPECT_THROW((void)multiRankJson(ranks, {}), std::runtime_error);
  std::filesystem::remove(path);
}

TEST(RankTableFile, ATableThatCannotBeReadAgainIsRefused) {
  const std::string dir = test::tempPath("a_folder.jsonl");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::vector<RankSummary> ranks;
  std::string error;
  EXPECT_FALSE(readRankTable(dir, ranks, error));
  EXPECT_EQ(error, "not a regular file (a table is read again as the report is written: save it to a file first)");
  std::filesystem::remove_all(dir);
  EXPECT_FALSE(readRankTable(dir, ranks, error));
  EXPECT_EQ(error, "cannot open the file");
}

TEST(RankTableFile, ATableIsNotHeldInMemory) {
  // 400 ranks of 300 iterations: about 30 MB as JSON values in memory, 12 MB of text.
  std::vector<std::string> lines;
  for (int r = 0; r < 400; ++r) lines.push_back(tableLine(r, 300));
  const std::string path = writeTable("table_memory.jsonl", lines);
  size_t textBytes = 0;
  for (const auto& l : lines) textBytes += l.size();
  lines.clear();
  lines.shrink_to_fit();
  if (mallinfo2().uordblks == 0) GTEST_SKIP() << "this allocator reports no heap figures (a sanitizer build)";
  const size_t before = mallinfo2().uordblks;
  std::vector<RankSummary> ranks;
  std::string error;
  ASSERT_TRUE(readRankTable(path, ranks, error)) << error;
  const size_t heldBytes = mallinfo2().uordblks - before;
  // Each rank: its record, its file name, no summary (a line's values would take more
  // than its text).
  EXPECT_LT(heldBytes, 400 * 1024u) << heldBytes << " bytes held for " << textBytes << " bytes of table";
  ASSERT_TRUE(assignRanks(ranks, error));
  EXPECT_EQ(iterationsOf(ranks[3]).size(), 300u);
  std::filesystem::remove(path);
}

TEST(RankTableFile, RanksAreNumberedAndSortedWithoutCopies) {
  // 2,000 ranks in a shuffled order, a third naming no number: sorted by rank, each file
  // with its own number, the unnumbered ones taking the free numbers in input order.
  std::vector<RankSummary> ranks(2000);
  std::vector<int> order(2000);
  for (int i = 0; i < 2000; ++i) order[static_cast<size_t>(i)] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(7));
  for (size_t i = 0; i < ranks.size(); ++i) {
    const int n = order[i];
    ranks[i].file = std::string("f") + std::to_string(n) + ".json";
    if (n % 3) ranks[i].summary = {{"rank", n}};
  }
  std::string error;
  ASSERT_TRUE(assignRanks(ranks, error)) << error;
  std::vector<int> freeOrder;  // numbers divisible by 3, in the order their files came
  for (int n : order)
    if (n % 3 == 0) freeOrder.push_back(n);
  size_t nextFree = 0;
  for (size_t i = 0; i < ranks.size(); ++i) {
    ASSERT_EQ(*ranks[i].rank, static_cast<int64_t>(i));
    if (i % 3) {
      EXPECT_EQ(ranks[i].file, std::string("f") + std::to_string(i) + ".json");
    }
  }
  // The free numbers 0, 3, 6, … went to the unnumbered files in input order.
  for (size_t i = 0; i < ranks.size(); i += 3)
    EXPECT_EQ(ranks[i].file, std::string("f") + std::to_string(freeOrder[nextFree++]) + ".json") << i;
  // The first clash in input order is the one named, whatever the numbers' order.
  std::vector<RankSummary> clash(4);
  clash[0].file = "a_rank9.json";
  clash[1].file = "b_rank2.json";
  clash[2].file = "c_rank9.json";
  clash[3].file = "d_rank2.json";
  EXPECT_FALSE(assignRanks(clash, error));
  EXPECT_EQ(error, "rank 9 is claimed by both a_rank9.json and c_rank9.json");
}

}  // namespace
}  // namespace opscope
