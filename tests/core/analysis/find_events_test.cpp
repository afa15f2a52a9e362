#include "analysis/find_events.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "io/trace_loader.h"

#include "navigation_fixture.h"
#include "test_support.h"

namespace opscope {
namespace {

std::vector<std::string> names(const Trace& t, const std::vector<EventRef>& refs) {
  std::vector<std::string> out;
  for (EventRef r : refs) out.emplace_back(t.name(r));
  return out;
}

TEST(FindEvents, SubstringIgnoresCaseAndOrdersByTime) {
  auto t = test::loadOk(test::kNavigationTrace);
  ASSERT_TRUE(t);
  const NameMatcher m = matchNames(t->strings, {"gemm", false, false});
  EXPECT_EQ(m.names, 2u);
  const auto hits = findEvents(*t, m);
  EXPECT_EQ(names(*t, hits), (std::vector<std::string>{"sgemm_128x64", "SGEMM_tail"}));
  const NameMatcher exactCase = matchNames(t->strings, {"gemm", false, true});
  EXPECT_EQ(findEvents(*t, exactCase).size(), 1u);
}

TEST(FindEvents, RegularExpressionsAndLimits) {
  auto t = test::loadOk(test::kNavigationTrace);
  ASSERT_TRUE(t);
  const NameMatcher m = matchNames(t->strings, {"^aten::(linear|addmm)$", true, false});
  const auto hits = findEvents(*t, m);
  EXPECT_EQ(names(*t, hits), (std::vector<std::string>{"aten::linear", "aten::addmm", "aten::linear", "aten::addmm"}));
  EXPECT_EQ(findEvents(*t, m, 3).size(), 3u);
  EXPECT_THROW(matchNames(t->strings, {"(unclosed", true, false}), PatternError);
}

TEST(FindEvents, EmptyOrMissingPatternMatchesNothing) {
  auto t = test::loadOk(test::kNavigationTrace);
  ASSERT_TRUE(t);
  EXPECT_FALSE(matchNames(t->strings, {"", false, false}).any());
  const NameMatcher none = matchNames(t->strings, {"no such op", false, false});
  EXPECT_FALSE(none.any());
  EXPECT_TRUE(findEvents(*t, none).empty());
}

// The matches merged track by track come in the order of sorting them all by (start,
// ref), on real traces other tools wrote (a dozen tracks, many events at one start) for
// queries matching few and nearly all events, and the limit keeps the earliest.
TEST(FindEvents, MergedTracksGiveTheSortedOrderOnRealTraces) {
  for (const char* f : {"tests/data/pytorch_h100/h100_resnet50_train.pt.trace.json.gz",
                        "tests/data/tracelens/mi300_google_owlv2-large-patch14-ensemble__1016001.json.gz",
                        "tests/data/hta/ranks/sampled_rank-0.json.gz"}) {
    SCOPED_TRACE(f);
    LoadResult r = loadTraceFile(OPSCOPE_SOURCE_DIR "/" + std::string(f));
    ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
    const Trace& t = *r.trace;
    for (const char* q : {"a", "e", "aten::", "kernel", "Memcpy"}) {
      SCOPED_TRACE(q);
      const NameMatcher m = matchNames(t.strings, {q, false, false});
      const std::vector<EventRef> got = findEvents(t, m);
      std::vector<EventRef> want;
      for (uint32_t tr = 0; tr < t.tracks.size(); ++tr)
        for (uint32_t i = 0; i < t.tracks[tr].slices.size(); ++i)
          if (m(t.tracks[tr].slices.name[i])) want.push_back({tr, i});
      std::sort(want.begin(), want.end(),
                [&](EventRef a, EventRef b) { return t.start(a) != t.start(b) ? t.start(a) < t.start(b) : a < b; });
      ASSERT_EQ(got, want);
      const std::vector<EventRef> first = findEvents(t, m, want.size() / 3);
      EXPECT_EQ(first,
                std::vector<EventRef>(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(want.size() / 3)));
    }
  }
}

}  // namespace
}  // namespace opscope
