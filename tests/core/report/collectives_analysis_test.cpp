// The collectives analysis' bus bandwidth per call, on HTA's two-rank NCCL job, against
// a reading of each rank's raw JSON written here: each nccl kernel, through its launch's
// correlation id, to the innermost nccl: annotation around the launch on its thread; the
// annotation's Input Dims and Input type give the bytes, nccl-tests' factors (written out
// below, not taken from the models) the bus bytes, over the last rank's kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "ranks/collective_calls.h"
#include "ranks/rank_session.h"
#include "report/analysis_catalog.h"
#include "test_support.h"

namespace opscope {
namespace {

struct RawCall {
  double start = 0, dur = 0;  // ns, the rank's own clock
  std::string op;             // "all_reduce", "all_to_all", "all_gather"
  double bytes = 0;           // the annotation's input tensor
};

// Each nccl kernel of one rank's file, by start.
std::vector<RawCall> rawCalls(const std::string& file, int64_t& world) {
  const auto json = nlohmann::json::parse(test::gunzip(test::readFile(file)));
  world = json["distributedInfo"]["world_size"].get<int64_t>();
  const std::map<std::string, double> elementBytes = {
      {"float", 4}, {"long", 8}, {"int", 4}, {"unsigned char", 1}, {"signed char", 1}};
  std::map<int64_t, const nlohmann::json*> launches;
  std::vector<const nlohmann::json*> annotations, kernels;
  for (const auto& e : json["traceEvents"]) {
    const std::string cat = e.value("cat", ""), name = e.value("name", "");
    if (cat == "cuda_runtime" && e["args"].contains("correlation"))
      launches[e["args"]["correlation"].get<int64_t>()] = &e;
    if (name.rfind("nccl:", 0) == 0) annotations.push_back(&e);
    if (cat == "kernel" && name.rfind("nccl", 0) == 0) kernels.push_back(&e);
  }
  std::vector<RawCall> out;
  for (const nlohmann::json* k : kernels) {
    RawCall c;
    c.start = (*k)["ts"].get<double>() * 1000;
    c.dur = (*k)["dur"].get<double>() * 1000;
    const auto l = launches.find((*k)["args"]["correlation"].get<int64_t>());
    if (l != launches.end()) {
      const auto& launch = *l->second;
      const double ls = launch["ts"].get<double>(), le = ls + launch["dur"].get<double>();
      const nlohmann::json* inner = nullptr;
      for (const nlohmann::json* a : annotations) {
        const double as = (*a)["ts"].get<double>(), ae = as + (*a)["dur"].get<double>();
        if ((*a)["tid"] == launch["tid"] && as <= ls && le <= ae &&
            (!inner || (*a)["dur"].get<double>() < (*inner)["dur"].get<double>()))
          inner = a;
      }
      if (inner) {
        std::string op = (*inner)["name"].get<std::string>().substr(5);
        if (op == "_all_gather_base") op = "all_gather";
        double elements = 1;
        for (const auto& d : (*inner)["args"]["Input Dims"][0]) elements *= d.get<double>();
        c.op = op;
        c.bytes = elements * elementBytes.at((*inner)["args"]["Input type"][0].get<std::string>());
      }
    }
    out.push_back(std::move(c));
  }
  std::sort(out.begin(), out.end(), [](const RawCall& a, const RawCall& b) { return a.start < b.start; });
  return out;
}

// nccl-tests: all-reduce 2(n-1)/n of the tensor; all-gather (n-1)/n of the gathered
// output (n × the input); all-to-all (n-1)/n of the send buffer.
double busBytes(const RawCall& c, int64_t n) {
  const double share = static_cast<double>(n - 1) / static_cast<double>(n);
  if (c.op == "all_reduce") return 2 * share * c.bytes;
  if (c.op == "all_gather") return share * c.bytes * static_cast<double>(n);
  return share * c.bytes;
}

TEST(CollectivesAnalysis, BusBandwidthPerCallAgreesWithTheRawAnnotations) {
  LoadResult lr = loadTraceOrSession(OPSCOPE_SOURCE_DIR "/tests/data/hta/ranks");
  ASSERT_EQ(lr.status, LoadStatus::Ok) << lr.error;
  const Trace& t = *lr.trace;
  ASSERT_EQ(t.meta.sessionRanks.size(), 2u);
  std::vector<std::vector<RawCall>> raw;
  int64_t world = 0;
  for (const auto& r : t.meta.sessionRanks) raw.push_back(rawCalls(r.file, world));
  ASSERT_EQ(world, 128);  // the job's; two of its ranks were kept

  const AnalysisKind& kind = analysisNamed("collectives");
  const auto result = computeAnalysis(kind, t, {});
  const auto& c = analysisValue<CollectivesAcrossRanks>(*result);
  ASSERT_EQ(c.calls.size(), std::min(raw[0].size(), raw[1].size()));
  size_t sized = 0, mixed = 0;
  for (const CollectiveCallAcross& call : c.calls) {
    SCOPED_TRACE(call.ordinal);
    const RawCall& a = raw[0][call.ordinal];
    const RawCall& b = raw[1][call.ordinal];
    ASSERT_FALSE(a.op.empty());
    ASSERT_FALSE(b.op.empty());
    if (a.op != b.op) {  // the two ranks ran different collectives at this ordinal
      EXPECT_EQ(call.op, "mixed");
      EXPECT_EQ(call.busBytes, 0);
      ++mixed;
      continue;
    }
    EXPECT_EQ(call.op, a.op);
    // The last rank's size (an all-to-all's differs by rank); a tie: the first rank's.
    const RawCall& last = call.lastRank == 1 ? b : a;
    EXPECT_NEAR(call.busBytes, busBytes(last, world), 1e-6 * busBytes(last, world));
    if (call.lastRank >= 0) {
      EXPECT_NEAR(call.busGBs, busBytes(last, world) / last.dur, 1e-9 * call.busGBs);
    }
    EXPECT_GT(call.busGBs, 0);
    ++sized;
  }
  EXPECT_GE(sized, 6u);
  EXPECT_GE(mixed, 1u);  // this sample's ranks order two calls differently

  const auto json = nlohmann::json::parse(kind.json(*result, t, {}, "ranks"));
  ASSERT_FALSE(json["calls"].empty());
  for (const auto& row : json["calls"]) {
    EXPECT_TRUE(row.contains("op"));
    EXPECT_TRUE(row.contains("bus_bytes"));
    EXPECT_TRUE(row.contains("bus_gbs"));
  }
  const std::string csv = kind.csv(*result, t, {});
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "ordinal,kind,start_us,skew_us,last_rank,wait_us,comm_us,op,bus_bytes,bus_gbs");
}

TEST(CollectivesAnalysis, ASingleTraceHasNoCallToSize) {
  LoadResult lr = loadTraceOrSession(OPSCOPE_SOURCE_DIR "/tests/data/hta/ranks/sampled_rank-0.json.gz");
  ASSERT_EQ(lr.status, LoadStatus::Ok) << lr.error;
  const auto result = computeAnalysis(analysisNamed("collectives"), *lr.trace, {});
  EXPECT_TRUE(analysisValue<CollectivesAcrossRanks>(*result).calls.empty());
}

}  // namespace
}  // namespace opscope
