#include "io/plaidml_eventlog_loader.h"

#include <google/protobuf/io/coded_stream.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <unordered_map>

#include "eventlog.pb.h"
#include "eventlog_2017.pb.h"
#include "io/plaidml_activities.h"
#include "model/trace_builder.h"

namespace opscope {

namespace {

using plaidml::Activity;
using plaidml::ActivityLog;

constexpr std::string_view kKernelInfo = "vertexai.tile.hal.opencl.proto.KernelInfo";
constexpr std::string_view kDeviceInfo = "vertexai.tile.hal.opencl.proto.DeviceInfo";
constexpr std::string_view kPlatformInfo = "vertexai.tile.hal.opencl.proto.PlatformInfo";
constexpr std::string_view kCompilationInfo = "vertexai.tile.hal.proto.CompilationInfo";
// Types read elsewhere (RunInfo, BuildInfo: by the decoder) or known and passed over.
const std::set<std::string_view> kKnownTypes = {
    "vertexai.tile.hal.opencl.proto.RunInfo",
    "vertexai.tile.hal.opencl.proto.BuildInfo",
    kKernelInfo,
    kDeviceInfo,
    kPlatformInfo,
    kCompilationInfo,
    "vertexai.tile.local_machine.proto.Schedule",
    "vertexai.tile.proto.Schedule",
};

// Domains (host processes) are pids 1, 2, ...; devices 1000, 1001, ...
constexpr int64_t kDevicePidBase = 1000;

bool isExecuting(std::string_view verb) {
  return verb == "tile::hal::opencl::Executing" || verb == "tile::hal::cpu::Executing";
}
bool isQueueSpan(std::string_view verb) {
  return verb == "tile::hal::opencl::HostQueue" || verb == "tile::hal::opencl::DevQueue";
}

// Walks an activity and its parents (bounded: a broken log may hold a cycle).
template <class F>
void forPath(const ActivityLog& log, int32_t from, F&& f) {
  for (int depth = 0; from >= 0 && depth < 512; ++depth) {
    if (f(log.activities[static_cast<size_t>(from)])) return;
    from = log.activities[static_cast<size_t>(from)].parent;
  }
}

// The first metadatum of a type on the activity or its parents, as PlaidML's
// enclosing_metadata() finds it; nullptr when none.
const plaidml::Metadata* enclosing(const ActivityLog& log, int32_t from, std::string_view type) {
  const plaidml::Metadata* found = nullptr;
  forPath(log, from, [&](const Activity& a) {
    for (const plaidml::Metadata& m : a.metadata)
      if (m.type == type) {
        found = &m;
        return true;
      }
    return false;
  });
  return found;
}

// The index of the first activity on the path (from included) satisfying pred, or -1.
template <class P>
int32_t firstOnPath(const ActivityLog& log, int32_t from, P&& pred) {
  int32_t found = -1;
  for (int depth = 0; from >= 0 && depth < 512; ++depth) {
    if (pred(log.activities[static_cast<size_t>(from)])) {
      found = from;
      break;
    }
    from = log.activities[static_cast<size_t>(from)].parent;
  }
  return found;
}

struct KernelFacts {
  std::string name, source, program;
  int32_t device = -1;  // the device activity
  int32_t launch = -1;  // the activity holding the RunInfo (Kernel::Run)
};

KernelFacts kernelOf(const ActivityLog& log, int32_t executing) {
  KernelFacts k;
  k.launch = firstOnPath(log, executing, [](const Activity& a) { return a.runKernel >= 0; });
  if (k.launch < 0) return k;
  const int32_t kernel = log.activities[static_cast<size_t>(k.launch)].runKernel;
  if (const plaidml::Metadata* m = enclosing(log, kernel, kKernelInfo)) {
    plaidml::KernelInfo info;
    if (info.ParseFromString(m->value)) {
      k.name = info.kname();
      k.source = info.src();
    }
  }
  if (const plaidml::Metadata* m = enclosing(log, kernel, kCompilationInfo)) {
    plaidml::CompilationInfo info;
    if (info.ParseFromString(m->value)) k.program = info.program().code();
  }
  const int32_t build = firstOnPath(log, kernel, [](const Activity& a) { return a.buildDevice >= 0; });
  if (build >= 0) k.device = log.activities[static_cast<size_t>(build)].buildDevice;
  return k;
}

}  // namespace

bool looksLikePlaidmlEventlog(std::string_view head) {
  // The first record: a varint length, then a Record's first field, which is the magic
  // (field 1) or an event (field 2), both length-delimited.
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(head.data()),
                                            static_cast<int>(head.size()));
  uint32_t length = 0;
  if (!in.ReadVarint32(&length) || length == 0 || length > (64u << 20)) return false;
  const uint32_t tag = in.ReadTag();
  if (tag != ((1u << 3) | 2) && tag != ((2u << 3) | 2)) return false;
  uint32_t size = 0;
  if (!in.ReadVarint32(&size) || size >= length) return false;
  std::string payload;
  const size_t payloadAt = static_cast<size_t>(in.CurrentPosition());
  if (!in.ReadString(&payload, static_cast<int>(size))) {
    // A first field longer than the head: only an event can be (the magic is a few
    // bytes), and it must start with one of an Event's length-delimited fields 1 to 8.
    if (tag != ((2u << 3) | 2)) return false;
    if (payloadAt >= head.size()) return true;
    const auto first = static_cast<unsigned char>(head[payloadAt]);
    return (first & 7) == 2 && (first >> 3) >= 1 && (first >> 3) <= 8;
  }
  if (tag == ((1u << 3) | 2)) {
    plaidml::Magic magic;
    return magic.ParseFromString(payload) && magic.value() == kEventlogMagic;
  }
  // The 2017 messages hold identifiers as bytes, so they parse events of either
  // generation; the verb is field 3 in both.
  plaidml::v2017::Event event;
  return event.ParseFromString(payload) && !event.verb().empty();
}

