#include "report/memory_report.h"

#include <algorithm>

#include "report/report_numbers.h"
#include "report/summary_report.h"
#include "text/json_text.h"

namespace opscope {

namespace {

using ojson = nlohmann::ordered_json;

double sinceStart(const Trace& trace, TimeNs t) { return nsToUs(t - trace.minTs); }

}  // namespace

std::string memoryJson(const MemoryTimeline& m, const Trace& trace, const std::string& path) {
  ojson j;
  j["file"] = path;
  ojson devices = ojson::array();
  for (const DeviceMemory& d : m.devices) {
    ojson o;
    o["device"] = d.device;
    o["label"] = d.label;
    o["relative_allocated"] = d.relativeAllocated;
    o["events"] = d.ts.size();
    o["allocs"] = d.allocs;
    o["frees"] = d.frees;
    o["peak_allocated_bytes"] = d.peakAllocated;
    o["peak_us"] = sinceStart(trace, d.peakTs);
    o["peak_reserved_bytes"] = d.peakReserved >= 0 ? ojson(d.peakReserved) : ojson(nullptr);
    ojson samples = ojson::array();
    for (size_t i = 0; i < d.ts.size(); ++i)
      samples.push_back(
          {sinceStart(trace, d.ts[i]), d.allocated[i], d.reserved[i] >= 0 ? ojson(d.reserved[i]) : ojson(nullptr)});
    o["samples"] = std::move(samples);
    ojson live = ojson::array();
    for (const MemoryAllocation* a : liveAllocations(d, d.peakTs)) {
      if (live.size() >= 50) break;
      live.push_back({{"addr", a->addr},
                      {"bytes", a->bytes},
                      {"alloc_us", sinceStart(trace, a->alloc)},
                      {"free_us", a->free == std::numeric_limits<TimeNs>::max() ? ojson(nullptr)
                                                                                : ojson(sinceStart(trace, a->free))},
                      {"op", a->op ? ojson(std::string(trace.name(*a->op))) : ojson(nullptr)}});
    }
    o["live_at_peak"] = std::move(live);
    // By op, most bytes allocated inside it first (TensorBoard's "memory by operator").
    std::vector<std::pair<std::string, OpMemory>> ops(d.byOp.begin(), d.byOp.end());
    std::stable_sort(ops.begin(), ops.end(),
                     [](const auto& a, const auto& b) { return a.second.allocBytes > b.second.allocBytes; });
    ojson byOp = ojson::array();
    for (const auto& [name, om] : ops)
      byOp.push_back({{"name", name},
                      {"self_increase_bytes", om.selfIncrease},
                      {"self_alloc_bytes", om.selfAllocBytes},
                      {"self_allocs", om.selfAllocs},
                      {"increase_bytes", om.increase},
                      {"alloc_bytes", om.allocBytes},
                      {"allocs", om.allocs}});
    o["by_op"] = std::move(byOp);
    o["unmatched_frees"] = d.unmatchedFrees;
    devices.push_back(std::move(o));
  }
  j["devices"] = std::move(devices);
  return jsonText(j, 2) + "\n";
}

std::string memoryCsv(const MemoryTimeline& m, const Trace& trace) {
  std::string out = "device,t_us,allocated_bytes,reserved_bytes\n";
  for (const DeviceMemory& d : m.devices)
    for (size_t i = 0; i < d.ts.size(); ++i)
      out += d.label + "," + usText(d.ts[i] - trace.minTs) + "," + std::to_string(d.allocated[i]) + "," +
             (d.reserved[i] >= 0 ? std::to_string(d.reserved[i]) : std::string()) + "\n";
  return out;
}

}  // namespace opscope
