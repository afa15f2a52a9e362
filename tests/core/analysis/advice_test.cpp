// Recommendations: each rule fires on a trace built to show its problem, with the time
// at stake known by construction, and stays silent on a trace without it.
#include "analysis/advice.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/kernel_classes.h"
#include "analysis/occupancy.h"
#include "analysis/overview.h"
#include "io/trace_loader.h"
#include "ranks/rank_metrics.h"
#include "report/advice_report.h"
#include "test_support.h"

namespace opscope {
namespace {

struct Builder {
  std::string events;
  int corr = 1;
  void add(const std::string& e) { events += (events.empty() ? "" : ",\n") + e; }
  void x(const std::string& cat, const std::string& name, int tid, double ts, double dur,
         const std::string& args = "") {
    add(R"({"ph": "X", "cat": ")" + cat + R"(", "name": ")" + name + R"(", "pid": )" +
        std::string(tid == 7 ? "0" : "1") + R"(, "tid": )" + std::to_string(tid) + R"(, "ts": )" + std::to_string(ts) +
        R"(, "dur": )" + std::to_string(dur) + (args.empty() ? "" : R"(, "args": {)" + args + "}") + "}");
  }
  // A launch on the host at ts and its GPU event on stream 7 at gpuTs.
  void launch(double ts, double launchDur, const std::string& cat, const std::string& name, double gpuTs, double gpuDur,
              const std::string& gpuArgs = "") {
    const std::string c = R"("correlation": )" + std::to_string(corr++);
    x("cuda_runtime", cat == "kernel" ? "cudaLaunchKernel" : "cudaMemcpyAsync", 1, ts, launchDur, c);
    x(cat, name, 7, gpuTs, gpuDur, c + R"(, "device": 0, "stream": 7)" + gpuArgs);
  }
  std::string topLevel;  // more top-level members, each with a trailing comma
  std::string json() const { return "{" + topLevel + "\"traceEvents\": [\n" + events + "\n]}"; }
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
  EXPECT_FALSE(find(a, "small_kernels"));   // two kernels, both long
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

// Kineto's launch shape of a kernel: block threads, registers, shared memory, the grid's
// blocks per SM.
std::string shape(int threads, int regs, int smem, double blocksPerSm) {
  return R"(, "block": [)" + std::to_string(threads) + R"(, 1, 1], "registers per thread": )" + std::to_string(regs) +
         R"(, "shared memory": )" + std::to_string(smem) + R"(, "blocks per SM": )" + std::to_string(blocksPerSm);
}

TEST(Advice, LowOccupancyCountsWhatAUserCanChange) {
  // A 10 ms step on an A100 (64 warp slots per SM). Occupancy below 25 % puts
  // dur × (1 − achieved / 25 %) at stake, by construction:
  Builder b;
  b.topLevel = R"("deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-40GB", "computeMajor": 8, "computeMinor": 0,
      "maxThreadsPerMultiprocessor": 2048, "regsPerMultiprocessor": 65536, "warpSize": 32,
      "sharedMemPerMultiprocessor": 167936, "numSms": 108}],)";
  b.x("user_annotation", "ProfilerStep#1", 1, 0, 10000);
  // a grid of 27 blocks of 128 threads: 1 warp per SM = 1.5625 % → 937.5 µs at stake;
  b.launch(10, 5, "kernel", "my_small_grid_kernel", 100, 1000, shape(128, 32, 0, 0.25));
  // 255 registers × 256 threads: one block of 8 warps = 12.5 % → 500 µs at stake;
  b.launch(20, 5, "kernel", "my_register_heavy_kernel", 1200, 1000, shape(256, 255, 0, 50));
  // left out: a library GEMM held to 12.5 % by its shared memory (by design), an NCCL
  // kernel of one block, a 5 µs kernel (small_kernels' business) and a full one.
  b.launch(30, 5, "kernel", "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x64_16x4_tn_align1>", 2300, 2000,
           shape(128, 248, 81920, 37.9));
  b.launch(40, 5, "kernel", "ncclKernel_AllReduce_RING_LL_Sum_float", 4400, 2000, shape(256, 96, 0, 0.01));
  b.launch(50, 5, "kernel", "my_tiny_kernel", 6500, 5, shape(32, 16, 0, 0.01));
  b.launch(60, 5, "kernel", "my_full_kernel", 6600, 1000, shape(256, 32, 0, 80));
  const auto t = test::loadOk(b.json());
  const std::vector<Advice> a = advise(*t);
  const Advice* occ = find(a, "low_occupancy");
  ASSERT_TRUE(occ) << adviceText(a, *t, "t");
  EXPECT_EQ(occ->atStake, 937500 + 500000);
  EXPECT_NEAR(occ->sharePct, 14.375, 1e-9);
  ASSERT_TRUE(occ->where);
  EXPECT_EQ(t->name(*occ->where), "my_small_grid_kernel");
  std::map<std::string, double> ev(occ->evidence.begin(), occ->evidence.end());
  EXPECT_EQ(ev["low_occupancy_kernels"], 2);
  EXPECT_EQ(ev["limited_by_grid_us"], 1000);
  EXPECT_EQ(ev["limited_by_registers_us"], 1000);
  EXPECT_FALSE(ev.count("limited_by_shared_memory_us"));
  EXPECT_NEAR(ev["mean_achieved_occupancy_pct"], (1.5625 + 12.5) / 2, 1e-9);
  EXPECT_NE(occ->action.find("too few blocks"), std::string::npos);

