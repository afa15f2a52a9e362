// PlaidML event logs, written here with the project's own protobuf wire writer in the
// layout of resources/plaidml/eventlog.proto, loaded into the model.
#include "io/plaidml_eventlog_loader.h"

#include <gtest/gtest.h>

#include "analysis/summary.h"
#include "io/protobuf_wire.h"
#include "io/trace_loader.h"
#include "test_support.h"

namespace opscope {
namespace {

std::string durationMsg(int64_t ns) {
  std::string d;
  pb::putVarintField(d, 1, static_cast<uint64_t>(ns / 1'000'000'000));
  pb::putVarintField(d, 2, static_cast<uint64_t>(ns % 1'000'000'000));
  return d;
}

std::string anyMsg(const std::string& type, const std::string& value) {
  std::string a;
  pb::putBytes(a, 1, "type.vertex.ai/" + type);
  pb::putBytes(a, 2, value);
  return a;
}

struct EventSpec {
  std::string parent, instance, verb, domain;
  std::optional<int64_t> start, end;
  std::vector<std::string> metadata;  // Any messages
};

std::string eventMsg(const EventSpec& e) {
  std::string out;
  if (!e.parent.empty()) pb::putBytes(out, 1, e.parent);
  pb::putBytes(out, 2, e.instance);
  if (!e.verb.empty()) pb::putBytes(out, 3, e.verb);
  pb::putBytes(out, 4, "clock-0");
  if (e.start) pb::putBytes(out, 5, durationMsg(*e.start));
  if (e.end) pb::putBytes(out, 6, durationMsg(*e.end));
  for (const std::string& m : e.metadata) pb::putBytes(out, 7, m);
  if (!e.domain.empty()) pb::putBytes(out, 8, e.domain);
  return out;
}

// One length-prefixed Record.
std::string record(const std::vector<EventSpec>& events, bool magic) {
  std::string r;
  if (magic) {
    std::string m;
    pb::putVarintField(m, 1, kEventlogMagic);
    pb::putBytes(r, 1, m);
  }
  for (const EventSpec& e : events) pb::putBytes(r, 2, eventMsg(e));
  std::string out;
  pb::putVarint(out, r.size());
  return out + r;
}

std::string fixture() {
  std::string kernelInfo, program, compilation, runInfo;
  pb::putBytes(kernelInfo, 1, "conv_kernel");
  pb::putBytes(kernelInfo, 2, "__kernel void conv_kernel(__global float* out) { }");
  pb::putBytes(program, 3, "function (I[N, C]) -> (O) { O = I; }");
  pb::putBytes(compilation, 1, program);
  pb::putBytes(runInfo, 1, "k1");
  std::string log;
  log += record({{"", "dom", "plaidml::Process", "", 0, 10'000'000, {}},
                 {"", "k1", "tile::hal::opencl::BuildKernel", "dom", 500'000, 900'000,
                  {anyMsg("vertexai.tile.hal.opencl.proto.KernelInfo", kernelInfo),
                   anyMsg("vertexai.tile.hal.proto.CompilationInfo", compilation)}},
                 {"", "inv", "plaidml::invoker::ScheduleInvocation", "dom", 1'000'000, 5'000'000,
                  {anyMsg("vertexai.unknown.Thing", "x")}}},
                true);
  // A split activity: its start, then its completion in a later record.
  log += record({{"inv", "e1", "tile::hal::opencl::Executing", "dom", 2'000'000, std::nullopt,
                  {anyMsg("vertexai.tile.hal.opencl.proto.RunInfo", runInfo)}},
                 {"inv", "lonely", "tile::hal::opencl::Enqueue", "dom", 1'500'000, std::nullopt, {}}},
                false);
  log += record({{"", "e1", "", "", std::nullopt, 3'000'000, {}}}, false);
  // A cut record: announces 1000 bytes, holds 3.
  pb::putVarint(log, 1000);
  log += "abc";
  return log;
}

TEST(PlaidmlEventlog, WireFormatRoundTrip) {
  std::string out;
  pb::putVarintField(out, 3, 300);
  pb::putBytes(out, 12, "hello");
  pb::Reader r(out);
  uint32_t field;
  pb::WireType type;
  uint64_t v = 0;
  std::string_view s;
  ASSERT_TRUE(r.tag(field, type));
  EXPECT_EQ(field, 3u);
  ASSERT_TRUE(r.varint(v));
  EXPECT_EQ(v, 300u);
  ASSERT_TRUE(r.tag(field, type));
  EXPECT_EQ(field, 12u);
  ASSERT_TRUE(r.bytes(s));
  EXPECT_EQ(s, "hello");
  EXPECT_TRUE(r.done());
  pb::Reader bad(std::string_view("\x12\x09short", 7));  // length 9, 5 bytes left
  ASSERT_TRUE(bad.tag(field, type));
  EXPECT_FALSE(bad.bytes(s));
}

TEST(PlaidmlEventlog, IntoTheModel) {
  LoadResult r = loadTraceBytes(test::gzip(fixture()));  // detected by content, gunzipped
  ASSERT_EQ(r.status, LoadStatus::Ok) << r.error;
  const Trace& t = *r.trace;
  EXPECT_EQ(t.meta.format, "plaidml-eventlog");
  const EventRef kernel = test::only(t, "conv_kernel");
  EXPECT_EQ(t.start(kernel), 2'000'000);
  EXPECT_EQ(t.dur(kernel), 1'000'000);  // merged from the split events
  EXPECT_EQ(t.tracks[kernel.track].kind, TrackKind::GpuStream);
  std::map<std::string, std::string> args;
  for (const NamedArg& a : t.args(kernel)) args[a.key] = a.text;
  EXPECT_NE(args["kernel source"].find("__kernel void conv_kernel"), std::string::npos);
  EXPECT_NE(args["program"].find("function (I[N, C])"), std::string::npos);
  const EventRef invocation = test::only(t, "plaidml::invoker::ScheduleInvocation");
  EXPECT_EQ(t.dur(invocation), 4'000'000);
  EXPECT_EQ(t.kind(invocation), SliceKind::CpuOp);
  EXPECT_NE(t.str(t.processes[t.tracks[invocation.track].process].name).find("plaidml::Process"), std::string::npos);
  EXPECT_EQ(t.diagnostics.count(WarningKind::Truncated), 1u);
  EXPECT_EQ(t.diagnostics.count(WarningKind::BadMetadata), 1u);   // the unknown Any type
  EXPECT_EQ(t.diagnostics.count(WarningKind::MissingField), 1u);  // the activity that never ended
  EXPECT_EQ(summarize(t).kernels, 1u);
}

TEST(PlaidmlEventlog, NothingReadableIsOneLine) {
  std::string cut;
  pb::putVarint(cut, 40);
  std::string ev;
  pb::putBytes(ev, 2, "x");
  cut += "\x12";
  cut += static_cast<char>(ev.size());
  LoadResult r = loadTraceBytes(cut);
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_NE(r.error.find("PlaidML event log: no readable event"), std::string::npos) << r.error;
  EXPECT_EQ(r.error.find('\n'), std::string::npos);
  // Not protobuf at all: the JSON path answers, naming the formats it tried.
  r = loadTraceBytes("hello, world");
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_NE(r.error.find("PlaidML event log"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace opscope
