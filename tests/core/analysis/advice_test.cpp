// Recommendations: each rule fires on a trace built to show its problem, with the time
// at stake known by construction, and stays silent on a trace without it.
#include "analysis/advice.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/advice_report.h"
#include "test_support.h"

namespace opscope {
namespace {

struct Builder {
  std::string events;
  int corr = 1;
  void add(const std::string& e) { events += (events.empty() ? "" : ",\n") + e; }
  void x(const std::string& cat, const std::string& name, int tid, double ts, double dur, const std::string& args = "") {
    add(R"({"ph": "X", "cat": ")" + cat + R"(", "name": ")" + name + R"(", "pid": )" + std::string(tid == 7 ? "0" : "1") +
        R"(, "tid": )" + std::to_string(tid) + R"(, "ts": )" + std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) +
        (args.empty() ? "" : R"(, "args": {)" + args + "}") + "}");
  }
  // A launch on the host at ts and its GPU event on stream 7 at gpuTs.
  void launch(double ts, double launchDur, const std::string& cat, const std::string& name, double gpuTs, double gpuDur) {
    const std::string c = R"("correlation": )" + std::to_string(corr++);
    x("cuda_runtime", cat == "kernel" ? "cudaLaunchKernel" : "cudaMemcpyAsync", 1, ts, launchDur, c);
    x(cat, name, 7, gpuTs, gpuDur, c + R"(, "device": 0, "stream": 7)");
  }
  std::string json() const { return "{\"traceEvents\": [\n" + events + "\n]}"; }
};

const Advice* find(const std::vector<Advice>& list, const std::string& id) {
  for (const Advice& a : list)
    if (a.id == id) return &a;
  return nullptr;
}

TEST(Advice, LaunchBoundAndSmallKernelsAreFoundWithTheirTimeAtStake) {
  // One step of 200 launches, each 20 µs on the host, each kernel 3 µs right after it:
  // the GPU idles 17 µs of every 20 while the host launches.
  Builder b;
  b.x("user_annotation", "ProfilerStep#1", 1, 0, 4000);
  for (int i = 0; i < 200; ++i) b.launch(i * 20.0, 20, "kernel", "tiny", i * 20.0 + 17, 3);
  const auto t = test::loadOk(b.json());
  const std::vector<Advice> a = advise(*t);
  const Advice* lb = find(a, "launch_bound");
  ASSERT_TRUE(lb);
  EXPECT_EQ(lb->atStake, 200 * 17000);  // launch time not covered by the GPU
  EXPECT_NEAR(lb->sharePct, 85.0, 1e-9);
  const Advice* small = find(a, "small_kernels");
  ASSERT_TRUE(small);
  EXPECT_EQ(small->atStake, 199 * 17000);  // the idle gaps before the 199 kernels that follow another
  ASSERT_TRUE(small->where);
  EXPECT_EQ(t->name(*small->where), "tiny");
  // Most time at stake first.
  EXPECT_EQ(a.front().id, "launch_bound");
  EXPECT_FALSE(find(a, "host_sync"));
  EXPECT_FALSE(find(a, "data_loading"));
}

TEST(Advice, SyncsPageableCopiesAndInputLoading) {
  // Three steps of 1000 µs, 500 µs apart; in each a 300 µs cudaStreamSynchronize and a
  // 100 µs pageable copy; the GPU busy with one 600 µs kernel per step.
  Builder b;
  for (int s = 0; s < 3; ++s) {
    const double t0 = s * 1500.0;
    b.x("user_annotation", "ProfilerStep#" + std::to_string(s), 1, t0, 1000);
    b.launch(t0 + 1, 2, "kernel", "big_gemm", t0 + 10, 600);
    b.launch(t0 + 5, 2, "gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", t0 + 700, 100);
    b.x("cuda_runtime", "cudaStreamSynchronize", 1, t0 + 600, 300);
  }
  const auto t = test::loadOk(b.json());
  const std::vector<Advice> a = advise(*t);
  const Advice* sync = find(a, "host_sync");
  ASSERT_TRUE(sync);
  EXPECT_EQ(sync->atStake, 3 * 300000);
  ASSERT_TRUE(sync->where);
  EXPECT_EQ(t->name(*sync->where), "cudaStreamSynchronize");
  const Advice* pageable = find(a, "pageable_memcpy");
  ASSERT_TRUE(pageable);
  EXPECT_EQ(pageable->atStake, 3 * 100000);
  const Advice* loading = find(a, "data_loading");
  ASSERT_TRUE(loading);
  EXPECT_EQ(loading->atStake, 2 * 500000);  // between the steps
  EXPECT_FALSE(find(a, "small_kernels"));  // two kernels, both long
  // Ordered by time at stake: loading (1 ms) before syncs (0.9 ms) before copies (0.3 ms).
  ASSERT_GE(a.size(), 3u);
  EXPECT_EQ(a[0].id, "data_loading");
  EXPECT_EQ(a[1].id, "host_sync");

  const auto j = nlohmann::json::parse(adviceJson(a, *t, "t.json"));
  EXPECT_EQ(j["recommendations"][0]["id"], "data_loading");
  EXPECT_EQ(j["recommendations"][0]["at_stake_us"], 1000.0);
  EXPECT_EQ(j["recommendations"][1]["where"]["name"], "cudaStreamSynchronize");
  EXPECT_TRUE(j["recommendations"][1]["evidence"].contains("blocked_us"));
  EXPECT_EQ(j["examined_us"], 4000.0);
}

TEST(Advice, ABusyGpuFedInTimeGivesNoAdvice) {
  // Launches of 2 µs queue 400 µs kernels back to back: the GPU never waits.
  Builder b;
  b.x("user_annotation", "ProfilerStep#1", 1, 0, 4100);
  for (int i = 0; i < 10; ++i) b.launch(i * 3.0, 2, "kernel", "gemm", 10 + i * 400.0, 400);
  const auto t = test::loadOk(b.json());
  EXPECT_TRUE(advise(*t).empty()) << adviceText(advise(*t), *t, "t");
}

}  // namespace
}  // namespace opscope