  // Without the launch shape (ROCm, old Kineto) the rule stays silent.
  Builder plain;
  plain.x("user_annotation", "ProfilerStep#1", 1, 0, 10000);
  plain.launch(10, 5, "kernel", "my_small_grid_kernel", 100, 1000);
  EXPECT_FALSE(find(advise(*test::loadOk(plain.json())), "low_occupancy"));
}

// The public traces: what each rule reports agrees with a count made here from the
// slices, and every example points at an event of the kind the rule is about.
TEST(Advice, OnThePublicTraces) {
  for (const char* name :
       {"recsys_rank0_cuda.json.gz", "alexnet_train_cuda.json.gz", "mi250_minitoy_train_rocm.json.gz"}) {
    SCOPED_TRACE(name);
    const auto path = test::sharedTrace(name);
    if (!path) GTEST_SKIP() << "../shared/traces/" << name << " not present";
    LoadResult r = loadTraceFile(*path);
    ASSERT_EQ(r.status, LoadStatus::Ok);
    const Trace& t = *r.trace;
    const std::vector<Advice> a = advise(t);
    for (size_t i = 1; i < a.size(); ++i) EXPECT_GE(a[i - 1].atStake, a[i].atStake);
    const TimeNs from = t.iterations.empty() ? t.minTs : t.iterations.front().start;
    const TimeNs to = t.iterations.empty() ? t.maxTs : t.iterations.back().end;
    for (const Advice& x : a) {
      EXPECT_GT(x.atStake, 0) << x.id;
      EXPECT_LE(x.atStake, to - from) << x.id;
      EXPECT_NEAR(x.sharePct, 100.0 * static_cast<double>(x.atStake) / static_cast<double>(to - from), 1e-6) << x.id;
    }
    // Kernels under 10 µs starting in the iterations, counted here.
    size_t kernels = 0, small = 0;
    for (const Track& tr : t.tracks)
      for (size_t i = 0; i < tr.slices.size(); ++i)
        if (tr.kind == TrackKind::GpuStream && tr.slices.kind[i] == SliceKind::Kernel && tr.slices.start[i] >= from &&
            tr.slices.start[i] < to) {
          ++kernels;
          small += tr.slices.dur[i] < 10000;
        }
    if (const Advice* s = find(a, "small_kernels")) {
      std::map<std::string, double> ev(s->evidence.begin(), s->evidence.end());
      EXPECT_EQ(ev["kernels"], static_cast<double>(kernels));
      EXPECT_EQ(ev["small_kernels"], static_cast<double>(small));
      ASSERT_TRUE(s->where);
      EXPECT_EQ(t.kind(*s->where), SliceKind::Kernel);
      EXPECT_LT(t.dur(*s->where), 10000);
    } else {
      EXPECT_TRUE(small < 100 || small * 10 < kernels * 3) << small << " of " << kernels;
    }
    if (const Advice* l = find(a, "launch_bound")) {
      std::map<std::string, double> ev(l->evidence.begin(), l->evidence.end());
      EXPECT_LE(ev["idle_while_launching_us"], ev["gpu_idle_us"]);
      EXPECT_LE(ev["idle_while_launching_us"], ev["host_launch_us"]);
      ASSERT_TRUE(l->where);
      EXPECT_TRUE(t.kind(*l->where) == SliceKind::Runtime || t.kind(*l->where) == SliceKind::Driver);
    }
    const std::string n = name;
    if (n.starts_with("recsys")) {
      // Five steps of a launch-bound recommendation model on 8 GPUs (this is rank 0).
      EXPECT_TRUE(find(a, "launch_bound"));
      EXPECT_TRUE(find(a, "small_kernels"));
      EXPECT_TRUE(find(a, "exposed_communication"));
      EXPECT_EQ(small, 4685u);
    }
    // ROCm traces record no launch shape: no occupancy to judge.
    if (n.starts_with("mi250")) {
      EXPECT_FALSE(find(a, "low_occupancy"));
    }
  }
}

