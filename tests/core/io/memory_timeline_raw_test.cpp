// PyTorch's raw memory timeline, HTA's test file (tests/data/hta): the memory held per
// category over time. Expected figures from HTA's own reading of the file
// (hta/memory_analysis.py _process_raw_events, run on it with Python): the total peaks
// at 3,082,832,104 bytes 98.424324 ms after the first change, and the last sample holds
// Parameter 102,440,608, Optimizer state 102,228,128, Input 19,395,584, Activation
// 128,000, Gradient 107,868,160 and Unknown 424 bytes.
#include "io/memory_timeline_raw_loader.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "io/trace_loader.h"
#include "test_support.h"

namespace opscope {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

const CounterSeries* series(const Trace& t, std::string_view name) {
  for (const CounterSeries& c : t.counters)
    if (t.str(c.name) == name) return &c;
  return nullptr;
}

TEST(MemoryTimelineRaw, HtasFileIsMemoryByCategoryOverTime) {
  LoadResult r = loadTraceFile(OPSCOPE_SOURCE_DIR "/tests/data/hta/memory_timeline.raw.gz");
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const Trace& t = *r.trace;
  EXPECT_EQ(t.meta.format, "pytorch-memory-timeline-raw");
  EXPECT_EQ(t.eventsRead, 16845u);
  EXPECT_EQ(t.diagnostics.total(), 0u);
  const CounterSeries* total = series(t, "memory: Total (MiB)");
  ASSERT_TRUE(total);
  const auto peak = std::max_element(total->value.begin(), total->value.end());
  EXPECT_DOUBLE_EQ(*peak, 3082832104.0 / kMiB);
  EXPECT_EQ(total->ts[static_cast<size_t>(peak - total->value.begin())] - total->ts.front(), 98'424'324);
  const std::pair<const char*, double> last[] = {
      {"memory: Parameter (MiB)", 102440608}, {"memory: Optimizer state (MiB)", 102228128},
      {"memory: Input (MiB)", 19395584},      {"memory: Activation (MiB)", 128000},
      {"memory: Gradient (MiB)", 107868160},  {"memory: Unknown (MiB)", 424}};
  for (const auto& [name, bytes] : last) {
    const CounterSeries* s = series(t, name);
    ASSERT_TRUE(s) << name;
    EXPECT_DOUBLE_EQ(s->value.back(), bytes / kMiB) << name;
  }
}

// Not quadruples, cut short, a fraction: one line naming the byte, exit class 4.
TEST(MemoryTimelineRaw, BrokenFilesAreOneLineErrors) {
  for (const char* bad : {"[[1, 2, 3]]", "[[1, 2, 3, 4], [5, 6", "[[1, 2, 3.5, 4]]", "[[1, 2, 3, 4]] x",
                          "[[1, 2, [3], 4]]", "[[1, 2, 99999999999999999999, 4]]"}) {
    const LoadResult r = loadTraceBytes(bad);
    EXPECT_EQ(r.status, LoadStatus::InvalidInput) << bad;
    EXPECT_NE(r.error.find("PyTorch raw memory timeline: byte "), std::string::npos) << bad << ": " << r.error;
    EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
  }
  // µs timestamps (newer torch) and memory from before profiling (-1) at the first time.
  const LoadResult ok = loadTraceBytes("[[-1, 1, 100, 0], [10, 2, 50, 4], [20, 4, -50, 4]]");
  ASSERT_EQ(ok.status, LoadStatus::Ok) << ok.error;
  const CounterSeries* total = series(*ok.trace, "memory: Total (MiB)");
  ASSERT_TRUE(total);
  EXPECT_EQ(total->ts, (std::vector<TimeNs>{10'000, 20'000}));
  ASSERT_EQ(total->value.size(), 2u);
  EXPECT_DOUBLE_EQ(total->value[0], 150 / kMiB);
  EXPECT_DOUBLE_EQ(total->value[1], 100 / kMiB);
}

}  // namespace
}  // namespace opscope
