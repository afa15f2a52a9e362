#include "io/plaidml_eventlog_loader.h"

#include <map>
#include <optional>
#include <unordered_map>

#include "io/protobuf_wire.h"
#include "model/trace_builder.h"

namespace opscope {

namespace {

using pb::Reader;
using pb::WireType;

struct Metadata {
  std::string type;  // full message name (after the last '/')
  std::string_view value;
};

struct Activity {
  std::string parent, instance, verb, clock, domain;
  std::optional<int64_t> start, end;
  std::vector<Metadata> metadata;
};

bool duration(std::string_view bytes, int64_t& ns) {
  Reader r(bytes);
  int64_t seconds = 0, nanos = 0;
  uint32_t field;
  WireType type;
  while (!r.done()) {
    if (!r.tag(field, type)) return false;
    uint64_t v = 0;
    if ((field == 1 || field == 2) && type == pb::Varint) {
      if (!r.varint(v)) return false;
      (field == 1 ? seconds : nanos) = static_cast<int64_t>(v);
    } else if (!r.skip(type)) {
      return false;
    }
  }
  // A time that does not fit in int64 ns is unreadable, never wrapped.
  return !__builtin_mul_overflow(seconds, int64_t{1'000'000'000}, &ns) &&
         !__builtin_add_overflow(ns, static_cast<int64_t>(static_cast<int32_t>(nanos)), &ns);
}

bool event(std::string_view bytes, Activity& a) {
  Reader r(bytes);
  uint32_t field;
  WireType type;
  while (!r.done()) {
    if (!r.tag(field, type)) return false;
    if (type != pb::Bytes) {
      if (!r.skip(type)) return false;
      continue;
    }
    std::string_view v;
    if (!r.bytes(v)) return false;
    switch (field) {
      case 1: a.parent = v; break;
      case 2: a.instance = v; break;
      case 3: a.verb = v; break;
      case 4: a.clock = v; break;
      case 5:
      case 6: {
        int64_t ns = 0;
        if (!duration(v, ns)) return false;
        (field == 5 ? a.start : a.end) = ns;
        break;
      }
      case 7: {
        Reader any(v);
        Metadata m;
        uint32_t f;
        WireType t;
        while (!any.done()) {
          if (!any.tag(f, t)) return false;
          std::string_view s;
          if (t == pb::Bytes && (f == 1 || f == 2)) {
            if (!any.bytes(s)) return false;
            if (f == 1) m.type = std::string(s.substr(s.rfind('/') == std::string_view::npos ? 0 : s.rfind('/') + 1));
            else m.value = s;
          } else if (!any.skip(t)) {
            return false;
          }
        }
        a.metadata.push_back(std::move(m));
        break;
      }
      case 8: a.domain = v; break;
      default: break;
    }
  }
  return true;
}

// The string (or bytes) fields of a message, by field number.
std::map<uint32_t, std::string_view> stringFields(std::string_view bytes) {
  std::map<uint32_t, std::string_view> out;
  Reader r(bytes);
  uint32_t field;
  WireType type;
  while (!r.done() && r.tag(field, type)) {
    std::string_view v;
    if (type == pb::Bytes) {
      if (!r.bytes(v)) break;
      out.emplace(field, v);
    } else if (!r.skip(type)) {
      break;
    }
  }
  return out;
}

std::string hex(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

constexpr std::string_view kExecuting = "tile::hal::opencl::Executing";
constexpr std::string_view kKernelInfo = "vertexai.tile.hal.opencl.proto.KernelInfo";
constexpr std::string_view kRunInfo = "vertexai.tile.hal.opencl.proto.RunInfo";
constexpr std::string_view kDeviceInfo = "vertexai.tile.hal.opencl.proto.DeviceInfo";
constexpr std::string_view kBuildInfo = "vertexai.tile.hal.opencl.proto.BuildInfo";
constexpr std::string_view kCompilationInfo = "vertexai.tile.hal.proto.CompilationInfo";

}  // namespace

bool looksLikePlaidmlEventlog(std::string_view head) {
  Reader r(head);
  uint64_t length = 0;
  if (!r.varint(length) || length == 0 || length > (64u << 20)) return false;
  const std::string_view record = head.substr(r.pos(), std::min<size_t>(length, head.size() - r.pos()));
  Reader rec(record);
  uint32_t field;
  WireType type;
  if (!rec.tag(field, type) || type != pb::Bytes || (field != 1 && field != 2)) return false;
  std::string_view v;
  if (!rec.bytes(v)) return length > record.size();  // a first record longer than the head: plausible
  if (field == 1) {  // Magic
    Reader m(v);
    uint64_t value = 0;
    uint32_t f;
    WireType t;
    return m.tag(f, t) && f == 1 && t == pb::Varint && m.varint(value) && value == kEventlogMagic;
  }
  Activity a;
  return event(v, a) && !a.verb.empty();
}

LoadResult loadPlaidmlEventlog(std::string_view bytes) {
  LoadResult result;
  auto trace = std::make_unique<Trace>();
  Trace& t = *trace;
  t.meta.format = "plaidml-eventlog";
  t.jsonBytes = bytes.size();
  Diagnostics& diag = t.diagnostics;
  auto where = [](size_t at) { return "record at byte " + std::to_string(at) + ": "; };

  // 1. Records -> activities, merged by instance.
  std::vector<Activity> activities;
  std::unordered_map<std::string, size_t> byInstance;
  for (size_t pos = 0; pos < bytes.size();) {
    const size_t at = pos;
    Reader head(bytes.substr(pos));
    uint64_t length = 0;
    if (!head.varint(length) || length > bytes.size() - pos - head.pos()) {
      diag.warn(WarningKind::Truncated, at, 0,
                where(at) + "length " + std::to_string(length) + " runs past the end (" +
                    std::to_string(bytes.size() - at) + " bytes left)");
      break;
    }
    const std::string_view record = bytes.substr(pos + head.pos(), static_cast<size_t>(length));
    pos += head.pos() + static_cast<size_t>(length);
    Reader rec(record);
    uint32_t field;
    WireType type;
    while (!rec.done()) {
      std::string_view v;
      if (!rec.tag(field, type) || (type == pb::Bytes ? !rec.bytes(v) : !rec.skip(type))) {
        diag.warn(WarningKind::NotAnEvent, at, 0, where(at) + "undecodable field");
        break;
      }
      if (field == 1 && type == pb::Bytes) {
        Reader m(v);
        uint32_t f;
        WireType ty;
        uint64_t value = 0;
        if (m.tag(f, ty) && f == 1 && ty == pb::Varint && m.varint(value) && value != kEventlogMagic)
          diag.warn(WarningKind::BadMetadata, at, 0, where(at) + "magic is not 'EvtL'");
        continue;
      }
      if (field != 2 || type != pb::Bytes) continue;
      ++t.eventsRead;
      Activity a;
      if (!event(v, a)) {
        diag.warn(WarningKind::NotAnEvent, at, 0, where(at) + "undecodable event");
        continue;
      }
      if (a.instance.empty()) {
        diag.warn(WarningKind::MissingField, at, 0, where(at) + "event without instance_uuid");
        continue;
      }
      const auto [it, fresh] = byInstance.emplace(a.instance, activities.size());
      if (fresh) {
        activities.push_back(std::move(a));
        continue;
      }
      Activity& b = activities[it->second];  // the completion of a split activity
      if (b.parent.empty()) b.parent = a.parent;
      if (b.verb.empty()) b.verb = a.verb;
      if (b.domain.empty()) b.domain = a.domain;
      if (!b.start) b.start = a.start;
      if (a.end) b.end = a.end;
      for (Metadata& m : a.metadata) b.metadata.push_back(m);
    }
  }
  if (activities.empty()) {
    result.status = LoadStatus::InvalidInput;
    result.error = "PlaidML event log: no readable event" +
                   (diag.total() ? " (" + diag.oneLine() + ")" : std::string(" in ") + std::to_string(bytes.size()) + " bytes");
    return result;
  }

  // 2. Metadata by activity: kernel names and sources, programs, devices.
  struct KernelMeta {
    std::string name, source, program;
  };
  std::unordered_map<std::string, KernelMeta> kernelOf;  // activity instance -> its kernel info
  std::unordered_map<std::string, std::string> runKernel;  // Executing instance -> kernel activity
  std::unordered_map<std::string, std::string> deviceName;  // activity -> device name
  std::map<std::string, uint64_t> unknownTypes;
  for (const Activity& a : activities)
    for (const Metadata& m : a.metadata) {
      const auto f = stringFields(m.value);
      auto str = [&](uint32_t n) { return f.count(n) ? std::string(f.at(n)) : std::string(); };
      if (m.type == kKernelInfo) {
        kernelOf[a.instance].name = str(1);
        kernelOf[a.instance].source = str(2);
      } else if (m.type == kCompilationInfo) {
        if (f.count(1)) {
          const auto program = stringFields(f.at(1));
          if (program.count(3)) kernelOf[a.instance].program = std::string(program.at(3));
        }
      } else if (m.type == kRunInfo) {
        runKernel[a.instance] = str(1);
      } else if (m.type == kDeviceInfo) {
        deviceName[a.instance] = str(68);
      } else if (m.type == kBuildInfo) {
        // OpenCL build sources and logs: kept on the activity as args below.
      } else {
        ++unknownTypes[m.type.empty() ? "(no type_url)" : m.type];
      }
    }
  for (const auto& [type, count] : unknownTypes) diag.add(WarningKind::BadMetadata, count, "unknown metadata type " + type);

  // 3. Into the model: one process per domain, host activities on a track per root verb,
  // kernels on a device stream of their domain.
  TraceBuilder b(t);
  std::unordered_map<std::string, int64_t> pidOf;
  std::unordered_map<std::string, int64_t> rootTrack;
  auto pid = [&](const std::string& domain) {
    const auto [it, fresh] = pidOf.emplace(domain, static_cast<int64_t>(pidOf.size()) + 1);
    if (fresh) {
      const uint32_t p = b.process(RawId{false, it->second, 0});
      std::string name = "PlaidML";
      if (auto d = byInstance.find(domain); d != byInstance.end() && !activities[d->second].verb.empty())
        name += " · " + activities[d->second].verb;
      t.processes[p].name = t.strings.intern(name);
    }
    return it->second;
  };
  auto rootVerb = [&](const Activity& a) {
    const Activity* cur = &a;
    for (int depth = 0; depth < 256; ++depth) {  // bounded: parent chains may loop in broken logs
      const auto p = byInstance.find(cur->parent);
      if (cur->parent.empty() || p == byInstance.end() || &activities[p->second] == cur) break;
      cur = &activities[p->second];
    }
    return cur->verb.empty() ? std::string("(no verb)") : cur->verb;
  };
  const StringId opCat = t.strings.intern("cpu_op"), kernelCat = t.strings.intern("kernel");
  const StringId sourceKey = t.strings.intern("kernel source"), programKey = t.strings.intern("program");
  const StringId uuidKey = t.strings.intern("instance_uuid"), deviceKey = t.strings.intern("device");
  std::unordered_map<std::string, bool> isDomain;
  for (const Activity& a : activities)
    if (!a.domain.empty()) isDomain[a.domain] = true;
  uint64_t timeless = 0;
  for (const Activity& a : activities) {
    if (!a.start || !a.end) {
      ++timeless;
      continue;
    }
    // A domain's own activity (the process) belongs to itself.
    const int64_t p = pid(a.domain.empty() && isDomain.count(a.instance) ? a.instance : a.domain);
    SliceInput in;
    in.start = *a.start;
    in.dur = std::max<int64_t>(0, *a.end - *a.start);
    ArgsWriter args;
    args.addString(uuidKey, t.strings.intern(hex(a.instance)));
    if (a.verb == kExecuting) {
      const auto run = runKernel.find(a.instance);
      const KernelMeta* k = nullptr;
      if (run != runKernel.end())
        if (auto it = kernelOf.find(run->second); it != kernelOf.end()) k = &it->second;
      in.name = t.strings.intern(k && !k->name.empty() ? k->name : std::string("(kernel without KernelInfo)"));
      in.cat = kernelCat;
      in.device = 0;
      in.stream = 0;
      if (k && !k->source.empty()) args.addString(sourceKey, t.strings.intern(k->source));
      if (k && !k->program.empty()) args.addString(programKey, t.strings.intern(k->program));
      b.addSlice(b.threadTrack(RawId{false, p, 0}, RawId{false, 0, 0}), in, args);
      continue;
    }
    in.name = t.strings.intern(a.verb.empty() ? std::string("(no verb)") : a.verb);
    in.cat = opCat;
    if (auto d = deviceName.find(a.instance); d != deviceName.end() && !d->second.empty())
      args.addString(deviceKey, t.strings.intern(d->second));
    const std::string root = rootVerb(a);
    const auto [rt, fresh] = rootTrack.emplace(root, static_cast<int64_t>(rootTrack.size()) + 1);
    const uint32_t track = b.threadTrack(RawId{false, p, 0}, RawId{false, rt->second, 0});
    if (fresh) t.tracks[track].name = t.strings.intern(root);
    b.addSlice(track, in, args);
  }
  if (timeless) diag.add(WarningKind::MissingField, timeless, "activities without a start or end time are not shown");
  b.finish();
  result.trace = std::move(trace);
  return result;
}

}  // namespace opscope