TEST(Advice, ABusyGpuFedInTimeGivesNoAdvice) {
  // Launches of 2 µs queue 400 µs kernels back to back: the GPU never waits.
  Builder b;
  b.x("user_annotation", "ProfilerStep#1", 1, 0, 4100);
  for (int i = 0; i < 10; ++i) b.launch(i * 3.0, 2, "kernel", "gemm", 10 + i * 400.0, 400);
  const auto t = test::loadOk(b.json());
  EXPECT_TRUE(advise(*t).empty()) << adviceText(advise(*t), *t, "t");
}

// Every share is over the window its numerator counts, so none exceeds 100 %, on every
// real trace at hand: the public files in tests/data and, when present, ../shared/traces.
// (exposed_communication said 113.6 % on TraceLens' MI300X DDP step: the whole trace's
// collectives over the iterations' span.) Overview utilisations are checked alike.
TEST(Advice, NoShareExceedsItsWindowOnAnyRealTrace) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const fs::path& root : {fs::path(OPSCOPE_SOURCE_DIR "/tests/data"), fs::path(OPSCOPE_SHARED_DIR) / "traces"}) {
    if (!fs::exists(root)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root))
      if (e.is_regular_file() && e.path().extension() != ".md") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  size_t loaded = 0, fired = 0;
  for (const fs::path& f : files) {
    LoadResult r = loadTraceFile(f.string());
    if (r.status != LoadStatus::Ok) continue;  // side files: peaks, microbenchmarks
    ++loaded;
    for (const Advice& a : advise(*r.trace)) {
      ++fired;
      EXPECT_GE(a.sharePct, 0.0) << f << " " << a.id;
      EXPECT_LE(a.sharePct, 100.0) << f << " " << a.id << ": " << a.title;
    }
    const Overview o = computeOverview(*r.trace);
    EXPECT_LE(o.gpuUtilisation, 1.0) << f;
    EXPECT_LE(o.gpuUtilisationEnvelope, o.gpuUtilisation + 1e-12) << f;
    EXPECT_LE(o.gpuUtilisationGpuSpan, 1.0) << f;
    for (const StreamActivity& st : o.streams) EXPECT_LE(st.utilisation, 1.0) << f << " " << st.label;
    TimeNs parts = 0;
    for (TimeNs p : o.breakdown) parts += p;
    EXPECT_EQ(parts, o.wall) << f;
  }
  EXPECT_GE(loaded, 30u);  // tests/data alone holds more than 30 traces
  EXPECT_GT(fired, loaded);
}

