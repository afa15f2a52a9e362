#include "io/rocprofv3_loader.h"

#include <algorithm>
#include <array>
#include <map>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/json_units.h"
#include "model/trace_builder.h"

namespace opscope {

namespace {

using Json = nlohmann::json;

struct Agent {
  int64_t index = 0;  // logical_node_type_id: the GPU's number
  std::string name;
};

// A record as placed: the fields read from its JSON object, parsed alone and dropped
// (keeping the objects took 170 MB for a 37 MB result; these, 31 MiB in all).
struct Record {
  int64_t start = kNoId, end = kNoId, correlation = kNoId, thread = kNoId;
  int64_t kind = kNoId, operation = kNoId;
  uint64_t agent = 0, otherAgent = 0;  // dispatch: its GPU; copy: destination, source
  int64_t queue = kNoId, kernel = kNoId, bytes = kNoId, lds = kNoId, scratch = kNoId;
  std::array<int64_t, 3> grid{kNoId, kNoId, kNoId}, block{kNoId, kNoId, kNoId};
};

// The parts read before the records are placed: names resolve at the end, so the
// sections may come in any order.
struct Document {
  std::unordered_map<uint64_t, Agent> gpus;          // agent handle -> GPU
  std::vector<std::vector<std::string>> operations;  // strings.buffer_records: kind -> operation names
  std::unordered_map<int64_t, std::string> kernels;  // kernel_id -> name
  std::vector<Record> dispatches, hipCalls, copies, markers;
  int64_t pid = 0;
  bool sawTool = false;
};

int64_t intAt(const Json& j, const char* a, const char* b = nullptr) {
  const Json* v = j.contains(a) ? &j[a] : nullptr;
  if (v && b) v = v->is_object() && v->contains(b) ? &(*v)[b] : nullptr;
  return v && v->is_number_integer() ? v->get<int64_t>() : kNoId;
}

std::string textAt(const Json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

Json parsed(std::string_view text) { return Json::parse(text, nullptr, /*allow_exceptions=*/false); }

Record recordOf(const Json& j) {
  Record rec;
  rec.start = intAt(j, "start_timestamp");
  rec.end = intAt(j, "end_timestamp");
  rec.correlation = intAt(j, "correlation_id", "internal");
  rec.thread = intAt(j, "thread_id");
  rec.kind = intAt(j, "kind");
  rec.operation = intAt(j, "operation");
  rec.bytes = intAt(j, "bytes");
  rec.agent = static_cast<uint64_t>(intAt(j, "dst_agent_id", "handle"));
  rec.otherAgent = static_cast<uint64_t>(intAt(j, "src_agent_id", "handle"));
  if (j.contains("dispatch_info") && j["dispatch_info"].is_object()) {
    const Json& info = j["dispatch_info"];
    rec.agent = static_cast<uint64_t>(intAt(info, "agent_id", "handle"));
    rec.queue = intAt(info, "queue_id", "handle");
    rec.kernel = intAt(info, "kernel_id");
    rec.lds = intAt(info, "group_segment_size");
    rec.scratch = intAt(info, "private_segment_size");
    const char* axes[] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a) {
      if (info.contains("grid_size")) rec.grid[a] = intAt(info["grid_size"], axes[a]);
      if (info.contains("workgroup_size")) rec.block[a] = intAt(info["workgroup_size"], axes[a]);
    }
  }
  return rec;
}

void readRecords(JsonUnitReader& r, std::vector<Record>& out) {
  r.beginArray();
  while (r.nextElement()) out.push_back(recordOf(parsed(r.value())));
}

void readTool(JsonUnitReader& r, Document& doc) {
  r.beginObject();
  std::string key;
  while (r.nextKey(key)) {
    if (key == "metadata") {
      const Json m = parsed(r.value());
      doc.pid = intAt(m, "pid") == kNoId ? 0 : intAt(m, "pid");
    } else if (key == "agents") {
      r.beginArray();
      while (r.nextElement()) {
        const Json a = parsed(r.value());
        if (intAt(a, "type") != 2) continue;  // 1: CPU, 2: GPU
        Agent g;
        g.index = intAt(a, "logical_node_type_id") == kNoId ? static_cast<int64_t>(doc.gpus.size())
                                                            : intAt(a, "logical_node_type_id");
        g.name = textAt(a, "product_name").empty() ? textAt(a, "name") : textAt(a, "product_name");
        doc.gpus[static_cast<uint64_t>(intAt(a, "id", "handle"))] = g;
      }
    } else if (key == "strings") {
      r.beginObject();
      std::string sub;
      while (r.nextKey(sub)) {
        if (sub != "buffer_records") {
          r.skip();
          continue;
        }
        r.beginArray();
        while (r.nextElement()) {
          const Json k = parsed(r.value());
          std::vector<std::string> ops;
          if (k.contains("operations") && k["operations"].is_array())
            for (const Json& o : k["operations"]) ops.push_back(o.is_string() ? o.get<std::string>() : "");
          doc.operations.push_back(std::move(ops));
        }
      }
    } else if (key == "kernel_symbols") {
      r.beginArray();
      while (r.nextElement()) {
        const Json s = parsed(r.value());
        std::string name = textAt(s, "formatted_kernel_name");
        if (name.empty()) name = textAt(s, "demangled_kernel_name");
        if (name.empty()) name = textAt(s, "kernel_name");
        doc.kernels[intAt(s, "kernel_id")] = std::move(name);
      }
    } else if (key == "buffer_records") {
      r.beginObject();
      std::string kind;
      while (r.nextKey(kind)) {
        if (kind == "kernel_dispatch") readRecords(r, doc.dispatches);
        else if (kind == "hip_api") readRecords(r, doc.hipCalls);
        else if (kind == "memory_copy") readRecords(r, doc.copies);
        else if (kind == "marker_api") readRecords(r, doc.markers);
        else r.skip();
      }
    } else {
      r.skip();
    }
  }
}

}  // namespace

bool looksLikeRocprofv3(std::string_view head) {
  const size_t at = head.find("\"rocprofiler-sdk-tool\"");
  return at != std::string_view::npos && at < 64;
}

LoadResult loadRocprofv3(ByteSource& src) {
  LoadResult r;
  Document doc;
  try {
    JsonUnitReader reader(src);
    reader.beginObject();
    std::string key;
    while (reader.nextKey(key)) {
      if (key != "rocprofiler-sdk-tool") {
        reader.skip();
        continue;
      }
      reader.beginArray();
      while (reader.nextElement()) {  // one entry per profiled process
        doc.sawTool = true;
        readTool(reader, doc);
      }
    }
  } catch (const JsonUnitError& e) {
    r.status = LoadStatus::InvalidInput;
    r.error = "rocprofv3 result: " + e.message;
    return r;
  }
  if (!doc.sawTool) {
    r.status = LoadStatus::InvalidInput;
    r.error = "rocprofv3 result: no \"rocprofiler-sdk-tool\" entry";
    return r;
  }
  r.trace = std::make_unique<Trace>();
  Trace& t = *r.trace;
  t.meta.format = "rocprofv3-json";
  t.meta.deviceKind = "GPU";
  TraceBuilder b(t);
  for (const auto& [handle, g] : doc.gpus) {
    DeviceProperties d;
    d.id = g.index;
    d.name = g.name;
    d.warpSize = 64;
    t.meta.devices.push_back(d);
  }
  std::sort(t.meta.devices.begin(), t.meta.devices.end(),
            [](const DeviceProperties& a, const DeviceProperties& b) { return a.id < b.id; });
  const StringId kernelCat = t.strings.intern("kernel"), runtimeCat = t.strings.intern("cuda_runtime"),
                 copyCat = t.strings.intern("gpu_memcpy"), markerCat = t.strings.intern("user_annotation");
  const StringId correlationKey = t.strings.intern("correlation"), deviceKey = t.strings.intern("device"),
                 streamKey = t.strings.intern("stream"), gridKey = t.strings.intern("grid"),
                 blockKey = t.strings.intern("block"), ldsKey = t.strings.intern("shared memory"),
                 scratchKey = t.strings.intern("private segment"), bytesKey = t.strings.intern("bytes");
  const RawId pid{false, doc.pid, 0};
  auto warn = [&](const char* what) { t.diagnostics.add(WarningKind::MissingField, 1, what); };
  auto gpuOf = [&](uint64_t agent) -> const Agent* {
    const auto it = doc.gpus.find(agent);
    return it == doc.gpus.end() ? nullptr : &it->second;
  };
  auto operationName = [&](const Record& rec, const char* fallback) {
    const int64_t kind = rec.kind, op = rec.operation;
    if (kind >= 0 && op >= 0 && static_cast<size_t>(kind) < doc.operations.size() &&
        static_cast<size_t>(op) < doc.operations[static_cast<size_t>(kind)].size())
      return doc.operations[static_cast<size_t>(kind)][static_cast<size_t>(op)];
    return std::string(fallback);
  };
  auto times = [&](const Record& rec, SliceInput& in) {
    const int64_t s = rec.start, e = rec.end;
    if (s == kNoId || e == kNoId || e < s) return false;
    in.start = s;
    in.dur = e - s;
    return true;
  };
  for (const Record& d : doc.dispatches) {
    SliceInput in;
    const Agent* gpu = gpuOf(d.agent);
    if (!times(d, in) || !gpu) {
      warn("kernel_dispatch: a record without times or a GPU agent");
      continue;
    }
    in.cat = kernelCat;
    const auto kernel = doc.kernels.find(d.kernel);
    in.name = t.strings.intern(kernel != doc.kernels.end() && !kernel->second.empty() ? kernel->second : "kernel");
    in.correlation = d.correlation;
    in.device = gpu->index;
    in.stream = d.queue;
    ArgsWriter args;
    if (in.correlation != kNoId) args.addInt(correlationKey, in.correlation);
    args.addInt(deviceKey, in.device);
    args.addInt(streamKey, in.stream);
    const auto dims = [](const std::array<int64_t, 3>& v) {
      return v[0] == kNoId
                 ? std::string()
                 : "[" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + "]";
    };
    if (const std::string g = dims(d.grid); !g.empty()) args.addString(gridKey, t.strings.intern(g));
    if (const std::string w = dims(d.block); !w.empty()) args.addString(blockKey, t.strings.intern(w));
    if (d.lds != kNoId) args.addInt(ldsKey, d.lds);
    if (d.scratch != kNoId) args.addInt(scratchKey, d.scratch);
    b.addSlice(b.threadTrack(RawId{false, in.device, 0}, RawId{false, in.stream, 0}), in, args);
  }
  for (const Record& c : doc.hipCalls) {
    SliceInput in;
    if (!times(c, in)) {
      warn("hip_api: a record without times");
      continue;
    }
    in.cat = runtimeCat;
    in.name = t.strings.intern(operationName(c, "hip call"));
    in.correlation = c.correlation;
    ArgsWriter args;
    if (in.correlation != kNoId) args.addInt(correlationKey, in.correlation);
    b.addSlice(b.threadTrack(pid, RawId{false, c.thread, 0}), in, args);
  }
  for (const Record& c : doc.copies) {
    SliceInput in;
    const Agent* gpu = gpuOf(c.agent);
    if (!gpu) gpu = gpuOf(c.otherAgent);
    if (!times(c, in) || !gpu) {
      warn("memory_copy: a record without times or a GPU agent");
      continue;
    }
    in.cat = copyCat;
    const std::string op = operationName(c, "MEMORY_COPY");
    // MEMORY_COPY_HOST_TO_DEVICE -> "Memcpy HtoD", as Kineto names copies.
    const std::string kind = op.find("HOST_TO_DEVICE") != std::string::npos     ? "HtoD"
                             : op.find("DEVICE_TO_HOST") != std::string::npos   ? "DtoH"
                             : op.find("DEVICE_TO_DEVICE") != std::string::npos ? "DtoD"
                             : op.find("PEER") != std::string::npos             ? "PtoP"
                                                                                : "copy";
    in.name = t.strings.intern("Memcpy " + kind);
    in.correlation = c.correlation;
    in.device = gpu->index;
    in.stream = -1;  // copies run on the SDMA engines, not on a compute queue
    ArgsWriter args;
    if (in.correlation != kNoId) args.addInt(correlationKey, in.correlation);
    args.addInt(deviceKey, in.device);
    if (c.bytes != kNoId) args.addInt(bytesKey, c.bytes);
    b.addSlice(b.threadTrack(RawId{false, in.device, 0}, RawId{false, -1, 0}), in, args);
  }
  for (const Record& m : doc.markers) {
    SliceInput in;
    if (!times(m, in)) {
      warn("marker_api: a record without times");
      continue;
    }
    in.cat = markerCat;
    in.name = t.strings.intern(operationName(m, "roctx range"));
    b.addSlice(b.threadTrack(pid, RawId{false, m.thread, 0}), in, ArgsWriter{});
  }
  for (uint32_t p = 0; p < t.processes.size(); ++p) {
    Process& proc = t.processes[p];
    if (proc.pid.isString || proc.name != 0) continue;
    if (proc.pid.num == doc.pid && !doc.gpus.empty() && doc.dispatches.empty()) continue;
    for (const auto& [handle, g] : doc.gpus)
      if (g.index == proc.pid.num && proc.pid.num != doc.pid)
        proc.name = t.strings.intern("GPU " + std::to_string(g.index) + " · " + g.name);
  }
  t.eventsRead = doc.dispatches.size() + doc.hipCalls.size() + doc.copies.size() + doc.markers.size();
  b.finish();
  return r;
}

}  // namespace opscope
