#include "io/dvdt_loader.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <optional>

#include "hierarchy/finalize.h"
#include "io/json_units.h"
#include "model/trace_builder.h"
#include "text/json_text.h"

namespace opscope {

namespace {

// An OpenCL handle as the API prints it (0x55a1b2c3d000).
std::string hexHandle(int64_t h) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(h));
  return buf;
}

using Json = nlohmann::json;

int64_t daysFromCivil(int64_t y, unsigned m, unsigned d) {  // H. Hinnant's algorithm
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

std::optional<int64_t> integer(const Json& j, const char* key) {
  if (!j.contains(key)) return std::nullopt;
  const Json& v = j[key];
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_number_unsigned()) return static_cast<int64_t>(v.get<uint64_t>());
  if (v.is_number_float()) {
    // Only doubles that hold an int64 convert (a cast of 1e300 is undefined).
    const double d = v.get<double>();
    if (!(d >= -9.2e18 && d <= 9.2e18)) return std::nullopt;
    return static_cast<int64_t>(d);
  }
  if (v.is_string()) {  // handles are written as "0x..." strings
    const std::string s = v.get<std::string>();
    try {
      size_t used = 0;
      const long long x = std::stoll(s, &used, 0);
      if (used == s.size()) return x;
    } catch (...) {
    }
  }
  return std::nullopt;
}

// Records held between the read and the two passes over them (per_layer_info may come
// after them), as MessagePack one after another: a JSON DOM a record took ~2.5 KB
// (200,000 records, 515 MB), packed they take the ~150 bytes of their fields.
class PackedRecords {
 public:
  void add(const Json& j) {
    Json::to_msgpack(j, scratch_);
    bytes_ += scratch_;
    scratch_.clear();
    ends_.push_back(bytes_.size());
  }
  size_t size() const { return ends_.size(); }
  // Record i as read (packed from a parsed value: it unpacks).
  Json at(size_t i) const {
    const size_t from = i == 0 ? 0 : ends_[i - 1];
    return Json::from_msgpack(bytes_.begin() + static_cast<std::ptrdiff_t>(from),
                              bytes_.begin() + static_cast<std::ptrdiff_t>(ends_[i]), true, false);
  }
  void clear() {
    bytes_.clear();
    ends_.clear();
  }

 private:
  std::string bytes_, scratch_;
  std::vector<size_t> ends_;
};

// What the loader uses of a dv/dt prof document, read record by record.
struct DvdtDocument {
  PackedRecords records;  // the call records
  bool sawRecords = false;
  PackedRecords layers;  // per_layer_info (top level first, else the run's)
  bool sawLayers = false;
};

void readList(JsonUnitReader& r, PackedRecords& out) {
  r.beginArray();
  while (r.nextElement()) {
    const std::string_view raw = r.value();
    out.add(parseJsonUnit<Json>(raw, r.lastOffset(), r));
  }
}

// A top-level list of records, or an object holding "dvdt_prof" and "per_layer_info",
// directly or under "run" (a CK experiment point). Everything else is skipped unread.
void readObject(JsonUnitReader& r, DvdtDocument& doc, int level) {
  r.beginObject();
  std::string key;
  PackedRecords layers;
  bool sawLayers = false;
  while (r.nextKey(key)) {
    if (key == "dvdt_prof" && r.peek() == '[' && !doc.sawRecords) {
      readList(r, doc.records);
      doc.sawRecords = true;
    } else if (key == "per_layer_info" && r.peek() == '[' && !sawLayers) {
      readList(r, layers);
      sawLayers = true;
    } else if (key == "run" && level == 0 && r.peek() == '{') {
      readObject(r, doc, level + 1);
    } else {
      r.skip();
    }
  }
  // The top level's per_layer_info wins over the run's.
  if (sawLayers && (level == 0 || !doc.sawLayers)) {
    doc.layers = std::move(layers);
    doc.sawLayers = true;
  }
}

}  // namespace