// The occupancy rule reads its kernels' args in one pass over a plain file (lazy args):
// its advice equals the one from the same trace with every arg decoded while loading,
// on real traces other tools wrote, and it fires on one of them (so that the comparison
// is of something).
TEST(Advice, LowOccupancyFromOnePassOverTheFileEqualsTheDecodedArgs) {
  size_t fired = 0;
  for (const char* f : {"tests/data/pytorch_h100/h100_resnet50_train.pt.trace.json.gz",
                        "tests/data/tracelens/h100_Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
                        "tests/data/tb_plugin/resnet50_memory.pt.trace.json.gz"}) {
    SCOPED_TRACE(f);
    const std::string path = test::plainCopy(OPSCOPE_SOURCE_DIR "/" + std::string(f), "advice_plain.json");
    LoadOptions eager;
    eager.eagerArgs = true;
    const LoadResult lazy = loadTraceFile(path), decoded = loadTraceFile(path, eager);
    ASSERT_EQ(lazy.status, LoadStatus::Ok) << lazy.error;
    ASSERT_EQ(decoded.status, LoadStatus::Ok) << decoded.error;
    ASSERT_TRUE(lazy.trace->lazyArgs);
    ASSERT_FALSE(decoded.trace->lazyArgs);
    const std::vector<Advice> a = advise(*lazy.trace), b = advise(*decoded.trace);
    const Advice *x = find(a, "low_occupancy"), *y = find(b, "low_occupancy");
    ASSERT_EQ(x != nullptr, y != nullptr);
    EXPECT_EQ(adviceText(a, *lazy.trace, "t"), adviceText(b, *decoded.trace, "t"));
    if (!x) continue;
    ++fired;
    EXPECT_EQ(x->title, y->title);
    EXPECT_EQ(x->atStake, y->atStake);
    EXPECT_EQ(x->evidence, y->evidence);
    EXPECT_EQ(x->where, y->where);
    // And both equal the rule worked out here, one kernel's args read at a time.
    const Trace& t = *lazy.trace;
    ASSERT_FALSE(t.iterations.empty());
    const TimeNs from = t.iterations.front().start, to = t.iterations.back().end;
    const auto devices = smLimitsByDevice(t.meta.devices);
    size_t kernels = 0;
    TimeNs time = 0;
    double weighted = 0;
    for (uint32_t tr = 0; tr < t.tracks.size(); ++tr) {
      if (t.tracks[tr].kind != TrackKind::GpuStream) continue;
      const SmLimits sm = devices.count(t.tracks[tr].device) ? devices.at(t.tracks[tr].device) : SmLimits{};
      const SliceColumns& s = t.tracks[tr].slices;
      for (uint32_t i = 0; i < s.size(); ++i) {
        if (s.kind[i] != SliceKind::Kernel || s.dur[i] < 10000 || s.start[i] < from || s.start[i] >= to) continue;
        if (isCollectiveKernelName(t.str(s.name[i]))) continue;
        const auto occ = kernelOccupancy(t.args(EventRef{tr, i}), sm);
        if (!occ || occ->achievedPct >= 25.0) continue;
        const std::string cls = KernelClassifier::builtin().classify(t.str(s.name[i]));
        const bool tiled = cls == "gemm" || cls == "gemv" || cls == "conv" || cls == "attention";
        if (occ->limiter != OccupancyLimiter::Grid && tiled) continue;
        const double target = occ->limiter == OccupancyLimiter::Grid ? std::min(25.0, occ->theoreticalPct) : 25.0;
        if (target <= 0 || occ->achievedPct >= target) continue;
        ++kernels;
        time += s.dur[i];
        weighted += occ->achievedPct * static_cast<double>(s.dur[i]);
      }
    }
    std::map<std::string, double> ev(x->evidence.begin(), x->evidence.end());
    EXPECT_EQ(ev["low_occupancy_kernels"], static_cast<double>(kernels));
    EXPECT_NEAR(ev["low_occupancy_kernel_us"], static_cast<double>(time) / 1e3, 1e-6);
    EXPECT_NEAR(ev["mean_achieved_occupancy_pct"], weighted / static_cast<double>(time), 1e-9);
  }
  EXPECT_GT(fired, 0u);
}

}  // namespace
}  // namespace opscope
