// Repeated kernel sequences on a real trace (HTA's NCCL test rank): the (op, sequence)
// groups against a grouping written here over the raw JSON — top-level cpu_ops by
// containment per thread, their launches by time on the thread, GPU events by
// correlation id — not through opscope's hierarchy.
#include "analysis/kernel_sequences.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "io/trace_loader.h"
#include "test_support.h"

namespace opscope {
namespace {

struct Raw {
  double ts, dur;
  std::string name;
  int64_t corr;
};

// Checks every repeated group of the trace against the raw grouping; returns how many.
size_t checkAgainstRawJson(const std::string& path) {
  LoadResult lr = loadTraceFile(path);
  EXPECT_EQ(lr.status, LoadStatus::Ok) << lr.error;
  if (lr.status != LoadStatus::Ok) return 0;
  const KernelSequences got = kernelSequences(*lr.trace);
  const auto json = nlohmann::json::parse(test::gunzip(test::readFile(path)));
  std::map<std::string, std::vector<Raw>> ops, launches;  // by "pid/tid"
  std::map<int64_t, std::vector<Raw>> gpu;                // by correlation
  for (const auto& e : json["traceEvents"]) {
    if (e.value("ph", "") != "X") continue;
    const std::string cat = e.value("cat", "");
    const std::string thread = e["pid"].dump() + "/" + e["tid"].dump();
    const int64_t corr = e.contains("args") ? e["args"].value("correlation", int64_t{-1}) : -1;
    Raw r{e["ts"].get<double>(), e.value("dur", 0.0), e["name"], corr};
    if (cat == "cpu_op") ops[thread].push_back(r);
    else if (cat == "cuda_runtime" || cat == "cuda_driver") launches[thread].push_back(r);
    else if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") gpu[corr].push_back(r);
  }
  std::map<std::pair<std::string, std::vector<std::string>>, std::pair<uint64_t, double>> want;
  for (auto& [thread, list] : ops) {
    std::stable_sort(list.begin(), list.end(),
                     [](const Raw& a, const Raw& b) { return a.ts != b.ts ? a.ts < b.ts : a.dur > b.dur; });
    double coveredUntil = -1e300;
    for (const Raw& op : list) {
      if (op.ts < coveredUntil) continue;  // inside an earlier top-level op
      coveredUntil = op.ts + op.dur;
      std::vector<Raw> events;
      for (const Raw& l : launches[thread])
        if (l.ts >= op.ts && l.ts + l.dur <= op.ts + op.dur && gpu.count(l.corr))
          for (const Raw& g : gpu[l.corr]) events.push_back(g);
      if (events.size() < 3) continue;
      std::stable_sort(events.begin(), events.end(), [](const Raw& a, const Raw& b) { return a.ts < b.ts; });
      std::vector<std::string> names;
      double time = 0;
      for (const Raw& g : events) {
        names.push_back(g.name);
        time += g.dur;
      }
      auto& w = want[{op.name, names}];
      ++w.first;
      w.second += time;
    }
  }
  size_t repeated = 0;
  for (const auto& [key, w] : want) repeated += w.first >= 2;
  EXPECT_EQ(got.sequences.size(), repeated);
  for (const KernelSequence& q : got.sequences) {
    SCOPED_TRACE(q.op);
    const auto it = want.find({q.op, q.kernels});
    if (it == want.end()) {
      ADD_FAILURE() << "a group the raw JSON does not have";
      continue;
    }
    EXPECT_EQ(q.count, it->second.first);
    EXPECT_NEAR(static_cast<double>(q.gpuTime) / 1000, it->second.second, 1e-6);
  }
  EXPECT_TRUE(std::is_sorted(got.sequences.begin(), got.sequences.end(),
                             [](const KernelSequence& a, const KernelSequence& b) { return a.gpuTime > b.gpuTime; }));
  return repeated;
}

TEST(KernelSequences, AgreeWithAGroupingOverTheRawJson) {
  const std::string path = OPSCOPE_SOURCE_DIR "/tests/data/hta/ranks/sampled_rank-0.json.gz";
  EXPECT_GE(checkAgainstRawJson(path), 3u);
  // A larger real trace when ../shared is here: a recommendation model's training steps.
  if (const auto recsys = test::sharedTrace("recsys_rank0_cuda.json.gz")) {
    EXPECT_GE(checkAgainstRawJson(*recsys), 10u);
  }
  LoadResult lr = loadTraceFile(path);
  ASSERT_EQ(lr.status, LoadStatus::Ok);
  // A pattern examines the ops whose names contain it, the shallowest ones.
  KernelSequenceOptions clamp;
  clamp.opPattern = "ClampBackward";
  const KernelSequences c = kernelSequences(*lr.trace, std::nullopt, clamp);
  ASSERT_FALSE(c.sequences.empty());
  for (const KernelSequence& q : c.sequences) EXPECT_NE(q.op.find("ClampBackward"), std::string::npos);
}

}  // namespace
}  // namespace opscope