bool parseIsoTimeNs(std::string_view s, int64_t& ns) {
  // YYYY-MM-DD[T ]HH:MM:SS[.fraction]
  if (s.size() < 19 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != ' ') || s[13] != ':' || s[16] != ':')
    return false;
  auto num = [&](size_t at, size_t n, int64_t& out) {
    out = 0;
    for (size_t i = at; i < at + n; ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      out = out * 10 + (s[i] - '0');
    }
    return true;
  };
  int64_t y, mo, d, h, mi, se;
  if (!num(0, 4, y) || !num(5, 2, mo) || !num(8, 2, d) || !num(11, 2, h) || !num(14, 2, mi) || !num(17, 2, se))
    return false;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60) return false;
  int64_t frac = 0;
  if (s.size() > 19) {
    if (s[19] != '.') return false;
    int64_t scale = 100'000'000;
    for (size_t i = 20; i < s.size(); ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      frac += (s[i] - '0') * scale;
      scale /= 10;
    }
  }
  const int64_t days = daysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  const int64_t seconds = ((days * 24 + h) * 60 + mi) * 60 + se;  // years 0..9999: no overflow
  // Past 2262-04-11 the nanoseconds do not fit in int64: refused, never wrapped.
  return !__builtin_mul_overflow(seconds, int64_t{1'000'000'000}, &ns) && !__builtin_add_overflow(ns, frac, &ns);
}

bool hexBytesLittleEndian(std::string_view hex, int64_t& value) {
  if (hex.starts_with("0x") || hex.starts_with("0X")) hex.remove_prefix(2);
  if (hex.empty() || hex.size() % 2 != 0 || hex.size() > 16) return false;
  uint64_t v = 0;
  for (size_t byte = 0; byte < hex.size() / 2; ++byte) {
    unsigned b = 0;
    for (size_t k = 0; k < 2; ++k) {
      const char c = hex[2 * byte + k];
      const int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
      if (d < 0) return false;
      b = b * 16 + static_cast<unsigned>(d);
    }
    v |= static_cast<uint64_t>(b) << (8 * byte);
  }
  value = static_cast<int64_t>(v);
  return true;
}

bool looksLikeDvdtProf(std::string_view head) {
  const size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return false;
  // A list of call records, or a CK point holding one.
  const bool list = head[first] == '[';
  const size_t call = head.find("\"call\"");
  if (list)
    return call != std::string_view::npos && head.find("\"cl", call) != std::string_view::npos &&
           head.find("\"ph\"") == std::string_view::npos;
  return head.find("\"dvdt_prof\"") != std::string_view::npos;
}

LoadResult loadDvdtProf(ByteSource& src) {
  LoadResult r;
  DvdtDocument doc;
  try {
    JsonUnitReader reader(src);
    const char c = reader.peek();
    if (c == '[') {
      readList(reader, doc.records);
      doc.sawRecords = true;
    } else if (c == '{') {
      readObject(reader, doc, 0);
    }
  } catch (const JsonUnitError& e) {
    r.status = LoadStatus::InvalidInput;
    r.error = "dv/dt prof trace: " + e.message;
    return r;
  }
  if (!doc.sawRecords) {
    r.status = LoadStatus::InvalidInput;
    r.error = "dv/dt prof trace: no list of call records (top-level array or \"dvdt_prof\")";
    return r;
  }
  const PackedRecords* list = &doc.records;
  r.trace = std::make_unique<Trace>();
  Trace& t = *r.trace;
  t.meta.format = "opencl-dvdt-prof";
  TraceBuilder b(t);
  Diagnostics& diag = t.diagnostics;
  auto warn = [&](WarningKind k, size_t index, const std::string& what) {
    diag.add(k, 1, "record " + std::to_string(index) + ": " + what);
  };

  // Clock alignment: median of (host enqueue start - device queued).
  std::vector<int64_t> offsets;
  for (size_t i = 0; i < list->size(); ++i) {
    const Json rec = list->at(i);
    if (!rec.is_object() || !rec.contains("profiling") || !rec.contains("timestamp")) continue;
    int64_t host = 0;
    const auto queued = integer(rec["profiling"], "queued");
    if (queued && rec["timestamp"].is_object() && rec["timestamp"].contains("start") &&
        rec["timestamp"]["start"].is_string() && parseIsoTimeNs(rec["timestamp"]["start"].get<std::string>(), host))
      offsets.push_back(satSub(host, *queued));
  }
  int64_t offset = 0;
  if (!offsets.empty()) {
    std::nth_element(offsets.begin(), offsets.begin() + static_cast<std::ptrdiff_t>(offsets.size() / 2), offsets.end());
    offset = offsets[offsets.size() / 2];
  }

  // Layers (per_layer_info): each spans from the previous layer's timestamp to its own.
  struct Layer {
    int64_t start, end;
    std::string name;
  };
  std::vector<Layer> layers;
  {
    const PackedRecords* info = doc.sawLayers ? &doc.layers : nullptr;
    if (info) {
      std::optional<int64_t> previous;
      size_t li = 0;
      for (size_t i = 0; i < info->size(); ++i) {
        const Json l = info->at(i);
        ++li;
        int64_t at = 0;
        if (!l.is_object() || !l.contains("timestamp") || !l["timestamp"].is_string() ||
            !parseIsoTimeNs(l["timestamp"].get<std::string>(), at))
          continue;
        if (previous && at > *previous)
          layers.push_back({*previous, at,
                            l.contains("name") && l["name"].is_string() ? l["name"].get<std::string>()
                                                                        : "layer " + std::to_string(li)});
        previous = at;
      }
    }
  }
  auto layerAt = [&](int64_t ts) -> const Layer* {
    for (const Layer& l : layers)
      if (ts >= l.start && ts < l.end) return &l;
    return nullptr;
  };
  const StringId layerKey = t.strings.intern("layer");

  const RawId hostPid{false, 1, 0}, devicePid{false, 0, 0};
  const uint32_t hostProcess = b.process(hostPid);
  const uint32_t deviceProcess = b.process(devicePid);
  t.processes[hostProcess].name = t.strings.intern("OpenCL host (dv/dt prof)");
  t.processes[deviceProcess].name = t.strings.intern("OpenCL device");
  const uint32_t apiTrack = b.threadTrack(hostPid, RawId{false, 1, 0});
  t.tracks[apiTrack].name = t.strings.intern("OpenCL API");
  // Enqueues of kernels are launches (Runtime); the other API calls are host events.
  const StringId runtimeCat = t.strings.intern("Runtime"), apiCat = t.strings.intern("opencl_api");
  const StringId kernelCat = t.strings.intern("kernel");
  const StringId layerCat = t.strings.intern("user_annotation");
  std::map<int64_t, uint32_t> queueIndex;                // queue handle -> stream index
  std::map<int64_t, std::vector<int64_t>> argsOfKernel;  // kernel handle -> arg values by index
  uint64_t kernels = 0, calls = 0;
  int64_t correlation = 1;
  size_t index = 0;
  for (size_t i = 0; i < list->size(); ++i) {
    const Json rec = list->at(i);
    ++index;
    ++t.eventsRead;
    if (!rec.is_object() || !rec.contains("call") || !rec["call"].is_string()) {
      warn(WarningKind::NotAnEvent, index, "not an object with a \"call\"");
      continue;
    }
    const std::string call = rec["call"].get<std::string>();
    if (call == "clSetKernelArg") {
      const auto kernel = integer(rec, "kernel");
      const auto argIndex = integer(rec, "arg_index");
      int64_t value = 0;
      if (kernel && argIndex && *argIndex >= 0 && *argIndex < 64 && rec.contains("arg_value") &&
          rec["arg_value"].is_string() && hexBytesLittleEndian(rec["arg_value"].get<std::string>(), value)) {
        auto& args = argsOfKernel[*kernel];
        if (args.size() <= static_cast<size_t>(*argIndex)) args.resize(static_cast<size_t>(*argIndex) + 1, -1);
        args[static_cast<size_t>(*argIndex)] = value;
      }
    }
    ArgsWriter hostArgs;
    int64_t hostStart = 0, hostEnd = 0;
    bool hasHost = false;
    if (rec.contains("timestamp") && rec["timestamp"].is_object()) {
      const Json& ts = rec["timestamp"];
      hasHost = ts.contains("start") && ts.contains("end") && ts["start"].is_string() && ts["end"].is_string() &&
                parseIsoTimeNs(ts["start"].get<std::string>(), hostStart) &&
                parseIsoTimeNs(ts["end"].get<std::string>(), hostEnd);
      if (!hasHost) warn(WarningKind::WrongType, index, call + ": unreadable \"timestamp\" start/end");
    }
    const bool ndrange = call == "clEnqueueNDRangeKernel";
    int64_t thisCorrelation = kNoId;
    if (ndrange) {
      const Json* prof = rec.contains("profiling") && rec["profiling"].is_object() ? &rec["profiling"] : nullptr;
      const auto start = prof ? integer(*prof, "start") : std::nullopt;
      const auto end = prof ? integer(*prof, "end") : std::nullopt;
      if (!start || !end) {
        warn(WarningKind::MissingField, index, "clEnqueueNDRangeKernel without profiling start/end: no kernel shown");
      } else {
        const auto queue = integer(rec, "queue").value_or(0);
        const auto [qi, fresh] = queueIndex.emplace(queue, static_cast<uint32_t>(queueIndex.size()));
        (void)fresh;
        const uint32_t track = b.threadTrack(devicePid, RawId{false, static_cast<int64_t>(qi->second) + 1, 0});
        // Queue handles are pointers (367801916416): the label numbers them instead.
        t.tracks[track].queueNumber = static_cast<int64_t>(qi->second) + 1;
        SliceInput in;
        in.start = satAdd(*start, offset);
        in.dur = std::max<int64_t>(0, satSub(*end, *start));
        if (*end < *start) warn(WarningKind::NegativeDuration, index, "profiling end before start");
        const std::string name =
            rec.contains("name") && rec["name"].is_string() ? rec["name"].get<std::string>() : "kernel";
        in.name = t.strings.intern(name);
        in.cat = kernelCat;
        in.device = 0;
        in.stream = queue;
        thisCorrelation = hasHost ? correlation++ : kNoId;
        in.correlation = thisCorrelation;
        ArgsWriter args;
        for (const char* key : {"queued", "submit"})
          if (auto v = integer(*prof, key)) args.addInt(t.strings.intern(std::string("profiling.") + key), *v);
        for (const char* key : {"gws", "lws", "gwo"})
          if (rec.contains(key)) args.addJson(t.strings.intern(key), t.strings.intern(jsonText(rec[key])));
        if (auto id = integer(rec, "enqueue_id")) args.addInt(t.strings.intern("enqueue_id"), *id);
        args.addString(t.strings.intern("queue"), t.strings.intern(hexHandle(queue)));
        if (auto k = integer(rec, "kernel")) {
          args.addInt(t.strings.intern("kernel"), *k);
          const auto it = argsOfKernel.find(*k);
          if (name.starts_with("Xgemm") && it != argsOfKernel.end() && it->second.size() >= 3 && it->second[0] >= 0 &&
              it->second[1] >= 0 && it->second[2] >= 0) {
            args.addInt(t.strings.intern("M"), it->second[0]);
            args.addInt(t.strings.intern("N"), it->second[1]);
            args.addInt(t.strings.intern("K"), it->second[2]);
          }
        }
        if (const Layer* l = hasHost ? layerAt(hostStart) : nullptr)
          args.addString(layerKey, t.strings.intern(l->name));
        b.addSlice(track, in, args);
        ++kernels;
      }
    }
    if (!hasHost) continue;
    SliceInput host;
    host.start = hostStart;
    host.dur = std::max<int64_t>(0, satSub(hostEnd, hostStart));
    host.name = t.strings.intern(call);
    host.cat = ndrange ? runtimeCat : apiCat;
    host.correlation = thisCorrelation;
    if (rec.contains("name") && rec["name"].is_string())
      hostArgs.addString(t.strings.intern("name"), t.strings.intern(rec["name"].get<std::string>()));
    if (auto e = integer(rec, "errcode")) hostArgs.addInt(t.strings.intern("errcode"), *e);
    if (auto q = integer(rec, "queue")) hostArgs.addInt(t.strings.intern("queue"), *q);
    b.addSlice(apiTrack, host, hostArgs);
    ++calls;
  }
  // Layers as spans on a track of their own.
  if (!layers.empty()) {
    const uint32_t layerTrack = b.threadTrack(hostPid, RawId{false, 2, 0});
    t.tracks[layerTrack].name = t.strings.intern("layers");
    for (const Layer& l : layers) {
      SliceInput in;
      in.start = l.start;
      in.dur = std::max<int64_t>(0, satSub(l.end, l.start));
      in.name = t.strings.intern(l.name);
      in.cat = layerCat;
      b.addSlice(layerTrack, in, ArgsWriter{});
    }
  }
  if (kernels == 0 && calls == 0) {
    r.trace.reset();
    r.status = LoadStatus::InvalidInput;
    r.error = "dv/dt prof trace: no call with host timestamps and no kernel with profiling data in " +
              std::to_string(index) + " records";
    return r;
  }
  b.finish();
  return r;
}

}  // namespace opscope
