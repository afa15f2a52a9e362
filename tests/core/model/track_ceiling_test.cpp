// The ceiling on tracks (kMaxTracks, model/trace_builder.h): a file of more threads than
// real traces have (each costs ~1.4 KB before it holds anything: 10^6 one-event threads
// took 1.37 GB) keeps every event, puts the threads past the ceiling on one merged
// track, says so, and grows by the events only.
#include <gtest/gtest.h>

#include <string>

#include "model/trace_builder.h"
#include "test_support.h"

namespace opscope {
namespace {

std::string threads(size_t n) {
  std::string json = "[";
  for (size_t i = 0; i < n; ++i) {
    if (i) json += ',';
    json +=
        R"({"ph":"X","name":"a","pid":1,"tid":)" + std::to_string(i) + R"(,"ts":)" + std::to_string(i) + R"(,"dur":1})";
  }
  return json + "]";
}

TEST(TrackCeiling, ThreadsPastItShareOneTrackAndNothingIsLost) {
  const size_t small = kMaxTracks + 10'000, large = kMaxTracks + 40'000;
  auto a = test::loadOk(threads(small));
  auto b = test::loadOk(threads(large));
  ASSERT_TRUE(a && b);
  EXPECT_EQ(b->tracks.size(), kMaxTracks + 1);
  EXPECT_EQ(b->sliceCount(), large);
  EXPECT_EQ(b->diagnostics.count(WarningKind::TracksMerged), large - kMaxTracks);
  bool merged = false;
  for (const Track& t : b->tracks)
    merged |=
        t.name && b->str(t.name).find("merged") != std::string_view::npos && t.slices.size() == large - kMaxTracks;
  EXPECT_TRUE(merged);
  // 30,000 more threads past the ceiling add no track (the memory this saves is
  // measured, not asserted: Trace::memoryBytes counts columns, not a track's own cost).
  EXPECT_EQ(a->tracks.size(), b->tracks.size());
  // Below the ceiling every thread keeps its own track.
  auto c = test::loadOk(threads(1000));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->tracks.size(), 1000u);
  EXPECT_EQ(c->diagnostics.count(WarningKind::TracksMerged), 0u);
}

}  // namespace
}  // namespace opscope
