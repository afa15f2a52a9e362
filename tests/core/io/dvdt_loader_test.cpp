// OpenCL dv/dt prof traces into the model: kernels per queue with their device times on
// the host clock, launch links, Xgemm sizes from clSetKernelArg, host calls, layers,
// and every malformed record counted, never fatal.
#include "io/dvdt_loader.h"

#include <gtest/gtest.h>

#include "analysis/summary.h"
#include "hierarchy/queries.h"
#include "io/trace_loader.h"
#include "test_support.h"

namespace opscope {
namespace {

// Host times 12:00:00.000100 onwards; the device clock reads 5000 ns at the first
// enqueue's start, so device ns d sits at host 12:00:00.0001 + (d - 5000) ns.
const char* kTrace = R"js({
 "per_layer_info": [
   {"name": "conv1", "timestamp": "2017-09-19 12:00:00.000050"},
   {"name": "fc6", "timestamp": "2017-09-19 12:00:00.000400"}],
 "dvdt_prof": [
  {"call": "clSetKernelArg", "kernel": "0x10", "arg_index": 0, "arg_size": 4, "arg_value": "0x00010000",
   "timestamp": {"start": "2017-09-19T12:00:00.000090", "end": "2017-09-19T12:00:00.000091"}},
  {"call": "clSetKernelArg", "kernel": "0x10", "arg_index": 1, "arg_size": 4, "arg_value": "0x00020000"},
  {"call": "clSetKernelArg", "kernel": "0x10", "arg_index": 2, "arg_size": 4, "arg_value": "0x40000000"},
  {"call": "clEnqueueNDRangeKernel", "name": "XgemmDirectNN", "kernel": "0x10", "queue": "0xa0",
   "gwo": [0, 0], "gws": [256, 512], "lws": [16, 16], "event_wait_list": [], "enqueue_id": 1, "errcode": 0,
   "profiling": {"queued": 5000, "submit": 6000, "start": 10000, "end": 60000},
   "timestamp": {"start": "2017-09-19T12:00:00.000100", "end": "2017-09-19T12:00:00.000104"}},
  {"call": "clEnqueueNDRangeKernel", "name": "im2col", "kernel": "0x11", "queue": "0xa0", "enqueue_id": 2,
   "profiling": {"queued": 12000, "submit": 13000, "start": 61000, "end": 71000},
   "timestamp": {"start": "2017-09-19T12:00:00.000107", "end": "2017-09-19T12:00:00.000110"}},
  {"call": "clEnqueueNDRangeKernel", "name": "copy", "kernel": "0x12", "queue": "0xb0", "enqueue_id": 3,
   "profiling": {"queued": 20000, "submit": 21000, "start": 22000, "end": 25000},
   "timestamp": {"start": "2017-09-19T12:00:00.000115", "end": "2017-09-19T12:00:00.000117"}},
  {"call": "clEnqueueNDRangeKernel", "name": "lost", "kernel": "0x13", "queue": "0xb0",
   "timestamp": {"start": "2017-09-19T12:00:00.000120", "end": "2017-09-19T12:00:00.000121"}},
  {"call": "clEnqueueReadBuffer", "queue": "0xa0",
   "timestamp": {"start": "2017-09-19T12:00:00.000130", "end": "2017-09-19T12:00:00.000190"}},
  {"call": "clFinish", "queue": "0xa0",
   "timestamp": {"start": "2017-09-19T12:00:00.000190", "end": "2017-09-19T12:00:00.000200"}},
  42
 ]})js";

