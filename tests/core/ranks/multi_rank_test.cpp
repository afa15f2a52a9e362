// Multi-rank sessions: which files, which rank, clocks, stragglers, collective waits,
// the JSON contract and the cluster table reader.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "analysis/summary.h"
#include "io/trace_loader.h"
#include "ranks/collective_match.h"
#include "ranks/cross_rank.h"
#include "ranks/rank_inputs.h"
#include "ranks/rank_loader.h"
#include "ranks/rank_metrics.h"
#include "ranks/rank_session.h"
#include "ranks/rank_table.h"
#include "report/multi_rank_report.h"
#include "report/rank_metrics_json.h"
#include "report/summary_report.h"
#include "test_support.h"

namespace opscope {
namespace {

namespace fs = std::filesystem;

TEST(RankInputs, RankComesFromTheLastRankWordOfTheBaseName) {
  EXPECT_EQ(rankFromFileName("/runs/rank7/trace_rank12.json.gz"), 12);
  EXPECT_EQ(rankFromFileName("rank-3.pt.trace.json"), 3);
  EXPECT_EQ(rankFromFileName("RANK_07.json"), 7);
  EXPECT_EQ(rankFromFileName("worker.rank.5.json"), 5);
  EXPECT_FALSE(rankFromFileName("/rank3/trace.json").has_value());  // a folder's name is not the file's
  EXPECT_FALSE(rankFromFileName("ranking.json").has_value());
}

TEST(RankInputs, RankListsTakeNumbersAndRanges) {
  std::set<int64_t> r;
  std::string error;
  ASSERT_TRUE(parseRankList("0-3, 7,12", r, error)) << error;
  EXPECT_EQ(r, (std::set<int64_t>{0, 1, 2, 3, 7, 12}));
  for (const char* bad : {"3-1", "a", "1,,2", "-2", "0-9999999", ""}) {
    EXPECT_FALSE(parseRankList(bad, r, error)) << bad;
    EXPECT_TRUE(r.empty()) << bad;
  }
  EXPECT_NE(error.find("e.g. 0-3,7"), std::string::npos);
}

TEST(RankInputs, NaturalOrderPutsRank2BeforeRank10) {
  EXPECT_TRUE(naturalLess("job_rank2.json", "job_rank10.json"));
  EXPECT_FALSE(naturalLess("job_rank10.json", "job_rank2.json"));
  EXPECT_TRUE(naturalLess("a007", "a8"));
  EXPECT_TRUE(naturalLess("a", "a1"));
  EXPECT_FALSE(naturalLess("a1", "a1"));
}

TEST(RankInputs, FolderGivesItsTraceFilesInNaturalOrderAndEmptyFolderIsAnError) {
  const fs::path dir = test::tempPath("rank_inputs_dir");
  fs::remove_all(dir);
  fs::create_directories(dir / "sub");
  for (const char* name :
       {"t_rank10.json", "t_rank2.json.gz", "t_rank1.json", "notes.txt", "ranks.jsonl", ".hidden.json"})
    std::ofstream(dir / name) << "{}";
  std::string error;
  const auto files = expandRankInputs({dir.string()}, error);
  ASSERT_EQ(files.size(), 3u) << error;
  EXPECT_EQ(fs::path(files[0]).filename(), "t_rank1.json");
  EXPECT_EQ(fs::path(files[1]).filename(), "t_rank2.json.gz");
  EXPECT_EQ(fs::path(files[2]).filename(), "t_rank10.json");

  const auto globbed = expandRankInputs({(dir / "t_rank1*").string()}, error);
  ASSERT_EQ(globbed.size(), 2u);
  EXPECT_EQ(fs::path(globbed[1]).filename(), "t_rank10.json");

  EXPECT_TRUE(expandRankInputs({(dir / "sub").string()}, error).empty());
  EXPECT_NE(error.find("no trace files"), std::string::npos) << error;
  EXPECT_TRUE(expandRankInputs({(dir / "zzz*").string()}, error).empty());
  EXPECT_NE(error.find("nothing matches"), std::string::npos) << error;
  fs::remove_all(dir);
}

TEST(RankMetrics, CollectiveKernelsAreToldByName) {
  EXPECT_TRUE(
      isCollectiveKernelName("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"));
  EXPECT_TRUE(isCollectiveKernelName("ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclWorkElem)"));
  EXPECT_TRUE(isCollectiveKernelName("void rccl_main_kernel<1>(ncclDevComm*)"));
  EXPECT_FALSE(isCollectiveKernelName("void at::native::reduce_kernel<512, 1>(at::native::ReduceOp<float>)"));
  EXPECT_FALSE(isCollectiveKernelName("volta_sgemm_128x64_nn"));
  // The argument list names ncclWork; the kernel name decides.
  EXPECT_FALSE(isCollectiveKernelName("my_kernel(ncclWork*)"));
  EXPECT_EQ(collectiveKind("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevComm*)"), "ReduceScatter");
  EXPECT_EQ(collectiveKind("ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)"), "AllReduce");
  EXPECT_EQ(collectiveKind("ncclDevKernel_SendRecv(x)"), "SendRecv");
  EXPECT_EQ(collectiveKind("ncclDevKernel_Generic(x)"), "Collective");
}

// One GPU stream: a compute kernel [0, 100) and an all-reduce [50, 150) µs.
std::string rankTrace(int rank, double shiftUs, double scale = 1.0) {
  // scale stretches the whole rank (a slow GPU): every time and duration.
  auto ts = [&](double t) { return std::to_string(t * scale + shiftUs); };
  auto d = [&](double v) { return std::to_string(v * scale); };
  return R"J({"distributedInfo": {"rank": )J" + std::to_string(rank) + R"J(, "world_size": 2}, "traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": )J" +
         ts(0) + R"J(, "dur": )J" + d(40) + R"J(},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": )J" +
         ts(1) + R"J(, "dur": )J" + d(2) + R"J(, "args": {"correlation": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": )J" +
         ts(5) + R"J(, "dur": )J" + d(2) + R"J(, "args": {"correlation": 2}},
    {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": )J" +
         ts(0) + R"J(, "dur": )J" + d(100) + R"J(, "args": {"correlation": 1, "device": 0, "stream": 7}},
    {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)", "pid": 0, "tid": 8, "ts": )J" +
         ts(50) + R"J(, "dur": )J" + d(100) + R"J(, "args": {"correlation": 2, "device": 0, "stream": 8}}
  ]})J";
}