LoadResult loadPlaidmlEventlog(std::string_view bytes) {
  auto src = ByteSource::fromMemory(std::string(bytes));
  return loadPlaidmlEventlog(*src);
}

LoadResult loadPlaidmlEventlog(ByteSource& src) {
  LoadResult result;
  auto trace = std::make_unique<Trace>();
  Trace& t = *trace;
  t.meta.format = "plaidml-eventlog";
  Diagnostics& diag = t.diagnostics;
  ActivityLog log;
  std::string error;
  if (!plaidml::readActivityLog(src, log, diag, error)) {
    result.status = src.error().empty() ? LoadStatus::InvalidInput : LoadStatus::IoError;
    result.error = "PlaidML event log: " + error;
    return result;
  }
  t.eventsRead = log.events;
  t.jsonBytes = log.bytes;
  t.meta.other.emplace_back(
      "plaidml_schema", log.generation == plaidml::Generation::V2017 ? "\"2017 (UUIDs)\"" : "\"2018 (ActivityID)\"");

  // Unknown metadata types, counted by type.
  std::map<std::string, uint64_t> unknown;
  for (const Activity& a : log.activities)
    for (const plaidml::Metadata& m : a.metadata)
      if (!kKnownTypes.count(m.type)) ++unknown[m.type.empty() ? "(no type_url)" : m.type];
  for (const auto& [type, count] : unknown) diag.add(WarningKind::BadMetadata, count, "unknown metadata type " + type);

  TraceBuilder b(t);
  const StringId opCat = t.strings.intern("cpu_op"), launchCat = t.strings.intern("Runtime");
  const StringId kernelCat = t.strings.intern("kernel"), queueCat = t.strings.intern("OpenCL queue");
  const StringId sourceKey = t.strings.intern("kernel source"), programKey = t.strings.intern("program");
  const StringId idKey = t.strings.intern("activity"), deviceKey = t.strings.intern("device");
  const StringId platformKey = t.strings.intern("platform"), buildLogKey = t.strings.intern("build log");
  const StringId clockKey = t.strings.intern("clock");
  const size_t n = log.activities.size();

  // Devices, in order of appearance; kernels of no known device share one.
  std::map<int32_t, int64_t> deviceNumber;
  std::vector<std::string> deviceLabel;
  // HardwareType of each device seen: a run whose devices are all CPUs (PlaidML's OpenCL
  // CPU driver) calls them CPU devices, not GPUs.
  size_t cpuDevices = 0, typedDevices = 0;
  auto device = [&](int32_t activity) {
    const auto [it, fresh] = deviceNumber.emplace(activity, static_cast<int64_t>(deviceNumber.size()));
    if (fresh) {
      std::string name;
      if (activity >= 0)
        for (const plaidml::Metadata& m : log.activities[static_cast<size_t>(activity)].metadata)
          if (m.type == kDeviceInfo) {
            plaidml::DeviceInfo info;
            if (info.ParseFromString(m.value)) {
              name = info.name();
              if (info.type() != 0) ++typedDevices;
              if (info.type() == 1) ++cpuDevices;
            }
          }
      deviceLabel.push_back(name);
      const uint32_t p = b.process(RawId{false, kDevicePidBase + it->second, 0});
      t.processes[p].name =
          t.strings.intern("PlaidML device " + std::to_string(it->second) + (name.empty() ? "" : " · " + name));
    }
    return it->second;
  };

  // PlaidML writes "// Duplicate" as the source of a kernel it compiled before under the
  // same name: such kernels show the source of the first one.
  std::unordered_map<std::string, std::string> sourceByName;
  for (const Activity& a : log.activities)
    for (const plaidml::Metadata& m : a.metadata)
      if (m.type == kKernelInfo) {
        plaidml::KernelInfo info;
        if (info.ParseFromString(m.value) && !info.src().empty() && info.src().rfind("// Duplicate", 0) != 0)
          sourceByName.emplace(info.kname(), info.src());
      }

  // Kernels and queue spans first: their launches (Kernel::Run) get correlation ids.
  std::vector<int64_t> correlationOf(n, kNoId);
  std::vector<bool> placed(n, false);
  uint64_t unnamed = 0, untimed = 0;
  int64_t nextCorrelation = 1;
  for (size_t i = 0; i < n; ++i) {
    const Activity& a = log.activities[i];
    if (!isExecuting(a.verb) && !isQueueSpan(a.verb)) continue;
    placed[i] = true;
    if (!a.start) {
      ++untimed;
      continue;
    }
    KernelFacts k = kernelOf(log, static_cast<int32_t>(i));
    const int64_t dev = device(k.device);
    SliceInput in;
    in.start = a.alignedStart;
    in.dur = std::max<int64_t>(0, satSub(a.alignedEnd, a.alignedStart));
    in.device = dev;
    in.stream = 0;
    ArgsWriter args;
    args.addString(idKey, t.strings.intern(a.id));
    args.addString(clockKey, t.strings.intern(log.clocks[a.clock].id));
    if (!deviceLabel[static_cast<size_t>(dev)].empty())
      args.addString(deviceKey, t.strings.intern(deviceLabel[static_cast<size_t>(dev)]));
    if (isQueueSpan(a.verb)) {
      // queued -> submitted (HostQueue), submitted -> started (DevQueue): waiting, not
      // work, and many kernels wait at once: an async track with lanes of its own.
      in.name = t.strings.intern(a.verb);
      in.cat = queueCat;
      const uint32_t p = b.process(RawId{false, kDevicePidBase + dev, 0});
      b.asyncBegin(p, queueCat, queueCat, in, args);
      b.asyncEnd(p, queueCat, queueCat, in.name, in.start + in.dur);
      continue;
    }
    if (k.name.empty()) ++unnamed;
    if (k.source.rfind("// Duplicate", 0) == 0)
      if (const auto it = sourceByName.find(k.name); it != sourceByName.end()) k.source = it->second;
    in.name = t.strings.intern(k.name.empty() ? std::string("(kernel without KernelInfo)") : k.name);
    in.cat = kernelCat;
    if (k.launch >= 0) {
      in.correlation = nextCorrelation++;
      correlationOf[static_cast<size_t>(k.launch)] = in.correlation;
    }
    if (!k.source.empty()) args.addString(sourceKey, t.strings.intern(k.source));
    if (!k.program.empty()) args.addString(programKey, t.strings.intern(k.program));
    const uint32_t track = b.threadTrack(RawId{false, kDevicePidBase + dev, 0}, RawId{false, 0, 0});
    t.tracks[track].name = t.strings.intern("kernels");
    b.addSlice(track, in, args);
  }
  if (unnamed) diag.add(WarningKind::MissingField, unnamed, "kernels whose RunInfo leads to no KernelInfo");

  // Host activities, nested by parent id: on the parent's track when the parent
  // contains it and its previous child has ended, else on the first free lane of its
  // domain's process. Sorted by start (longest first on ties), parents come first.
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < n; ++i) {
    if (placed[i]) continue;
    if (!log.activities[i].start) {
      ++untimed;
      continue;
    }
    order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
    const Activity &a = log.activities[x], &c = log.activities[y];
    if (a.alignedStart != c.alignedStart) return a.alignedStart < c.alignedStart;
    return a.alignedEnd > c.alignedEnd;
  });
  std::vector<int64_t> trackOf(n, -1);
  std::vector<int64_t> lastChildEnd(n, INT64_MIN);
  struct Lanes {
    std::vector<int64_t> end;  // per lane: where its last root ended
    std::vector<uint32_t> track;
  };
  std::map<int32_t, Lanes> lanesOf;  // by domain activity (-1: the default domain)
  constexpr size_t kMaxLanes = 8;
  uint64_t overlapping = 0;
  std::map<int32_t, int64_t> pidOf;
  auto domainPid = [&](int32_t domain) {
    const auto [it, fresh] = pidOf.emplace(domain, static_cast<int64_t>(pidOf.size()) + 1);
    if (fresh) {
      std::string name = "PlaidML";
      if (domain >= 0 && !log.activities[static_cast<size_t>(domain)].verb.empty())
        name += " · " + log.activities[static_cast<size_t>(domain)].verb;
      t.processes[b.process(RawId{false, it->second, 0})].name = t.strings.intern(name);
    }
    return it->second;
  };
  std::vector<bool> isDomain(n, false);
  for (const Activity& a : log.activities)
    if (a.domain >= 0) isDomain[static_cast<size_t>(a.domain)] = true;
  for (uint32_t i : order) {
    const Activity& a = log.activities[i];
    // A domain's own activity (the process) belongs to its own domain.
    const int32_t domain = isDomain[i] ? static_cast<int32_t>(i) : a.domain;
    const int64_t pid = domainPid(domain);
    int64_t track = -1;
    if (a.parent >= 0) {
      const size_t p = static_cast<size_t>(a.parent);
      const Activity& parent = log.activities[p];
      if (trackOf[p] >= 0 && parent.alignedStart <= a.alignedStart && a.alignedEnd <= parent.alignedEnd &&
          lastChildEnd[p] <= a.alignedStart &&
          t.tracks[static_cast<size_t>(trackOf[p])].process == b.process(RawId{false, pid, 0})) {
        track = trackOf[p];
        lastChildEnd[p] = a.alignedEnd;
      }
    }
    if (track < 0) {
      Lanes& lanes = lanesOf[domain];
      size_t lane = 0;
      while (lane < lanes.end.size() && lanes.end[lane] > a.alignedStart) ++lane;
      if (lane == kMaxLanes || a.endInferred) {
        // Spans that never ended (buffers never freed) and too many at once: spans of
        // their verb on an async track with lanes of its own, not a thread per overlap.
        const StringId verb = t.strings.intern(a.verb.empty() ? std::string("(no verb)") : a.verb);
        SliceInput span;
        span.start = a.alignedStart;
        span.dur = std::max<int64_t>(0, satSub(a.alignedEnd, a.alignedStart));
        span.name = verb;
        span.cat = verb;
        span.correlation = correlationOf[i];
        const uint32_t p = b.process(RawId{false, pid, 0});
        ArgsWriter args;
        args.addString(idKey, t.strings.intern(a.id));
        b.asyncBegin(p, verb, verb, span, args);
        b.asyncEnd(p, verb, verb, verb, span.start + span.dur);
        ++overlapping;
        continue;
      }
      if (lane == lanes.end.size()) {
        lanes.end.push_back(INT64_MIN);
        const uint32_t tr = b.threadTrack(RawId{false, pid, 0}, RawId{false, static_cast<int64_t>(lane) + 1, 0});
        t.tracks[tr].name = t.strings.intern(lane == 0 ? std::string("activities")
                                                       : "activities (lane " + std::to_string(lane + 1) + ")");
        lanes.track.push_back(tr);
      }
      lanes.end[lane] = a.alignedEnd;
      track = lanes.track[lane];
    }
    trackOf[i] = track;
    SliceInput in;
    in.start = a.alignedStart;
    in.dur = std::max<int64_t>(0, satSub(a.alignedEnd, a.alignedStart));
    in.name = t.strings.intern(a.verb.empty() ? std::string("(no verb)") : a.verb);
    in.cat = correlationOf[i] != kNoId ? launchCat : opCat;
    in.correlation = correlationOf[i];
    if (a.endInferred) in.flags |= kFlagUnterminated;
    ArgsWriter args;
    args.addString(idKey, t.strings.intern(a.id));
    args.addString(clockKey, t.strings.intern(log.clocks[a.clock].id));
    for (const plaidml::Metadata& m : a.metadata) {
      if (m.type == kDeviceInfo) {
        plaidml::DeviceInfo info;
        if (info.ParseFromString(m.value) && !info.name().empty())
          args.addString(deviceKey, t.strings.intern(info.name()));
      } else if (m.type == kPlatformInfo) {
        plaidml::PlatformInfo info;
        if (info.ParseFromString(m.value) && !info.name().empty())
          args.addString(platformKey, t.strings.intern(info.name()));
      } else if (m.type == kKernelInfo) {
        plaidml::KernelInfo info;
        if (info.ParseFromString(m.value)) {
          if (!info.kname().empty()) args.addString(t.strings.intern("kernel"), t.strings.intern(info.kname()));
          if (!info.src().empty()) args.addString(sourceKey, t.strings.intern(info.src()));
        }
      } else if (m.type == "vertexai.tile.hal.opencl.proto.BuildInfo") {
        plaidml::BuildInfo info;
        if (info.ParseFromString(m.value) && !info.log().empty())
          args.addString(buildLogKey, t.strings.intern(info.log()));
      } else if (m.type == kCompilationInfo) {
        plaidml::CompilationInfo info;
        if (info.ParseFromString(m.value) && !info.program().code().empty())
          args.addString(programKey, t.strings.intern(info.program().code()));
      }
    }
    b.addSlice(static_cast<uint32_t>(track), in, args);
  }
  if (untimed) diag.add(WarningKind::MissingField, untimed, "activities without a start time are not shown");
  b.finish();
  if (typedDevices > 0 && cpuDevices == typedDevices) t.meta.deviceKind = "CPU device";
  result.trace = std::move(trace);
  return result;
}

}  // namespace opscope