TEST(DvdtProf, TimesAndHexValues) {
  int64_t ns = 0;
  ASSERT_TRUE(parseIsoTimeNs("1970-01-01T00:00:01.5", ns));
  EXPECT_EQ(ns, 1'500'000'000);
  ASSERT_TRUE(parseIsoTimeNs("2017-09-19 12:00:00.000100", ns));
  EXPECT_EQ(ns % 1'000'000'000, 100'000);
  EXPECT_EQ(ns / 1'000'000'000 % 86400, 12 * 3600);
  EXPECT_FALSE(parseIsoTimeNs("2017-09-19", ns));
  EXPECT_FALSE(parseIsoTimeNs("2017-13-19T12:00:00", ns));
  int64_t v = 0;
  ASSERT_TRUE(hexBytesLittleEndian("0x00010000", v));
  EXPECT_EQ(v, 256);
  ASSERT_TRUE(hexBytesLittleEndian("40000000", v));
  EXPECT_EQ(v, 64);
  EXPECT_FALSE(hexBytesLittleEndian("0x123", v));
  EXPECT_FALSE(hexBytesLittleEndian("0xzz", v));
}

TEST(DvdtProf, IntoTheModel) {
  LoadResult r = loadTraceBytes(kTrace);
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const Trace& t = *r.trace;
  EXPECT_EQ(t.meta.format, "opencl-dvdt-prof");
  // Kernels: three with profiling data, on two queues (streams named by the handles).
  const EventRef gemm = test::only(t, "XgemmDirectNN");
  EXPECT_EQ(t.dur(gemm), 50'000);  // profiling end - start
  EXPECT_EQ(t.tracks[gemm.track].kind, TrackKind::GpuStream);
  EXPECT_EQ(t.tracks[gemm.track].stream, 0xa0);
  EXPECT_EQ(t.tracks[test::only(t, "copy").track].stream, 0xb0);
  // Labels number the queues in order of first use; the handle stays on the track.
  EXPECT_EQ(t.trackLabel(gemm.track), "GPU 0 \xC2\xB7 queue 1");
  EXPECT_EQ(t.trackLabel(test::only(t, "copy").track), "GPU 0 \xC2\xB7 queue 2");
  EXPECT_TRUE(test::slicesNamed(t, "lost").empty());
  // Device start 10000 ns = 5000 ns after queued, queued = the enqueue call's start.
  const EventRef enqueue = *launchOf(t, gemm);
  EXPECT_EQ(t.name(enqueue), "clEnqueueNDRangeKernel");
  EXPECT_EQ(t.start(gemm) - t.start(enqueue), 5'000);
  EXPECT_EQ(t.start(test::only(t, "im2col")) - t.start(enqueue), 56'000);  // same clock offset
  // M, N, K from the three clSetKernelArg values of its kernel handle.
  std::map<std::string, int64_t> ints;
  for (const NamedArg& a : t.args(gemm))
    if (a.type == ArgType::Int) ints[a.key] = a.i;
  EXPECT_EQ(ints["M"], 256);
  EXPECT_EQ(ints["N"], 512);
  EXPECT_EQ(ints["K"], 64);
  EXPECT_EQ(ints["profiling.queued"], 5000);
  std::string layer;
  for (const NamedArg& a : t.args(gemm))
    if (a.key == "layer") layer = a.text;
  EXPECT_EQ(layer, "fc6");  // its enqueue at .000100 falls in [.000050, .000400)
  std::string queue;
  for (const NamedArg& a : t.args(gemm))
    if (a.key == "queue") queue = a.text;
  EXPECT_EQ(queue, "0xa0");  // the handle the label no longer shows
  // Host calls (with timestamps), layers, and the records that could not be used.
  EXPECT_EQ(test::slicesNamed(t, "clEnqueueNDRangeKernel").size(), 4u);
  EXPECT_EQ(test::slicesNamed(t, "clFinish").size(), 1u);
  EXPECT_EQ(test::slicesNamed(t, "conv1").size(), 0u);  // the first layer has no start
  ASSERT_EQ(test::slicesNamed(t, "fc6").size(), 1u);
  EXPECT_EQ(t.dur(test::only(t, "fc6")), 350'000);
  EXPECT_EQ(t.diagnostics.count(WarningKind::MissingField), 1u);
  EXPECT_EQ(t.diagnostics.count(WarningKind::NotAnEvent), 1u);
  EXPECT_EQ(t.links.unlinkedGpuEvents, 0u);
  const Summary s = summarize(t);
  EXPECT_EQ(s.kernels, 3u);
}

TEST(DvdtProf, BadInputIsOneLine) {
  LoadResult r = loadTraceBytes(R"([{"call": "clFinish", )");
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_NE(r.error.find("dv/dt prof trace: input ends at byte 22"), std::string::npos) << r.error;
  r = loadTraceBytes(R"([{"call": "clFinish", "x": tru}])");
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_NE(r.error.find("dv/dt prof trace: malformed JSON at byte 30"), std::string::npos) << r.error;
  r = loadTraceBytes(R"([{"call": "clEnqueueNDRangeKernel", "name": "k"}])");
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_NE(r.error.find("no call with host timestamps and no kernel with profiling data"), std::string::npos)
      << r.error;
  EXPECT_EQ(r.error.find('\n'), std::string::npos);
  // Gzipped, detected by content.
  r = loadTraceBytes(test::gzip(kTrace));
  EXPECT_EQ(r.status, LoadStatus::Ok) << r.error;
}

}  // namespace
}  // namespace opscope
