#include "analysis/utilisation_counters.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "test_support.h"

namespace opscope {
namespace {

// Device 0: two streams overlapping in [3,5) µs, so the union is [1,7) µs plus [12,13).
// Device 1: one kernel [2,4) µs. The CPU op never counts.
const char* kTwoDevices = R"([
  {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":9,"tid":1,"ts":0,"dur":20},
  {"ph":"X","cat":"kernel","name":"a","pid":0,"tid":7,"ts":1,"dur":4,"args":{"stream":7,"device":0}},
  {"ph":"X","cat":"kernel","name":"b","pid":0,"tid":8,"ts":3,"dur":4,"args":{"stream":8,"device":0}},
  {"ph":"X","cat":"gpu_memcpy","name":"Memcpy","pid":0,"tid":8,"ts":12,"dur":1,"args":{"stream":8,"device":0}},
  {"ph":"X","cat":"kernel","name":"c","pid":1,"tid":7,"ts":2,"dur":2,"args":{"stream":7,"device":1}}
])";

TEST(UtilisationCounters, RoundBinWidths) {
  EXPECT_EQ(roundBinWidth(0, 2000), 1'000);          // never below 1 µs
  EXPECT_EQ(roundBinWidth(3'000'000, 2000), 2'000);  // 1.5 µs -> 2 µs
  EXPECT_EQ(roundBinWidth(6'000'000, 2000), 5'000);
  EXPECT_EQ(roundBinWidth(20'000'000, 2000), 10'000);
  EXPECT_EQ(roundBinWidth(1'000'000'000'000, 2000), 500'000'000);
}

TEST(UtilisationCounters, UnionPerDeviceByConstruction) {
  auto t = test::loadOk(kTwoDevices);
  ASSERT_TRUE(t);
  // 12 µs span over 4 bins -> 5 µs bins aligned to multiples of 5 µs.
  const std::vector<UtilisationSeries> s = gpuUtilisation(*t, 4);
  ASSERT_EQ(s.size(), 2u);
  const UtilisationSeries& d0 = t->processes[s[0].process].pid.num == 0 ? s[0] : s[1];
  const UtilisationSeries& d1 = &d0 == &s[0] ? s[1] : s[0];
  EXPECT_EQ(d0.binWidth, 5'000);
  EXPECT_EQ(d0.start, 0);
  EXPECT_EQ(d0.end, 13'000);
  ASSERT_EQ(d0.percent.size(), 3u);
  EXPECT_DOUBLE_EQ(d0.percent[0], 80);  // [1,5) of [0,5): overlap counted once
  EXPECT_DOUBLE_EQ(d0.percent[1], 40);  // [5,7)
  EXPECT_DOUBLE_EQ(d0.percent[2], 20);  // [12,13)
  EXPECT_EQ(d1.binWidth, 1'000);        // its own span: 2 µs
  EXPECT_EQ(d1.start, 2'000);
  ASSERT_EQ(d1.percent.size(), 2u);
  EXPECT_DOUBLE_EQ(d1.percent[0], 100);
  EXPECT_DOUBLE_EQ(d1.percent[1], 100);
}

TEST(UtilisationCounters, AddedAsCounterTracksEndingAtZero) {
  auto t = test::loadOk(kTwoDevices);
  ASSERT_TRUE(t);
  const size_t before = t->counters.size();
  const TimeNs maxTs = t->maxTs;
  addGpuUtilisationCounters(*t, 4);
  ASSERT_EQ(t->counters.size(), before + 2);
  for (size_t i = before; i < t->counters.size(); ++i) {
    const CounterSeries& c = t->counters[i];
    EXPECT_EQ(t->str(c.name), "GPU utilisation %");
    ASSERT_EQ(c.ts.size(), c.value.size());
    ASSERT_GE(c.ts.size(), 2u);
    EXPECT_TRUE(std::is_sorted(c.ts.begin(), c.ts.end()));
    EXPECT_EQ(c.value.back(), 0);
    EXPECT_LE(c.ts.back(), maxTs);
    for (double v : c.value) {
      EXPECT_GE(v, 0);
      EXPECT_LE(v, 100);
    }
  }
}

TEST(UtilisationCounters, NoGpuEventsNoSeries) {
  auto t = test::loadOk(R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":5}])");
  ASSERT_TRUE(t);
  EXPECT_TRUE(gpuUtilisation(*t).empty());
  addGpuUtilisationCounters(*t);
  EXPECT_TRUE(t->counters.empty());
}

}  // namespace
}  // namespace opscope

namespace opscope {
namespace {

TEST(UtilisationCounters, OnlyZeroLengthDeviceEventsMakeNoSeries) {
  // Found by fuzzing: every GPU event of zero duration left an empty busy set.
  auto t = test::loadOk(R"({"traceEvents":[
    {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":10,"dur":0,"args":{"stream":7,"device":0}},
    {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":20,"dur":0,"args":{"stream":7,"device":0}}
  ]})");
  ASSERT_TRUE(t);
  EXPECT_TRUE(gpuUtilisation(*t, 100).empty());
}

// Busy time at both ends of the ±2^62 ns time domain: the span is 2^63 ns, one more than
// int64 holds (signed overflow that UBSan found on a 10 KB Nsight export). The bins
// stay bounded, cover the trace and never count more than their width.
TEST(UtilisationCounters, BothEndsOfTheTimeDomainNeverOverflow) {
  const std::string json =
      R"({"traceEvents":[)"
      R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":-4611686018427387,"dur":5,"args":{"stream":7}},)"
      R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":4611686018427380,"dur":5,"args":{"stream":7}}]})";
  auto t = test::loadOk(json);
  ASSERT_TRUE(t);
  for (size_t target : {size_t{1}, size_t{2}, size_t{2000}}) {
    const std::vector<UtilisationSeries> s = gpuUtilisation(*t, target);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_GT(s[0].binWidth, 0);
    EXPECT_LE(s[0].percent.size(), 2 * target + 2) << target;
    for (double p : s[0].percent) {
      EXPECT_GE(p, 0.0);
      EXPECT_LE(p, 100.0);
    }
    EXPECT_LE(s[0].start, t->minTs);
  }
  addGpuUtilisationCounters(*t, 2000);
  const CounterSeries& c = t->counters.back();
  EXPECT_TRUE(std::is_sorted(c.ts.begin(), c.ts.end()));
}

}  // namespace
}  // namespace opscope
