// PlaidML event logs of both schema generations. Fixtures are serialized by libprotobuf
// from resources/plaidml/*.proto (not by the loader's own code); real logs: the 2017
// excerpt in tests/data/plaidml and, when present, ../shared's 2018 MobileNet log.
#include "io/plaidml_eventlog_loader.h"

#include <gtest/gtest.h>

#include <set>

#include "analysis/summary.h"
#include "eventlog.pb.h"
#include "eventlog_2017.pb.h"
#include "hierarchy/queries.h"
#include "io/trace_loader.h"
#include "test_support.h"

namespace opscope {
namespace {

namespace pml = opscope::plaidml;

constexpr int64_t kSec = 1'000'000'000;

std::string framed(const std::string& record) {
  std::string out;
  uint64_t n = record.size();
  do {
    out += static_cast<char>((n & 0x7F) | (n > 0x7F ? 0x80 : 0));
    n >>= 7;
  } while (n);
  return out + record;
}

pml::Duration duration(int64_t ns) {
  pml::Duration d;
  d.set_seconds(ns / kSec);
  d.set_nanos(static_cast<int32_t>(ns % kSec));
  return d;
}

pml::Any any(const std::string& type, const google::protobuf::MessageLite& m) {
  pml::Any a;
  a.set_type_url("type.vertex.ai/" + type);
  a.set_value(m.SerializeAsString());
  return a;
}

// ---- The current generation: activities by index within a stream.
struct Ev {
  Ev(uint64_t i, uint64_t p, std::string v, std::optional<uint64_t> c, std::optional<int64_t> s,
     std::optional<int64_t> e, std::vector<pml::Any> m = {}, std::string st = {})
      : id(i),
        parent(p),
        verb(std::move(v)),
        clock(c),
        start(s),
        end(e),
        metadata(std::move(m)),
        stream(std::move(st)) {}
  uint64_t id;
  uint64_t parent;  // 0: root
  std::string verb;
  std::optional<uint64_t> clock;
  std::optional<int64_t> start, end;
  std::vector<pml::Any> metadata;
  std::string stream;  // written on the stream's first event only
};

pml::Event event(const Ev& e) {
  pml::Event out;
  out.mutable_activity_id()->set_index(e.id);
  if (!e.stream.empty()) out.mutable_activity_id()->set_stream_uuid(e.stream);
  if (e.parent) out.mutable_parent_id()->set_index(e.parent);
  if (!e.verb.empty()) out.set_verb(e.verb);
  if (e.clock) out.mutable_clock_id()->set_index(*e.clock);
  if (e.start) *out.mutable_start_time() = duration(*e.start);
  if (e.end) *out.mutable_end_time() = duration(*e.end);
  for (const pml::Any& m : e.metadata) *out.add_metadata() = m;
  out.mutable_domain_id();  // PlaidML writes an empty domain: the default one
  return out;
}

std::string record(const std::vector<Ev>& events, bool magic = false) {
  pml::Record r;
  if (magic) r.mutable_magic()->set_value(kEventlogMagic);
  for (const Ev& e : events) *r.add_event() = event(e);
  return framed(r.SerializeAsString());
}

pml::Any deviceInfo(const std::string& name) {
  pml::DeviceInfo d;
  d.set_name(name);
  d.set_max_compute_units(64);
  return any("vertexai.tile.hal.opencl.proto.DeviceInfo", d);
}
pml::Any buildInfo(uint64_t device) {
  pml::BuildInfo b;
  b.mutable_device_id()->set_index(device);
  b.set_log("build ok");
  return any("vertexai.tile.hal.opencl.proto.BuildInfo", b);
}
pml::Any kernelInfo(const std::string& name) {
  pml::KernelInfo k;
  k.set_kname(name);
  k.set_src("__kernel void " + name + "(__global float* out) { }");
  return any("vertexai.tile.hal.opencl.proto.KernelInfo", k);
}
pml::Any runInfo(uint64_t kernel) {
  pml::RunInfo r;
  r.mutable_kernel_id()->set_index(kernel);
  return any("vertexai.tile.hal.opencl.proto.RunInfo", r);
}
pml::Any compilation(const std::string& code) {
  pml::CompilationInfo c;
  c.mutable_program()->set_code(code);
  return any("vertexai.tile.hal.proto.CompilationInfo", c);
}

const int64_t T0 = 1'524'125'748 * kSec;  // the host clock counts from the Unix epoch

// Two devices, a kernel built for each, an invocation running both; device clocks 1 and
// 2 count from their own zero (5 s and 9 s after it when the kernels run).
std::string currentLog() {
  const std::string streamA(16, 'A'), streamB(16, 'B');
  pml::PlatformInfo platform;
  platform.set_name("AMD Accelerated Parallel Processing");
  std::string log;
  log += record({{1, 0, "vertexai::EnumerateDevices", 0, T0, T0 + 500'000'000, {}, streamA},
                 {2, 30, "tile::hal::opencl::Device", 0, T0 + 1000, T0 + 2000, {deviceInfo("gfx900")}},
                 {3, 30, "tile::hal::opencl::Device", 0, T0 + 3000, T0 + 4000, {deviceInfo("Iris Pro")}},
                 {30,
                  1,
                  "tile::hal::opencl::Platform",
                  0,
                  T0 + 500,
                  T0 + 5000,
                  {any("vertexai.tile.hal.opencl.proto.PlatformInfo", platform)}}},
                true);
  log += record(
      {{4,
        0,
        "tile::hal::opencl::Build",
        0,
        T0 + 1 * kSec,
        T0 + 1 * kSec + 100,
        {buildInfo(2), compilation("function (I[N]) -> (O) { O = I; }")}},
       {5, 4, "tile::hal::opencl::BuildKernel", 0, T0 + 1 * kSec + 10, T0 + 1 * kSec + 20, {kernelInfo("conv")}},
       {6, 0, "tile::hal::opencl::Build", 0, T0 + 1 * kSec + 200, T0 + 1 * kSec + 300, {buildInfo(3)}},
       {7, 6, "tile::hal::opencl::BuildKernel", 0, T0 + 1 * kSec + 210, T0 + 1 * kSec + 220, {kernelInfo("gemm")}}});
  const int64_t inv = T0 + 2 * kSec;
  log += record({{8, 0, "plaidml::invoker::ScheduleInvocation", 0, inv, inv + 50'000'000},
                 {9, 8, "tile::local_machine::Program::Run", 0, inv + 1'000'000, inv + 40'000'000},
                 {10, 9, "tile::hal::opencl::Kernel::Run", 0, inv + 2'000'000, inv + 3'000'000, {runInfo(5)}},
                 {11, 10, "tile::hal::opencl::HostQueue", 1, 5 * kSec, 5 * kSec + 1'000'000},
                 {12, 10, "tile::hal::opencl::DevQueue", 1, 5 * kSec + 1'000'000, 5 * kSec + 2'000'000},
                 // Split: started here, ended in the next record.
                 {13, 10, "tile::hal::opencl::Executing", 1, 5 * kSec + 2'000'000, std::nullopt},
                 {14, 9, "tile::hal::opencl::Kernel::Run", 0, inv + 10'000'000, inv + 11'000'000, {runInfo(7)}},
                 {15, 14, "tile::hal::opencl::Executing", 2, 9 * kSec, 9 * kSec + 500'000}});
  log += record({{13, 0, "", std::nullopt, std::nullopt, 5 * kSec + 4'000'000},
                 // Two overlapping children of the invocation: the second goes to a lane.
                 {16, 8, "vertexai::DiscardCurrent", 0, inv + 41'000'000, inv + 45'000'000},
                 {17, 8, "vertexai::WriteBackMap", 0, inv + 42'000'000, inv + 46'000'000},
                 // A buffer never freed: an activity that never ends.
                 {18, 0, "vertexai::AllocBuffer", 0, inv + 5'000'000, std::nullopt},
                 {19,
                  0,
                  "vertexai::Unknown",
                  0,
                  inv + 47'000'000,
                  inv + 48'000'000,
                  {any("vertexai.future.proto.Thing", platform)}}});
  // A second stream: its UUID on its first event only; index 1 there is not stream A's 1.
  log += record({{1, 0, "stream B op", 0, inv + 60'000'000, inv + 61'000'000, {}, streamB},
                 {2, 1, "stream B child", 0, inv + 60'100'000, inv + 60'200'000}});
  // A record cut short: announces 1000 bytes, holds 3.
  log += std::string("\xE8\x07", 2) + "abc";  // varint 1000
  return log;
}

const Trace& loaded(LoadResult& r) {
  EXPECT_EQ(r.status, LoadStatus::Ok) << r.error;
  return *r.trace;
}

TEST(PlaidmlEventlog, CurrentGenerationIntoTheModel) {
  const std::string bytes = currentLog();
  EXPECT_TRUE(looksLikePlaidmlEventlog(bytes));
  LoadResult r = loadTraceBytes(test::gzip(bytes));  // detected by content, gunzipped
  const Trace& t = loaded(r);
  EXPECT_EQ(t.meta.format, "plaidml-eventlog");

  // Kernels named through Kernel::Run's RunInfo, on their device's stream.
  const EventRef conv = test::only(t, "conv"), gemm = test::only(t, "gemm");
  EXPECT_EQ(t.tracks[conv.track].kind, TrackKind::GpuStream);
  EXPECT_NE(t.tracks[conv.track].process, t.tracks[gemm.track].process);
  EXPECT_NE(t.str(t.processes[t.tracks[conv.track].process].name).find("gfx900"), std::string::npos);
  EXPECT_NE(t.str(t.processes[t.tracks[gemm.track].process].name).find("Iris Pro"), std::string::npos);
  std::map<std::string, std::string> args;
  for (const NamedArg& a : t.args(conv)) args[a.key] = a.text;
  EXPECT_NE(args["kernel source"].find("__kernel void conv"), std::string::npos);
  EXPECT_NE(args["program"].find("function (I[N])"), std::string::npos);

  // Clocks: device clock 1 shifted by the least amount that puts its activities at or
  // after their parent (HostQueue starts with Kernel::Run); the split kernel merged.
  const int64_t inv = T0 + 2 * kSec;
  EXPECT_EQ(t.start(conv), inv + 2'000'000 + 2'000'000);
  EXPECT_EQ(t.dur(conv), 2'000'000);
  EXPECT_EQ(t.start(gemm), inv + 10'000'000);  // clock 2: aligned to its own parent
  EXPECT_EQ(t.minTs, T0);
  EXPECT_EQ(t.maxTs, inv + 61'000'000);

  // Launch links and nesting by parent id.
  const auto launch = launchOf(t, conv);
  ASSERT_TRUE(launch);
  EXPECT_EQ(t.name(*launch), "tile::hal::opencl::Kernel::Run");
  EXPECT_EQ(t.start(*launch), inv + 2'000'000);
  std::vector<std::string> chain;
  for (EventRef a : ancestors(t, *launch)) chain.emplace_back(t.name(a));
  EXPECT_EQ(chain,
            (std::vector<std::string>{"plaidml::invoker::ScheduleInvocation", "tile::local_machine::Program::Run"}));
  EXPECT_EQ(t.diagnostics.count(WarningKind::Crossover), 0u);
  const EventRef discard = test::only(t, "vertexai::DiscardCurrent"),
                 writeBack = test::only(t, "vertexai::WriteBackMap");
  EXPECT_NE(discard.track, writeBack.track);  // overlapping siblings: not nested in each other

  // Queue spans are spans of the device's queue, not host ops.
  const EventRef queued = test::only(t, "tile::hal::opencl::HostQueue");
  EXPECT_NE(t.kind(queued), SliceKind::CpuOp);
  EXPECT_EQ(t.tracks[queued.track].process, t.tracks[conv.track].process);

  // Streams: stream B's activity 1 is its own, with its child nested under it.
  const EventRef b = test::only(t, "stream B op"), bChild = test::only(t, "stream B child");
  EXPECT_EQ(t.dur(b), 1'000'000);
  ASSERT_FALSE(ancestors(t, bChild).empty());
  EXPECT_EQ(ancestors(t, bChild).front(), b);
  for (EventRef d : test::slicesNamed(t, "tile::hal::opencl::Device"))
    EXPECT_EQ(d.track, test::only(t, "vertexai::EnumerateDevices").track);

  // Warnings: the cut record, the unknown metadata type (PlatformInfo is known), the
  // buffer that never ends (it lasts to the end of its clock).
  EXPECT_EQ(t.diagnostics.count(WarningKind::Truncated), 1u);
  EXPECT_EQ(t.diagnostics.count(WarningKind::BadMetadata), 1u);
  EXPECT_EQ(t.diagnostics.count(WarningKind::Unfinished), 1u);
  // Stream A's default clock ends with the invocation (stream B's clock is another).
  const EventRef buffer = test::only(t, "vertexai::AllocBuffer");
  EXPECT_EQ(t.start(buffer) + t.dur(buffer), inv + 50'000'000);
  const Summary s = summarize(t);
  EXPECT_EQ(s.kernels, 2u);
  EXPECT_EQ(s.linkedGpuEvents, 2u);
}

// ---- The 2017 generation: UUIDs everywhere.
std::string uuid(int n) {
  std::string u(16, '\0');
  u[15] = static_cast<char>(n);
  u[0] = 'u';
  return u;
}

pml::v2017::Event oldEvent(int id, int parent, const std::string& verb, int clock, std::optional<int64_t> start,
                           std::optional<int64_t> end, std::vector<pml::Any> metadata = {}) {
  pml::v2017::Event e;
  e.set_instance_uuid(uuid(id));
  e.set_parent_instance_uuid(parent ? uuid(parent) : std::string(16, '\0'));
  if (!verb.empty()) e.set_verb(verb);
  e.set_clock_uuid(std::string(16, static_cast<char>('a' + clock)));
  if (start) *e.mutable_start_time() = duration(*start);
  if (end) *e.mutable_end_time() = duration(*end);
  for (const pml::Any& m : metadata) *e.add_metadata() = m;
  e.set_domain_uuid(uuid(99));
  return e;
}

TEST(PlaidmlEventlog, The2017GenerationByUuid) {
  pml::v2017::RunInfo run;
  run.set_kernel_uuid(uuid(3));
  pml::v2017::BuildInfo build;
  build.set_device_uuid(uuid(1));
  pml::v2017::Record rec;
  *rec.add_event() = oldEvent(99, 0, "plaidml::Process", 0, T0, T0 + 3 * kSec);
  *rec.add_event() = oldEvent(1, 0, "tile::hal::opencl::Device", 0, T0 + 10, T0 + 20, {deviceInfo("Ellesmere")});
  *rec.add_event() = oldEvent(2, 0, "tile::hal::opencl::Build", 0, T0 + 100, T0 + 200,
                              {any("vertexai.tile.hal.opencl.proto.BuildInfo", build)});
  *rec.add_event() = oldEvent(3, 2, "tile::hal::opencl::BuildKernel", 0, T0 + 110, T0 + 120, {kernelInfo("mlp")});
  *rec.add_event() = oldEvent(4, 0, "tile::hal::opencl::Kernel::Run", 0, T0 + kSec, T0 + kSec + 1000);
  // The notebook's layout: RunInfo on the Executing activity itself.
  *rec.add_event() = oldEvent(5, 4, "tile::hal::opencl::Executing", 1, 7 * kSec, 7 * kSec + 5000,
                              {any("vertexai.tile.hal.opencl.proto.RunInfo", run)});
  const std::string bytes = framed(rec.SerializeAsString());
  EXPECT_TRUE(looksLikePlaidmlEventlog(bytes));
  LoadResult r = loadPlaidmlEventlog(bytes);
  const Trace& t = loaded(r);
  const EventRef k = test::only(t, "mlp");
  EXPECT_EQ(t.start(k), T0 + kSec);  // device clock aligned to its parent's start
  EXPECT_NE(t.str(t.processes[t.tracks[k.track].process].name).find("Ellesmere"), std::string::npos);
  EXPECT_EQ(t.tracks[k.track].kind, TrackKind::GpuStream);
  bool schemaNoted = false;
  for (const auto& [key, value] : t.meta.other)
    schemaNoted |= key == "plaidml_schema" && value.find("2017") != std::string::npos;
  EXPECT_TRUE(schemaNoted) << (t.meta.other.empty() ? "" : t.meta.other[0].second);
}

TEST(PlaidmlEventlog, NothingReadableIsOneLine) {
  LoadResult r = loadPlaidmlEventlog(std::string("\x28\x12\x01x", 4));
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_NE(r.error.find("PlaidML event log: no readable activity"), std::string::npos) << r.error;
  EXPECT_EQ(r.error.find('\n'), std::string::npos);
  // A record announcing more than the ceiling is refused before any allocation.
  r = loadPlaidmlEventlog(std::string("\xff\xff\xff\xff\x0f", 5));
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_NE(r.error.find("past the 64 MiB ceiling"), std::string::npos) << r.error;
  // Not protobuf at all: the JSON path answers, naming the formats it tried.
  r = loadTraceBytes("hello, world");
  EXPECT_EQ(r.status, LoadStatus::InvalidInput);
  EXPECT_NE(r.error.find("PlaidML event log"), std::string::npos) << r.error;
  // A Chrome trace whose first bytes happen to form a length and a field-1 tag.
  EXPECT_FALSE(looksLikePlaidmlEventlog("{\n  \"traceEvents\": []}"));
}

TEST(PlaidmlEventlog, TimesBeyondInt64AreWarnedNeverWrapped) {
  std::string log = record({{1, 0, "ok", 0, T0, T0 + 10}}, true);
  pml::Record rec;
  pml::Event* e = rec.add_event();
  e->mutable_activity_id()->set_index(2);
  e->set_verb("far");
  e->mutable_start_time()->set_seconds(INT64_MAX / 2);
  e->mutable_end_time()->set_seconds(INT64_MAX);
  log += framed(rec.SerializeAsString());
  LoadResult r = loadPlaidmlEventlog(log);
  const Trace& t = loaded(r);
  EXPECT_GE(t.diagnostics.count(WarningKind::WrongType), 1u);
  EXPECT_LE(t.maxTs, kMaxTimeNs);
  EXPECT_GE(summarize(t).wall, 0);
}

TEST(PlaidmlEventlog, InvalidUtf8InTextFieldsKeepsTheRecord) {
  // Bytes a proto3 string field would refuse (the whole record with it).
  const std::string odd = std::string("Kernel\xff\xfe", 8);
  const std::string log = record({{1, 0, odd, 0, T0, T0 + 10}, {2, 0, "after", 0, T0 + 20, T0 + 30}}, true);
  LoadResult r = loadPlaidmlEventlog(log);
  const Trace& t = loaded(r);
  std::set<std::string> names;
  for (const Track& tr : t.tracks)
    for (size_t i = 0; i < tr.slices.size(); ++i) names.insert(std::string(t.str(tr.slices.name[i])));
  EXPECT_TRUE(names.count(odd)) << "the record holding invalid UTF-8 was dropped";
  EXPECT_TRUE(names.count("after"));
}

// ---- Real logs.

void expectEveryKernelNamed(const Trace& t, size_t kernels) {
  size_t named = 0, withSource = 0;
  for (const Track& tr : t.tracks)
    for (size_t i = 0; i < tr.slices.size(); ++i) {
      if (tr.slices.kind[i] != SliceKind::Kernel) continue;
      const std::string_view name = t.str(tr.slices.name[i]);
      named += name.rfind("(kernel", 0) != 0;
      for (const NamedArg& a : t.args(EventRef{static_cast<uint32_t>(&tr - t.tracks.data()), static_cast<uint32_t>(i)}))
        withSource += a.key == "kernel source" && a.text.find("__kernel") != std::string::npos;
    }
  EXPECT_EQ(named, kernels);
  EXPECT_EQ(withSource, kernels);
}

TEST(PlaidmlEventlog, RealLogOf2017MnistExcerpt) {
  LoadResult r = loadTraceFile(OPSCOPE_SOURCE_DIR "/tests/data/plaidml/mnist_mlp_2017_excerpt.log.gz");
  const Trace& t = loaded(r);
  const Summary s = summarize(t);
  EXPECT_EQ(s.kernels, 465u);  // tests/data/plaidml/README.md: counted from the raw records
  expectEveryKernelNamed(t, 465);
  EXPECT_EQ(s.linkedGpuEvents, 465u);
  // Within 1 % of the host clock's own span (3.516383109 s, README).
  EXPECT_NEAR(static_cast<double>(t.maxTs - t.minTs), 3.516383109e9, 3.516383109e7);
  EXPECT_EQ(t.minTs, 1505427980945366216);
  EXPECT_EQ(t.diagnostics.count(WarningKind::Crossover), 0u);
  EXPECT_EQ(t.diagnostics.count(WarningKind::BadMetadata), 0u);
  // Run on PlaidML's OpenCL CPU driver (DeviceInfo's HardwareType 1): a CPU device, not a GPU.
  EXPECT_EQ(t.meta.deviceKind, "CPU device");
  for (const Track& tr : t.tracks) {
    if (tr.kind != TrackKind::GpuStream) continue;
    EXPECT_EQ(t.trackLabel(static_cast<uint32_t>(&tr - t.tracks.data())), "CPU device 0 \xC2\xB7 stream 0");
  }
}

TEST(PlaidmlEventlog, RealLogOf2018MobileNet) {
  const auto path = test::sharedTrace("plaidml_mobilenet_eventlog.gz");
  if (!path) GTEST_SKIP() << "../shared/traces not present";
  LoadResult r = loadTraceFile(*path);
  const Trace& t = loaded(r);
  const Summary s = summarize(t);
  EXPECT_EQ(s.kernels, 341u);
  expectEveryKernelNamed(t, 341);
  EXPECT_EQ(s.linkedGpuEvents, 341u);
  // The host clock spans 7.517654 s (1524125748.900530 s to 1524125756.418184 s), as
  // PlaidML's own analysis aligns it; within 1 %.
  EXPECT_NEAR(static_cast<double>(t.maxTs - t.minTs), 7.517654e9, 7.517654e7);
  EXPECT_EQ(t.diagnostics.count(WarningKind::Crossover), 0u);
  EXPECT_EQ(t.diagnostics.count(WarningKind::BadMetadata), 0u);  // PlatformInfo, Schedule are known
  EXPECT_FALSE(test::slicesNamed(t, "vertexai::EnumerateDevices").empty());
  // Kernels on one stream of the device that built them (DeviceInfo names it).
  std::set<uint32_t> tracks;
  for (const Track& tr : t.tracks)
    if (tr.kind == TrackKind::GpuStream) tracks.insert(static_cast<uint32_t>(&tr - t.tracks.data()));
  ASSERT_EQ(tracks.size(), 1u);
  EXPECT_NE(t.str(t.processes[t.tracks[*tracks.begin()].process].name).find("gfx900"), std::string::npos);
  EXPECT_EQ(t.meta.deviceKind, "GPU");  // gfx900's HardwareType is 2
}

}  // namespace
}  // namespace opscope
