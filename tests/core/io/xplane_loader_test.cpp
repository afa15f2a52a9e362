// JAX's XSpace profiles: the real one in ../shared/traces (a JAX convolution on MI300X
// GPUs, from AMD-AGI/TraceLens' tests; skipped when absent), with per-stream counts and
// busy time taken from protoc's own decoding of the file (`protoc --decode` with
// resources/xplane/xplane.proto, summed by a short Python reading of its text), and the
// fuzz seed (tests/fuzz/corpus/trace_file/xplane.pb, written by protoc --encode from a
// text message) for the link between a launch and its kernel.
#include "io/xplane_loader.h"

#include <gtest/gtest.h>

#include <map>

#include "analysis/summary.h"
#include "io/trace_loader.h"
#include "test_support.h"

namespace opscope {
namespace {

TEST(XPlane, RealJaxProfileStreamsAsProtocDecodesThem) {
  const auto path = test::sharedTrace("jax_conv_minimal_legacy.xplane.pb");
  if (!path) GTEST_SKIP() << "../shared/traces/jax_conv_minimal_legacy.xplane.pb not present";
  LoadResult r = loadTraceFile(*path);
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const Trace& t = *r.trace;
  EXPECT_EQ(t.meta.format, "xplane");
  EXPECT_EQ(t.eventsRead, 6024u);
  const Summary s = summarize(t);
  const std::map<std::pair<int64_t, int64_t>, std::pair<uint64_t, TimeNs>> streams = {{{0, 7}, {10, 164042}},
                                                                                      {{0, 8}, {15, 244520}},
                                                                                      {{0, 9}, {14, 231860}},
                                                                                      {{0, 10}, {14, 248606}},
                                                                                      {{7, 1}, {25, 3586493}}};
  ASSERT_EQ(s.streams.size(), streams.size());
  for (const auto& st : s.streams) {
    const auto it = streams.find({st.pid.num, st.tid.num});
    ASSERT_NE(it, streams.end()) << st.label;
    EXPECT_EQ(st.events, it->second.first) << st.label;
    EXPECT_NEAR(static_cast<double>(st.busy), static_cast<double>(it->second.second), 30.0) << st.label;  // ps rounded
  }
  EXPECT_EQ(s.kernels, 25u);
  EXPECT_EQ(s.memcpys, 53u);
  EXPECT_EQ(s.linkedGpuEvents, 78u);  // every device event to the host call that launched it
  size_t onDevice = 0, onHost = 0;    // the fusion's kernels, and the host's XLA op events of that name
  for (EventRef e : test::slicesNamed(t, "input_transpose_fusion"))
    (t.tracks[e.track].kind == TrackKind::GpuStream ? onDevice : onHost) += 1;
  EXPECT_EQ(onDevice, 5u);
  EXPECT_EQ(onHost, 5u);
  ASSERT_EQ(t.meta.devices.size(), 8u);
  EXPECT_EQ(t.meta.devices[0].numSms.value_or(0) > 0, true);
}

TEST(XPlane, LaunchLinksToItsKernelAndTimesAreLineStartPlusOffset) {
  const LoadResult r = loadTraceFile(OPSCOPE_SOURCE_DIR "/tests/fuzz/corpus/trace_file/xplane.pb");
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const Trace& t = *r.trace;
  const EventRef k = test::only(t, "fusion_1");
  EXPECT_EQ(t.start(k), 1000 + 2000);  // line start 1000 ns + 2,000,000 ps
  EXPECT_EQ(t.dur(k), 5000);
  const Summary s = summarize(t);
  EXPECT_EQ(s.launches, 1u);
  EXPECT_EQ(s.linkedGpuEvents, 1u);
  EXPECT_EQ(t.kind(test::only(t, "jit_step")), SliceKind::PythonFunction);
}

TEST(XPlane, ACutProfileIsAOneLineError) {
  std::string bytes = test::readFile(OPSCOPE_SOURCE_DIR "/tests/fuzz/corpus/trace_file/xplane.pb");
  bytes.resize(bytes.size() - 7);
  const LoadResult r = loadTraceBytes(bytes);
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_EQ(r.error.rfind("XPlane profile: ", 0), 0u) << r.error;
  EXPECT_EQ(r.error.find('\n'), std::string::npos);
}

// TraceLens' JAX 0.8 profile in tests/data/xplane (README there): per-stream kernel counts
// and summed durations from `protoc --decode` of the file with resources/xplane/xplane.proto,
// summed by a short Python reading of protoc's text; every kernel linked to its launch.
TEST(XPlane, TestDataProfileStreamsAsProtocDecodesThem) {
  LoadResult r = loadTraceFile(OPSCOPE_SOURCE_DIR "/tests/data/xplane/jax08_conv_mi300_tw003.xplane.pb");
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const Summary s = summarize(*r.trace);
  const std::map<std::pair<int64_t, int64_t>, std::pair<uint64_t, TimeNs>> streams = {
      {{0, 15}, {9, 145320}},   {{0, 16}, {34, 3578725}}, {{0, 17}, {9, 146240}},   {{0, 18}, {8, 129880}},
      {{1, 19}, {25, 3345845}}, {{2, 22}, {25, 3524285}}, {{3, 25}, {25, 3403364}}, {{4, 28}, {25, 3493365}},
      {{5, 31}, {25, 3464884}}, {{6, 34}, {25, 3403004}}, {{7, 37}, {25, 3502165}}};
  ASSERT_EQ(s.streams.size(), streams.size());
  for (const auto& st : s.streams) {
    const auto it = streams.find({st.pid.num, st.tid.num});
    ASSERT_NE(it, streams.end()) << st.label;
    EXPECT_EQ(st.events, it->second.first) << st.label;
    EXPECT_NEAR(static_cast<double>(st.busy), static_cast<double>(it->second.second), 40.0) << st.label;
  }
  EXPECT_EQ(s.kernels, 235u);
  EXPECT_EQ(s.linkedGpuEvents, 235u);
  EXPECT_EQ(r.trace->eventsRead, 3650u);
}

}  // namespace
}  // namespace opscope
