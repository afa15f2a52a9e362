// Memory bandwidth per copy kind: figures by hand on a small trace; on a real trace
// (HTA's NCCL test rank) against sums written here over the raw JSON and against the
// peaks Holistic Trace Analysis itself computes (its code at f4d0062, run on the file).
#include "analysis/memory_bandwidth.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "io/trace_loader.h"
#include "report/analysis_catalog.h"
#include "test_support.h"

namespace opscope {
namespace {

// Two pinned HtoD copies overlapping for 5 µs, a pageable one, a DtoD and a peer copy,
// a memset, and a DtoH with no bytes recorded.
const char* kCopies = R"J([
  {"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pinned -> Device)","pid":0,"tid":7,"ts":0,"dur":10,"args":{"stream":7,"bytes":100000}},
  {"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pinned -> Device)","pid":0,"tid":8,"ts":5,"dur":10,"args":{"stream":8,"bytes":300000}},
  {"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":7,"ts":20,"dur":20,"args":{"stream":7,"bytes":20000}},
  {"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoD (Device -> Device)","pid":0,"tid":7,"ts":50,"dur":2,"args":{"stream":7,"bytes":2000000,"memory bandwidth (GB/s)":1250}},
  {"ph":"X","cat":"gpu_memcpy","name":"Memcpy PtoP (Device -> Device)","pid":0,"tid":7,"ts":60,"dur":4,"args":{"stream":7,"bytes":400000}},
  {"ph":"X","cat":"gpu_memset","name":"Memset (Device)","pid":0,"tid":7,"ts":70,"dur":1,"args":{"stream":7,"bytes":1000000}},
  {"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoH (Device -> Pinned)","pid":0,"tid":7,"ts":80,"dur":3,"args":{"stream":7}},
  {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":90,"dur":3,"args":{"stream":7,"bytes":5}}])J";

const CopyKindBandwidth* kindOf(const MemoryBandwidthReport& r, std::string_view kind) {
  for (const CopyKindBandwidth& k : r.kinds)
    if (k.kind == kind) return &k;
  return nullptr;
}

TEST(MemoryBandwidth, KindsBytesRatesAndStepsByHand) {
  auto t = test::loadOk(kCopies);
  ASSERT_TRUE(t);
  const MemoryBandwidthReport r = memoryBandwidth(*t);
  std::vector<std::string> order;
  for (const auto& k : r.kinds) order.push_back(k.kind);
  EXPECT_EQ(order, (std::vector<std::string>{"HtoD", "DtoH", "DtoD", "PtoP", "Memset"}));
  const CopyKindBandwidth* h = kindOf(r, "HtoD");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->all.count, 3u);
  EXPECT_EQ(h->all.bytes, 420000u);
  EXPECT_EQ(h->all.time, 40'000);
  EXPECT_DOUBLE_EQ(*h->all.gbs(), 420000.0 / 40000.0);  // bytes per ns = GB/s
  EXPECT_EQ(h->pinned.count, 2u);
  EXPECT_DOUBLE_EQ(*h->pinned.gbs(), 400000.0 / 20000.0);
  EXPECT_EQ(h->pageable.count, 1u);
  EXPECT_DOUBLE_EQ(*h->pageable.gbs(), 1.0);
  // 10 GB/s alone, 40 while both run, 30 alone, 0, then the pageable copy's 1.
  ASSERT_EQ(h->steps.size(), 6u);
  EXPECT_DOUBLE_EQ(h->steps[0].gbs, 10);
  EXPECT_DOUBLE_EQ(h->steps[1].gbs, 40);
  EXPECT_DOUBLE_EQ(h->steps[2].gbs, 30);
  EXPECT_EQ(h->steps[3].gbs, 0);
  EXPECT_DOUBLE_EQ(h->steps[4].gbs, 1);
  EXPECT_EQ(h->steps[5].gbs, 0);
  EXPECT_DOUBLE_EQ(h->peakGBs, 40);
  EXPECT_DOUBLE_EQ(h->all.gbsMin, 1);
  EXPECT_DOUBLE_EQ(h->all.gbsMax, 30);
  // Kineto's own rate wins for the steps (1250, not 2e6 / 2000 = 1000); the aggregate is
  // bytes over time.
  const CopyKindBandwidth* d = kindOf(r, "DtoD");
  ASSERT_TRUE(d);
  EXPECT_DOUBLE_EQ(d->peakGBs, 1250);
  EXPECT_DOUBLE_EQ(*d->all.gbs(), 1000);
  EXPECT_DOUBLE_EQ(*kindOf(r, "PtoP")->all.gbs(), 100);
  EXPECT_DOUBLE_EQ(*kindOf(r, "Memset")->all.gbs(), 1000);
  const CopyKindBandwidth* dh = kindOf(r, "DtoH");
  EXPECT_EQ(dh->all.withoutBytes, 1u);
  EXPECT_FALSE(dh->all.gbs());
  EXPECT_TRUE(dh->steps.empty());
  // A window keeps the copies that start in it.
  const MemoryBandwidthReport w = memoryBandwidth(*t, TimeWindow{t->minTs + 45'000, t->minTs + 75'000});
  ASSERT_EQ(w.kinds.size(), 3u);
  EXPECT_EQ(w.kinds[0].kind, "DtoD");
}

TEST(MemoryBandwidth, CopyKindNames) {
  EXPECT_EQ(copyKindOf("Memcpy HtoD (Pageable -> Device)", SliceKind::Memcpy), "HtoD");
  EXPECT_EQ(copyKindOf("Memcpy PtoP (Device -> Device)", SliceKind::Memcpy), "PtoP");
  EXPECT_EQ(copyKindOf("Memcpy DtoH", SliceKind::Memcpy), "DtoH");
  EXPECT_EQ(copyKindOf("Memset (Device)", SliceKind::Memset), "Memset");
  EXPECT_EQ(copyKindOf("cudaMemcpyAsync", SliceKind::Memcpy), "");
  EXPECT_EQ(copyKindOf("Memcpy Photo", SliceKind::Memcpy), "");
}

TEST(MemoryBandwidth, TheTimelineGetsACounterPerDeviceAndKind) {
  auto t = test::loadOk(kCopies);
  ASSERT_TRUE(t);
  const size_t before = t->counters.size();
  analysisNamed("memory-bandwidth").addTimelineCounters(*t);
  // HtoD, DtoD, PtoP and Memset; the DtoH copy recorded no bytes, so it has no rate.
  ASSERT_EQ(t->counters.size(), before + 4);
  EXPECT_EQ(t->str(t->counters[before].name), "DtoD" + std::string(kMemoryBandwidthCounterSuffix));
  double peak = 0;
  for (size_t i = before; i < t->counters.size(); ++i)
    if (t->str(t->counters[i].name).starts_with("HtoD"))
      for (double v : t->counters[i].value) peak = std::max(peak, v);
  EXPECT_DOUBLE_EQ(peak, 40);
}

// Sums over the raw JSON of a real trace, written here (not through opscope's model),
// and the peaks HTA computes for the same file (get_memory_bw_time_series with
// include_last_profiler_step=True, HTA f4d0062): equal.
void checkAgainstRawJsonAndHta(const std::string& path, bool lazy);

// As gzip (args decoded while loading) and as a plain copy (args read back from the file
// in one pass when the report asks).
TEST(MemoryBandwidth, AgreesWithTheRawJsonAndWithHtaOnARealTrace) {
  const std::string gz = OPSCOPE_SOURCE_DIR "/tests/data/hta/ranks/sampled_rank-0.json.gz";
  const std::string plain = test::plainCopy(gz, "bandwidth_plain.json");
  for (const std::string& path : {gz, plain}) {
    SCOPED_TRACE(path);
    checkAgainstRawJsonAndHta(path, path == plain);
    if (HasFatalFailure()) return;
  }
}

void checkAgainstRawJsonAndHta(const std::string& path, bool lazy) {
  LoadResult lr = loadTraceFile(path);
  ASSERT_EQ(lr.status, LoadStatus::Ok) << lr.error;
  ASSERT_EQ(lr.trace->lazyArgs != nullptr, lazy);
  const MemoryBandwidthReport r = memoryBandwidth(*lr.trace);
  const auto json = nlohmann::json::parse(test::gunzip(test::readFile(path)));
  struct Sum {
    uint64_t count = 0, bytes = 0;
    double us = 0;
  };
  std::map<std::string, Sum> want;
  for (const auto& e : json["traceEvents"]) {
    const std::string cat = e.value("cat", "");
    if (cat != "gpu_memcpy" && cat != "gpu_memset") continue;
    const std::string name = e["name"];
    const std::string kind = cat == "gpu_memset" ? "Memset" : name.substr(7, 4);  // "Memcpy HtoD (...)"
    Sum& s = want[kind];
    ++s.count;
    s.bytes += e["args"]["bytes"].get<uint64_t>();
    s.us += e["dur"].get<double>();
  }
  ASSERT_EQ(want.size(), 4u);
  ASSERT_EQ(r.kinds.size(), want.size());
  for (const CopyKindBandwidth& k : r.kinds) {
    SCOPED_TRACE(k.kind);
    ASSERT_TRUE(want.count(k.kind));
    EXPECT_EQ(k.all.count, want[k.kind].count);
    EXPECT_EQ(k.all.bytes, want[k.kind].bytes);
    EXPECT_NEAR(static_cast<double>(k.all.time) / 1000, want[k.kind].us, 1e-6);
  }
  const std::map<std::string, double> htaPeak = {{"HtoD", 6.830520693099405},
                                                 {"DtoH", 1.400735294117647},
                                                 {"DtoD", 960.2344322344322},
                                                 {"Memset", 753.5855855855856}};
  for (const auto& [kind, peak] : htaPeak) EXPECT_NEAR(kindOf(r, kind)->peakGBs, peak, 1e-9) << kind;
}

}  // namespace
}  // namespace opscope