// Overlap counts compute kernels only, as Holistic Trace Analysis does: a memcpy under the
// collective is reported apart (collective [0,100), memcpy [0,40), kernel [60,80) µs).
TEST(RankMetrics, OverlapCountsKernelsAndReportsCopiesApart) {
  auto t = test::loadOk(R"J({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)", "pid": 0, "tid": 8, "ts": 0, "dur": 100, "args": {"device": 0, "stream": 8}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoD (Device -> Device)", "pid": 0, "tid": 9, "ts": 0, "dur": 40, "args": {"device": 0, "stream": 9}},
    {"ph": "X", "cat": "kernel", "name": "sgemm", "pid": 0, "tid": 7, "ts": 60, "dur": 20, "args": {"device": 0, "stream": 7}}
  ]})J");
  ASSERT_TRUE(t);
  const RankMetrics m = measureRank(*t);
  EXPECT_EQ(m.collectiveTime, 100'000);
  EXPECT_EQ(m.computeTime, 20'000);
  EXPECT_EQ(m.copyTime, 40'000);
  EXPECT_EQ(m.overlapTime, 20'000);
  EXPECT_EQ(m.copyOverlapTime, 40'000);
  EXPECT_EQ(m.overlapAnyTime, 60'000);
  EXPECT_EQ(m.gpuBusy, 100'000);
}

// HTA's sampled rank 1 (tests/data/hta): HTA's comm/comp overlap is 19.93 %; counting copies
// as compute gave 20.99 %.
TEST(RankMetrics, OverlapOnHtasSampledRankMatchesHta) {
  LoadResult r = loadTraceFile(OPSCOPE_SOURCE_DIR "/tests/data/hta/ranks/sampled_rank-1.json.gz");
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const RankMetrics m = measureRank(*r.trace);
  ASSERT_GT(m.collectiveTime, 0);
  EXPECT_NEAR(100.0 * static_cast<double>(m.overlapTime) / static_cast<double>(m.collectiveTime), 19.93, 0.01);
  EXPECT_GT(m.copyOverlapTime, 0);
}

TEST(RankMetrics, MeasuresCollectivesComputeAndTheirOverlap) {
  auto t = test::loadOk(rankTrace(0, 0));
  ASSERT_TRUE(t);
  const RankMetrics m = measureRank(*t);
  EXPECT_EQ(m.rank, 0);
  ASSERT_EQ(m.collectives.size(), 1u);
  EXPECT_EQ(m.collectiveKinds.at(m.collectives[0].kind), "AllReduce");
  EXPECT_EQ(m.collectiveTime, 100000);
  EXPECT_EQ(m.computeTime, 100000);
  EXPECT_EQ(m.overlapTime, 50000);
  EXPECT_EQ(m.gpuBusy, 150000);
  // The step's host side ends at 40 µs; its kernels drain at 150 µs.
  ASSERT_EQ(m.iterationWallEnds.size(), 1u);
  EXPECT_EQ(m.iterationWallEnds[0] - m.iterations[0].start, 150000);
}

RankMetrics withCollectives(std::vector<std::pair<TimeNs, TimeNs>> calls) {
  RankMetrics m;
  m.collectiveKinds = {"AllReduce"};
  for (auto [s, e] : calls) {
    m.collectives.push_back({s, e, 0});
    m.collectiveTime += e - s;
  }
  m.iterations.push_back({1, calls.empty() ? 0 : calls[0].first, 0, kNoRef});
  return m;
}

TEST(CrossRank, ClocksAlignAtCollectiveEndsAndWaitIsTheStartSkew) {
  // Rank 1's clock runs 1000 ns behind; it arrives 300 ns after rank 0 at both
  // collectives, which then end together.
  const RankMetrics r0 = withCollectives({{0, 1000}, {5000, 6000}});
  const RankMetrics r1 = withCollectives({{-700, 0}, {4300, 5000}});
  const ClockAlignment c = alignClocks({&r0, &r1});
  EXPECT_EQ(c.method, "collectives");
  EXPECT_EQ(c.anchors, 2u);
  ASSERT_EQ(c.offsets.size(), 2u);
  EXPECT_EQ(c.offsets[0], 0);
  EXPECT_EQ(c.offsets[1], 1000);
  const auto waits = collectiveWaits({&r0, &r1}, c);
  EXPECT_EQ(waits[0].wait, 600);  // rank 0 waits 300 ns per collective for rank 1
  EXPECT_EQ(waits[1].wait, 0);    // the last to arrive waits for no one
  EXPECT_EQ(waits[0].matched, 2u);
}

TEST(CrossRank, WithoutCollectivesClocksAlignAtTheFirstStepOrNotAtAll) {
  RankMetrics a, b;
  a.iterations.push_back({3, 10000, 20000, kNoRef});
  b.iterations.push_back({3, 12500, 22000, kNoRef});
  const ClockAlignment c = alignClocks({&a, &b});
  EXPECT_EQ(c.method, "first_iteration");
  EXPECT_EQ(c.offsets[1], -2500);
  b.iterations.clear();
  EXPECT_EQ(alignClocks({&a, &b}).method, "none");
  EXPECT_EQ(alignClocks({&a}).method, "none");
}

TEST(CrossRank, StragglersExceedTheMedianByMoreThanTheThreshold) {
  const std::vector<int64_t> ranks = {0, 1, 2, 3, 4};
  const std::vector<std::vector<double>> its = {{100, 100}, {101, 99}, {130, 130}, {104, 106}, {}};
  const auto s = findStragglers(ranks, its, 5.0);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].rank, 2);
  EXPECT_DOUBLE_EQ(s[0].iterationUsMean, 130);
  // Median of the four ranks with iterations: (100 + 105) / 2.
  EXPECT_NEAR(s[0].excessPct, (130 / 102.5 - 1) * 100, 1e-9);
  EXPECT_TRUE(findStragglers(ranks, its, 30.0).empty());
  EXPECT_TRUE(findStragglers({0}, {{500}}, 0.0).empty());
  EXPECT_DOUBLE_EQ(medianOf({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(medianOf({4, 1, 3, 2}), 2.5);
}

RankSummary fromTrace(const std::string& json, const std::string& file) {
  auto t = test::loadOk(json);
  RankSummary r;
  r.file = file;
  r.summary = nlohmann::ordered_json::parse(summaryJson(summarize(*t), file));
  r.metrics = std::make_shared<const RankMetrics>(measureRank(*t));
  return r;
}

TEST(MultiRankReport, EachRankIsItsSingleSummaryAndTheContractKeysArePresent) {
  std::vector<RankSummary> ranks;
  ranks.push_back(fromTrace(rankTrace(1, 5), "b.json"));
  ranks.push_back(fromTrace(rankTrace(0, 0), "a.json"));
  RankSummary broken;
  broken.file = "c_rank7.json";
  broken.error = "not a trace";
  ranks.push_back(broken);
  std::string error;
  ASSERT_TRUE(assignRanks(ranks, error)) << error;
  EXPECT_EQ(ranks[0].file, "a.json");  // sorted by rank
  const auto j = nlohmann::ordered_json::parse(multiRankJson(ranks, {}));
  EXPECT_EQ(j["format"], "multi-rank");
  EXPECT_EQ(j["world_size"], 2);  // as the traces say, not the number of files
  ASSERT_EQ(j["ranks"].size(), 3u);
  EXPECT_EQ(j["ranks"][0], ranks[0].summary);
  EXPECT_EQ(j["ranks"][1], ranks[1].summary);
  EXPECT_EQ(j["ranks"][2]["rank"], 7);
  EXPECT_EQ(j["ranks"][2]["error"], "not a trace");
  ASSERT_EQ(j["iteration_us"].size(), 3u);
  EXPECT_EQ(j["iteration_us"][0], nlohmann::ordered_json::array({150.0}));  // to the GPU drain
  EXPECT_TRUE(j["iteration_us"][2].empty());
  EXPECT_TRUE(j["stragglers"].is_array());
  EXPECT_EQ(j["failed_ranks"], 1);
  EXPECT_EQ(j["clock_alignment"]["method"], "collectives");
  EXPECT_EQ(j["clock_alignment"]["offsets"][1]["offset_us"], -5.0);
  EXPECT_EQ(j["collectives"][0]["overlap_pct"], 50.0);
}

TEST(MultiRankReport, TwoFilesClaimingOneRankAreRefused) {
  std::vector<RankSummary> ranks(2);
  ranks[0].file = "x_rank3.json";
  ranks[1].file = "y.json";
  ranks[1].summary = {{"rank", 3}};
  std::string error;
  EXPECT_FALSE(assignRanks(ranks, error));
  EXPECT_NE(error.find("rank 3 is claimed by both x_rank3.json and y.json"), std::string::npos) << error;
  // Files that name no rank take the lowest free numbers.
  std::vector<RankSummary> loose(3);
  loose[0].file = "p.json";
  loose[1].file = "q_rank0.json";
  loose[2].file = "r.json";
  ASSERT_TRUE(assignRanks(loose, error));
  EXPECT_EQ(loose[0].file, "q_rank0.json");
  EXPECT_EQ(*loose[1].rank, 1);
  EXPECT_EQ(*loose[2].rank, 2);
}

TEST(MultiRankReport, ClusterTableLinesAreReadAndBadLinesNamed) {
  const std::string path = test::tempPath("ranks_table.jsonl");
  {
    std::ofstream f(path);
    f << R"({"file": "a.json", "rank": 0, "iteration_list": [{"step": 1, "start_us": 0, "dur_us": 90, "wall_us": 100}],)"
         R"( "top_kernels": [{"name": "gemm", "count": 2, "total_us": 30}, {"name": "relu", "count": 1, "total_us": 5}]})"
         "\n\n"
      << R"({"file": "b.json", "rank": 1, "error": "cannot open the file", "exit_code": 3})"
         "\n"
      << R"({"file": "c.json", "rank": 2, "iteration_list": [{"step": 1, "start_us": 0, "dur_us": 80}],)"
         R"( "top_kernels": [{"name": "gemm", "count": 2, "total_us": 40}]})"
         "\n";
  }
  std::vector<RankSummary> ranks;
  std::string error;
  ASSERT_TRUE(readRankTable(path, ranks, error)) << error;
  ASSERT_EQ(ranks.size(), 3u);
  EXPECT_EQ(ranks[1].error, "cannot open the file");
  ASSERT_TRUE(assignRanks(ranks, error));
  EXPECT_EQ(*ranks[1].rank, 1);
  EXPECT_EQ(iterationsOf(ranks[0]), std::vector<double>{100});
  EXPECT_EQ(iterationsOf(ranks[2]), std::vector<double>{80});  // dur_us when no wall_us
  const auto j = nlohmann::ordered_json::parse(multiRankJson(ranks, {}));
  EXPECT_TRUE(j["collectives"].is_null());  // a table has no trace to measure
  // Kernel time per rank from each rank's own top list; unknown where a rank lists none.
  EXPECT_EQ(j["top_kernels"],
            nlohmann::ordered_json::parse(
                R"({"names": ["gemm", "relu"], "total_us": [[30.0, 5.0], [null, null], [40.0, null]]})"));
  const RankTable table = rankTableOfSummaries(ranks, 5.0);
  EXPECT_EQ(table.kernelNames, (std::vector<std::string>{"gemm", "relu"}));
  EXPECT_EQ(table.rows[0].kernelTime, (std::vector<TimeNs>{30000, 5000}));
  EXPECT_EQ(table.rows[1].kernelTime, (std::vector<TimeNs>{-1, -1}));
  EXPECT_EQ(table.rows[2].kernelTime, (std::vector<TimeNs>{40000, -1}));
  EXPECT_FALSE(table.rows[0].clockOffset);  // a table read from the cluster: no clocks aligned
  const auto tj = nlohmann::ordered_json::parse(rankTableJson(table, path));
  EXPECT_EQ(tj["top_kernels"]["total_us"][2], nlohmann::ordered_json::parse("[40.0, null]"));
  EXPECT_TRUE(tj["ranks"][0]["clock_offset_us"].is_null());
  EXPECT_TRUE(tj["clock_alignment"].is_null());

  {
    std::ofstream f(path);
    f << R"({"file": "a.json"})"
         "\n"
      << "[1, 2]\n";
  }
  ranks.clear();
  EXPECT_FALSE(readRankTable(path, ranks, error));
  EXPECT_EQ(error, "line 2: not a JSON object");
  {
    std::ofstream f(path);
    f << R"({"file": "a.json"})"
         "\n"
      << "{\"x\": " << std::string(1000, '[') << "\n";
  }
  ranks.clear();
  EXPECT_FALSE(readRankTable(path, ranks, error));
  EXPECT_NE(error.find("line 2:"), std::string::npos) << error;
  {
    std::ofstream f(path);
    f << R"({"x": )" << std::string(300, '[') << std::string(300, ']') << "}\n";
  }
  ranks.clear();
  EXPECT_FALSE(readRankTable(path, ranks, error));
  EXPECT_EQ(error, "line 1: nested deeper than 256 levels");
  std::filesystem::remove(path);
}

TEST(RankLoader, LoadsEveryFileOnThePoolAndCancelStopsTheRest) {
  const fs::path dir = test::tempPath("rank_loader_dir");
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::vector<std::string> files;
  for (int r = 0; r < 6; ++r) {
    files.push_back((dir / ("t_rank" + std::to_string(r) + ".json")).string());
    std::ofstream(files.back()) << rankTrace(r, r * 10.0);
  }
  files.push_back((dir / "missing.json").string());
  std::vector<LoadStatus> status(files.size(), LoadStatus::Cancelled);
  std::vector<std::optional<int64_t>> rank(files.size());
  size_t lastDone = 0;
  RankLoadOptions options;
  options.threads = 3;
  options.progress = [&](const RankLoadProgress& p) {
    EXPECT_LE(p.bytesDone, p.bytesTotal);
    EXPECT_EQ(p.filesTotal, files.size());
    lastDone = p.filesDone;
    return true;
  };
  EXPECT_TRUE(loadRankFiles(files, options, [&](size_t i, LoadResult&& r) {
    status[i] = r.status;
    if (r.trace) rank[i] = r.trace->meta.rank;
  }));
  EXPECT_EQ(lastDone, files.size());
  for (int r = 0; r < 6; ++r) {
    EXPECT_EQ(status[r], LoadStatus::Ok);
    EXPECT_EQ(rank[r], r);
  }
  EXPECT_EQ(status.back(), LoadStatus::IoError);

  options.threads = 1;
  options.progress = [](const RankLoadProgress& p) { return p.filesDone < 2; };
  size_t cancelled = 0;
  EXPECT_FALSE(
      loadRankFiles(files, options, [&](size_t, LoadResult&& r) { cancelled += r.status == LoadStatus::Cancelled; }));
  EXPECT_GE(cancelled, files.size() - 3);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace opscope

namespace opscope {
namespace {

TEST(RankSession, AFolderMergesRankByRankOnTheFirstRanksClock) {
  const fs::path dir = test::tempPath("rank_session_dir");
  fs::remove_all(dir);
  fs::create_directories(dir);
  // Rank 1's clock is 5 µs ahead; written plain (lazy args) and gzip (encoded args).
  std::ofstream(dir / "t_rank0.json") << rankTrace(0, 0);
  {
    std::ofstream f(dir / "t_rank1.json.gz", std::ios::binary);
    f << test::gzip(rankTrace(1, 5));
  }
  std::ofstream(dir / "t_rank2.json") << "not a trace";
  const LoadResult r = loadTraceOrSession(dir.string());
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const Trace& t = *r.trace;
  EXPECT_EQ(t.meta.worldSize, 2);
  // The broken rank is named among the warnings, not fatal.
  bool named = false;
  for (const WarningEntry& w : t.diagnostics.entries()) named |= w.example.find("t_rank2.json") != std::string::npos;
  EXPECT_TRUE(named);

  const auto nccl = test::slicesNamed(t, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)");
  ASSERT_EQ(nccl.size(), 2u);
  // Aligned at the collective's end: both at the same time on the merged clock.
  EXPECT_EQ(t.end(nccl[0]), t.end(nccl[1]));
  std::set<int64_t> ranks;
  for (EventRef k : nccl) {
    const int64_t rank = t.processes[t.tracks[k.track].process].rank;
    ranks.insert(rank);
    EXPECT_EQ(t.trackLabel(k.track).rfind("rank " + std::to_string(rank) + " \xC2\xB7 GPU 0", 0), 0u)
        << t.trackLabel(k.track);
    // Args read back from each rank's own file (lazy) or re-encoded against the merged pool.
    bool hasStream = false;
    for (const NamedArg& a : t.args(k)) hasStream |= a.key == "stream" && a.i == 8;
    EXPECT_TRUE(hasStream) << "rank " << rank;
    // Launch links point into the right rank.
    const auto launch = t.links.gpuToLaunch;
    bool linked = false;
    for (const auto& p : launch)
      if (p.first == k.packed()) {
        const EventRef l = EventRef::unpack(p.second);
        linked = t.name(l) == "cudaLaunchKernel" && t.processes[t.tracks[l.track].process].rank == rank;
      }
    EXPECT_TRUE(linked) << "rank " << rank;
  }
  EXPECT_EQ(ranks, (std::set<int64_t>{0, 1}));
  // Selecting either all-reduce finds the other rank's: the same collective.
  const CollectiveMatch match = sameCollectiveOnEveryRank(t, nccl[1]);
  EXPECT_EQ(match.ordinal, 0u);
  ASSERT_EQ(match.peers.size(), 2u);
  EXPECT_EQ(match.peers[0].rank, 0);
  EXPECT_EQ(match.peers[1].rank, 1);
  EXPECT_TRUE((match.peers[0].kernel == nccl[0] && match.peers[1].kernel == nccl[1]) ||
              (match.peers[0].kernel == nccl[1] && match.peers[1].kernel == nccl[0]));
  EXPECT_TRUE(sameCollectiveOnEveryRank(t, test::slicesNamed(t, "gemm").at(0)).peers.empty());
  // The session's iterations are rank 0's.
  ASSERT_EQ(t.iterations.size(), 1u);
  EXPECT_EQ(t.name(EventRef::unpack(t.iterations[0].ref)), "ProfilerStep#1");
  EXPECT_EQ(t.processes[t.tracks[EventRef::unpack(t.iterations[0].ref).track].process].rank, 0);

  // The session's ranks side by side: each its own step, drained at 150 µs, one
  // collective that both reach at once after alignment (no one waits).
  const RankTable table = rankTable(t);
  ASSERT_EQ(table.rows.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(table.rows[i].rank, static_cast<int64_t>(i));
    EXPECT_EQ(table.rows[i].iterationWall, std::vector<TimeNs>{150000});
    EXPECT_EQ(table.rows[i].collectives.count, 1u);
    EXPECT_EQ(table.rows[i].collectives.wait, 0);
    EXPECT_EQ(table.rows[i].overlapTime, 50000);
  }
  EXPECT_TRUE(table.stragglers.empty());
  // The offsets applied are kept with the files they were applied to: rank 1 ran 5 µs
  // ahead, so its times moved back by 5 µs.
  EXPECT_EQ(t.meta.clockAlignment, "collectives");
  ASSERT_EQ(t.meta.sessionRanks.size(), 2u);
  EXPECT_EQ(t.meta.sessionRanks[0].clockOffset, 0);
  EXPECT_EQ(t.meta.sessionRanks[1].clockOffset, -5000);
  EXPECT_EQ(fs::path(t.meta.sessionRanks[1].file).filename(), "t_rank1.json.gz");
  EXPECT_EQ(table.rows[1].clockOffset, std::optional<TimeNs>(-5000));
  // Kernel time per rank for the job's top kernels (ties by name).
  EXPECT_EQ(table.kernelNames,
            (std::vector<std::string>{"gemm", "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)"}));
  for (const RankRow& row : table.rows) EXPECT_EQ(row.kernelTime, (std::vector<TimeNs>{100000, 100000}));
  const auto j = nlohmann::ordered_json::parse(rankTableJson(table, "dir"));
  EXPECT_EQ(j["clock_alignment"], "collectives");
  EXPECT_EQ(j["ranks"][1]["clock_offset_us"], -5.0);
  EXPECT_EQ(j["top_kernels"]["names"][0], "gemm");
  EXPECT_EQ(j["top_kernels"]["total_us"][1], nlohmann::ordered_json::parse("[100.0, 100.0]"));
  EXPECT_EQ(j["iteration_us"], nlohmann::ordered_json::parse("[[150.0], [150.0]]"));
  EXPECT_EQ(j["ranks"][1]["collectives"]["count"], 1);
  EXPECT_EQ(rankTableCsv(table), "rank,iteration,wall_us\n0,0,150.000\n1,0,150.000\n");
  fs::remove_all(dir);
}

TEST(RankSession, TwoFilesOfOneRankAreRefusedWithBothNames) {
  const fs::path dir = test::tempPath("rank_session_dup");
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "a.json") << rankTrace(0, 0);
  std::ofstream(dir / "b.json") << rankTrace(0, 0);
  const LoadResult r = loadTraceOrSession(dir.string());
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_NE(r.error.find("rank 0 is claimed by both"), std::string::npos) << r.error;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace opscope

namespace opscope {
namespace {

TEST(RankTable, ASlowRankIsTheStragglerAndASingleTraceIsOneRank) {
  // Three ranks; rank 2 runs 5/3 slower (its collective then ends at 250 µs).
  std::vector<RankPart> parts;
  for (int r = 0; r < 3; ++r)
    parts.push_back(
        {test::loadOk(rankTrace(r, 0, r == 2 ? 5.0 / 3.0 : 1.0)), r, 0, "rank" + std::to_string(r) + ".json"});
  const auto merged = mergeRanks(std::move(parts));
  const RankTable t = rankTable(*merged);
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(t.rows[2].iterationWall, std::vector<TimeNs>{250000});
  ASSERT_EQ(t.stragglers.size(), 1u);
  EXPECT_EQ(t.stragglers[0].rank, 2);
  EXPECT_NEAR(t.stragglers[0].excessPct, (250.0 / 150.0 - 1) * 100, 1e-9);
  // The slow rank's kernels take 5/3 as long: its row of the kernel table says so.
  ASSERT_EQ(t.kernelNames.size(), 2u);
  EXPECT_EQ(t.rows[0].kernelTime, (std::vector<TimeNs>{100000, 100000}));
  EXPECT_NEAR(static_cast<double>(t.rows[2].kernelTime[0]), 100000 * 5.0 / 3.0, 1.0);

  auto single = test::loadOk(rankTrace(4, 0));
  const RankTable one = rankTable(*single);
  ASSERT_EQ(one.rows.size(), 1u);
  EXPECT_EQ(one.rows[0].rank, 4);  // distributedInfo's rank
  EXPECT_TRUE(one.stragglers.empty());
  EXPECT_FALSE(one.rows[0].clockOffset);  // one trace: nothing was aligned
  EXPECT_TRUE(one.clockAlignment.empty());
  EXPECT_EQ(one.rows[0].kernelTime.size(), 2u);
}

}  // namespace
}  // namespace opscope

namespace opscope {
namespace {

// Ranks 0 and 1 of a real 128-rank NCCL job (HTA's test data, tests/data/hta/README.md).
TEST(RealRanks, HtaPairAlignsAtItsCollectivesAndMergesIntoOneSession) {
  const std::string dir = OPSCOPE_SOURCE_DIR "/tests/data/hta/ranks";
  std::string error;
  const auto files = expandRankInputs({dir}, error);
  ASSERT_EQ(files.size(), 2u) << error;
  std::vector<RankMetrics> metrics;
  for (const std::string& f : files) {
    const LoadResult r = loadTraceFile(f);
    ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
    EXPECT_EQ(r.trace->meta.worldSize, 128);
    metrics.push_back(measureRank(*r.trace));
    EXPECT_EQ(metrics.back().rank, static_cast<int64_t>(metrics.size() - 1));
    EXPECT_EQ(metrics.back().collectives.size(), 10u);
    EXPECT_EQ(metrics.back().iterations.size(), 2u);
  }
  const ClockAlignment c = alignClocks({&metrics[0], &metrics[1]});
  EXPECT_EQ(c.method, "collectives");
  EXPECT_EQ(c.anchors, 10u);
  // One job's hosts agree to within a millisecond; the ends of the collectives say by how much.
  EXPECT_LT(std::abs(c.offsets[1]), 1000000);
  const auto waits = collectiveWaits({&metrics[0], &metrics[1]}, c);
  for (const CollectiveWait& w : waits) {
    EXPECT_GT(w.wait, 0);
    EXPECT_LE(w.wait, w.total);
  }

  const LoadResult session = loadTraceOrSession(dir);
  ASSERT_EQ(session.status, LoadStatus::Ok) << session.error;
  const RankTable t = rankTable(*session.trace);
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[1].rank, 1);
  EXPECT_EQ(t.rows[0].iterationWall.size(), 2u);
  EXPECT_EQ(t.rows[1].collectives.matched, 10u);
}

// A rank's measurements survive the cluster table: written by summary --rank-metrics and
// read back equal, so the table aligns clocks and measures waits as a folder does; a
// kind index beyond the kinds is refused with the key named.
TEST(RankMetrics, JsonRoundTripAndBadEntriesNamed) {
  LoadResult r = loadTraceFile(OPSCOPE_SOURCE_DIR "/tests/data/hta/ranks/sampled_rank-1.json.gz");
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const RankMetrics m = measureRank(*r.trace);
  ASSERT_FALSE(m.collectives.empty());
  std::string error;
  const auto back = rankMetricsFromJson(rankMetricsJson(m), error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->iterations.size(), m.iterations.size());
  for (size_t i = 0; i < m.iterations.size(); ++i) {
    EXPECT_EQ(back->iterations[i].start, m.iterations[i].start);
    EXPECT_EQ(back->iterations[i].end, m.iterations[i].end);
  }
  EXPECT_EQ(back->iterationWallEnds, m.iterationWallEnds);
  EXPECT_EQ(back->collectiveKinds, m.collectiveKinds);
  ASSERT_EQ(back->collectives.size(), m.collectives.size());
  EXPECT_EQ(back->collectives.back().end, m.collectives.back().end);
  EXPECT_EQ(back->overlapTime, m.overlapTime);
  EXPECT_EQ(back->copyOverlapTime, m.copyOverlapTime);
  auto bad = rankMetricsJson(m);
  bad["collectives"][0][2] = static_cast<int64_t>(m.collectiveKinds.size());
  EXPECT_FALSE(rankMetricsFromJson(bad, error));
  EXPECT_NE(error.find("rank_metrics.collectives"), std::string::npos) << error;
}

}  // namespace
}  // namespace opscope
