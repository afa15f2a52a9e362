#include "io/xplane_loader.h"

#include <cstdlib>
#include <string>
#include <unordered_map>

#include "model/trace_builder.h"
#include "xplane.pb.h"

namespace opscope {

namespace {

using xplane::XEvent;
using xplane::XLine;
using xplane::XPlane;
using xplane::XStat;

// XSpace is one message: it is parsed whole (libprotobuf's own ceiling is 2 GiB).
constexpr uint64_t kMaxXSpaceBytes = uint64_t{2} << 30;

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// "/device:GPU:3" -> 3; -1 for anything else.
int64_t gpuIndex(std::string_view plane) {
  for (std::string_view prefix : {"/device:GPU:", "/device:ROCM:", "/device:CUDA:"})
    if (startsWith(plane, prefix)) {
      const std::string digits(plane.substr(prefix.size()));
      char* end = nullptr;
      const long long n = std::strtoll(digits.c_str(), &end, 10);
      return end && *end == '\0' && !digits.empty() && n >= 0 ? n : -1;
    }
  return -1;
}

}  // namespace

bool looksLikeXPlane(std::string_view head) {
  if (head.size() < 4 || static_cast<unsigned char>(head[0]) != 0x0a) return false;
  const std::string_view start = head.substr(0, 96);
  return start.find("/host:") != std::string_view::npos || start.find("/device:") != std::string_view::npos;
}

LoadResult loadXPlane(ByteSource& src) {
  LoadResult r;
  std::string bytes;
  char buf[1 << 16];
  for (size_t n; (n = src.read(buf, sizeof buf)) > 0;) {
    bytes.append(buf, n);
    if (bytes.size() > kMaxXSpaceBytes) {
      r.status = LoadStatus::InvalidInput;
      r.error = "XPlane profile: larger than 2 GiB, protobuf's limit for one message";
      return r;
    }
  }
  if (!src.error().empty()) {
    r.status = LoadStatus::IoError;
    r.error = src.error();
    return r;
  }
  xplane::XSpace space;
  if (!space.ParseFromString(bytes)) {
    r.status = LoadStatus::InvalidInput;
    r.error = "XPlane profile: not a valid XSpace message (cut short or not protobuf), " +
              std::to_string(bytes.size()) + " bytes";
    return r;
  }
  std::string().swap(bytes);
  r.trace = std::make_unique<Trace>();
  Trace& t = *r.trace;
  t.meta.format = "xplane";
  TraceBuilder b(t);
  const StringId kernelCat = t.strings.intern("kernel"), copyCat = t.strings.intern("gpu_memcpy"),
                 setCat = t.strings.intern("gpu_memset"), opCat = t.strings.intern("cpu_op"),
                 runtimeCat = t.strings.intern("cuda_runtime"), annotationCat = t.strings.intern("user_annotation"),
                 pythonCat = t.strings.intern("python_function");
  const StringId correlationKey = t.strings.intern("correlation"), deviceKey = t.strings.intern("device"),
                 streamKey = t.strings.intern("stream");
  const StringId correlationStat = t.strings.intern("correlation_id");
  uint64_t events = 0;
  for (const XPlane& plane : space.planes()) {
    if (plane.name() == "/host:metadata") continue;
    const int64_t gpu = gpuIndex(plane.name());
    const bool isHost = startsWith(plane.name(), "/host:");
    if (gpu < 0 && !isHost) continue;  // TPU and other planes: not read yet
    const auto statName = [&](int64_t id) -> std::string {
      const auto it = plane.stat_metadata().find(id);
      return it == plane.stat_metadata().end() ? "stat " + std::to_string(id) : it->second.name();
    };
    // Each stat metadata's name interned once per plane, not once per event and stat.
    std::unordered_map<int64_t, StringId> statIds;
    const auto statId = [&](int64_t id) {
      const auto [it, fresh] = statIds.try_emplace(id, 0);
      if (fresh) it->second = t.strings.intern(statName(id));
      return it->second;
    };
    if (gpu >= 0) {
      DeviceProperties d;
      d.id = gpu;
      d.name = "GPU " + std::to_string(gpu);
      for (const XStat& s : plane.stats()) {
        const std::string key = statName(s.metadata_id());
        const int64_t v = s.value_case() == XStat::kInt64Value    ? s.int64_value()
                          : s.value_case() == XStat::kUint64Value ? static_cast<int64_t>(s.uint64_value())
                                                                  : -1;
        if (key == "core_count" && v > 0) d.numSms = v;
        if (key == "memory_size" && v > 0) d.totalGlobalMem = static_cast<double>(v);
        if (key == "compute_cap_major" && v >= 0) d.computeMajor = v;
        if (key == "compute_cap_minor" && v >= 0) d.computeMinor = v;
        if (key == "device_vendor" && s.value_case() == XStat::kStrValue)
          d.name = s.str_value() + " GPU " + std::to_string(gpu);
      }
      t.meta.devices.push_back(d);
    }
    const RawId process = gpu >= 0 ? RawId{false, gpu, 0} : RawId{true, 0, t.strings.intern(plane.name())};
    for (const XLine& line : plane.lines()) {
      const std::string& lineName = line.display_name().empty() ? line.name() : line.display_name();
      const bool stream = gpu >= 0 && startsWith(line.name(), "Stream #");
      const StringId lineCat = stream                 ? (line.name().find("Memcpy") != std::string::npos   ? copyCat
                                                         : line.name().find("Memset") != std::string::npos ? setCat
                                                                                                           : kernelCat)
                               : gpu >= 0             ? annotationCat
                               : lineName == "python" ? pythonCat
                                                      : opCat;
      const uint32_t track = b.threadTrack(process, RawId{false, line.id(), 0});
      if (t.tracks[track].name == 0) t.tracks[track].name = t.strings.intern(lineName);
      for (const XEvent& e : line.events()) {
        ++events;
        SliceInput in;
        const auto meta = plane.event_metadata().find(e.metadata_id());
        const std::string name = meta == plane.event_metadata().end()  ? "event " + std::to_string(e.metadata_id())
                                 : meta->second.display_name().empty() ? meta->second.name()
                                                                       : meta->second.display_name();
        in.name = t.strings.intern(name);
        // ps to ns, rounded to the nearest: the offsets are ps of the line's ns start.
        // Saturating: a corrupt offset or duration near int64's ends must not overflow
        // (the fuzzer's 9223372036854775744 + 500); the builder clamps what results.
        in.start = satAdd(line.timestamp_ns(), satAdd(e.offset_ps(), 500) / 1000);
        in.dur = std::max<int64_t>(0, satAdd(e.duration_ps(), 500) / 1000);
        in.cat = lineCat;
        if (!stream && gpu < 0 && (startsWith(name, "cu") || startsWith(name, "hip"))) in.cat = runtimeCat;
        ArgsWriter args;
        for (const XStat& s : e.stats()) {
          const StringId k = statId(s.metadata_id());
          switch (s.value_case()) {
            case XStat::kInt64Value:
              args.addInt(k, s.int64_value());
              if (k == correlationStat) in.correlation = s.int64_value();
              break;
            case XStat::kUint64Value:
              args.addInt(k, static_cast<int64_t>(s.uint64_value()));
              if (k == correlationStat) in.correlation = static_cast<int64_t>(s.uint64_value());
              break;
            case XStat::kDoubleValue:
              args.addDouble(k, s.double_value());
              break;
            case XStat::kStrValue:
              args.addString(k, t.strings.intern(s.str_value()));
              break;
            case XStat::kRefValue:
              args.addString(k, statId(static_cast<int64_t>(s.ref_value())));
              break;
            default:
              break;  // bytes: not shown
          }
        }
        // A host event with a correlation id launched device work (hipModuleLaunchKernel,
        // cuLaunchKernel, XLA's own launch events): a runtime call, linked to it.
        if (in.correlation != kNoId && gpu < 0) in.cat = runtimeCat;
        if (in.correlation != kNoId) args.addInt(correlationKey, in.correlation);
        if (stream) {
          in.device = gpu;
          in.stream = line.id();
          args.addInt(deviceKey, gpu);
          args.addInt(streamKey, line.id());
        }
        b.addSlice(track, in, args);
      }
    }
    if (gpu >= 0) {
      const uint32_t p = b.process(process);
      if (t.processes[p].name == 0) t.processes[p].name = t.strings.intern("GPU " + std::to_string(gpu));
    } else {
      const uint32_t p = b.process(process);
      if (t.processes[p].name == 0) t.processes[p].name = t.strings.intern(plane.name());
    }
  }
  std::sort(t.meta.devices.begin(), t.meta.devices.end(),
            [](const DeviceProperties& a, const DeviceProperties& b) { return a.id < b.id; });
  t.eventsRead = events;
  b.finish();
  return r;
}

}  // namespace opscope
