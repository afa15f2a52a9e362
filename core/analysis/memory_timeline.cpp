#include "analysis/memory_timeline.h"

#include <algorithm>
#include <map>
#include <utility>

namespace opscope {

std::optional<EventRef> enclosingOp(const Trace& trace, uint32_t track, TimeNs t) {
  if (track >= trace.tracks.size()) return std::nullopt;
  const SliceColumns& s = trace.tracks[track].slices;
  const size_t after = s.upperBound(t);
  if (after == 0) return std::nullopt;
  // The last slice starting at or before t, or one of its ancestors, is the innermost
  // slice containing t (children start after their parents).
  int64_t i = static_cast<int64_t>(after - 1);
  while (i >= 0 && !(s.start[static_cast<size_t>(i)] <= t && t < s.end(static_cast<size_t>(i))))
    i = s.parent[static_cast<size_t>(i)];
  while (i >= 0 && !isOpKind(s.kind[static_cast<size_t>(i)])) i = s.parent[static_cast<size_t>(i)];
  if (i < 0) return std::nullopt;
  return EventRef{track, static_cast<uint32_t>(i)};
}

namespace {

// The thread tracks that are one thread: a writer may give the same tid as a number on
// the memory events and as a string on the ops ("tid": 123 and "tid": "123").
std::vector<std::vector<uint32_t>> sameThreads(const Trace& trace) {
  std::map<std::pair<uint32_t, std::string>, std::vector<uint32_t>> byText;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t)
    if (trace.tracks[t].kind == TrackKind::Thread)
      byText[{trace.tracks[t].process, trace.rawIdText(trace.tracks[t].tid)}].push_back(t);
  std::vector<std::vector<uint32_t>> out(trace.tracks.size());
  for (const auto& [key, tracks] : byText)
    for (uint32_t t : tracks) out[t] = tracks;
  return out;
}

std::optional<EventRef> opAt(const Trace& trace, const std::vector<std::vector<uint32_t>>& same, uint32_t track,
                             TimeNs t) {
  if (track >= same.size()) return std::nullopt;
  for (uint32_t candidate : same[track])
    if (auto op = enclosingOp(trace, candidate, t)) return op;
  return std::nullopt;
}

}  // namespace

MemoryTimeline memoryTimeline(const Trace& trace) {
  const std::vector<std::vector<uint32_t>> same = sameThreads(trace);
  std::vector<const MemoryEvent*> events;
  events.reserve(trace.memoryEvents.size());
  for (const MemoryEvent& e : trace.memoryEvents) events.push_back(&e);
  std::stable_sort(events.begin(), events.end(),
                   [](const MemoryEvent* a, const MemoryEvent* b) { return a->ts < b->ts; });
  // GPUs by number, then the host (device -1 or type 0).
  std::map<std::pair<int, int32_t>, DeviceMemory> byDevice;
  std::map<std::pair<int, int32_t>, std::map<uint64_t, size_t>> open;  // addr -> open allocation
  for (const MemoryEvent* e : events) {
    const bool host = e->deviceType == 0 || e->device < 0;
    const std::pair<int, int32_t> key{host ? 1 : 0, host ? -1 : e->device};
    DeviceMemory& d = byDevice[key];
    if (d.ts.empty()) {
      d.device = key.second;
      d.deviceType = e->deviceType;
      d.label = host ? "CPU" : trace.meta.deviceKind + " " + std::to_string(e->device);
      d.relativeAllocated = e->totalAllocated < 0;
    }
    const int64_t running = d.allocated.empty() ? 0 : d.allocated.back();
    const int64_t allocated = e->totalAllocated >= 0 ? e->totalAllocated : satAdd(running, e->bytes);
    d.ts.push_back(e->ts);
    d.allocated.push_back(allocated);
    d.reserved.push_back(e->totalReserved);
    if (d.ts.size() == 1 || allocated > d.peakAllocated) {
      d.peakAllocated = allocated;
      d.peakTs = e->ts;
    }
    d.peakReserved = std::max(d.peakReserved, e->totalReserved);
    (e->bytes >= 0 ? d.allocs : d.frees) += 1;
    const std::optional<EventRef> op = opAt(trace, same, e->track, e->ts);
    if (op) {
      OpMemory& self = d.byOp[std::string(trace.name(*op))];
      self.selfIncrease = satAdd(self.selfIncrease, e->bytes);
      if (e->bytes > 0) ++self.selfAllocs, self.selfAllocBytes = satAdd(self.selfAllocBytes, e->bytes);
      std::vector<StringId> seen;  // each name once per event
      for (std::optional<EventRef> p = op; p; p = trace.parent(*p)) {
        if (!isOpKind(trace.kind(*p))) continue;
        const StringId name = trace.nameId(*p);
        if (std::find(seen.begin(), seen.end(), name) != seen.end()) continue;
        seen.push_back(name);
        OpMemory& total = d.byOp[std::string(trace.str(name))];
        total.increase = satAdd(total.increase, e->bytes);
        if (e->bytes > 0) ++total.allocs, total.allocBytes = satAdd(total.allocBytes, e->bytes);
      }
    }
    if (e->addr == 0) continue;
    auto& addrs = open[key];
    if (e->bytes > 0) {
      addrs[e->addr] = d.allocations.size();
      d.allocations.push_back({e->addr, e->bytes, e->ts, std::numeric_limits<TimeNs>::max(), op});
    } else if (e->bytes < 0) {
      const auto it = addrs.find(e->addr);
      if (it == addrs.end()) {
        ++d.unmatchedFrees;
      } else {
        d.allocations[it->second].free = e->ts;
        addrs.erase(it);
      }
    }
  }
  MemoryTimeline out;
  for (auto& [key, d] : byDevice) out.devices.push_back(std::move(d));
  return out;
}

bool isMemoryCounterName(std::string_view name) { return name.starts_with("Memory ") && name.ends_with(" (MiB)"); }

void addMemoryCounters(Trace& trace, const MemoryTimeline& m, size_t maxSamples) {
  if (m.devices.empty() || trace.memoryEvents.empty()) return;
  for (const DeviceMemory& d : m.devices) {
    // The process: that of the first event of this device.
    uint32_t process = 0;
    for (const MemoryEvent& e : trace.memoryEvents) {
      const bool host = e.deviceType == 0 || e.device < 0;
      if ((host ? -1 : e.device) == d.device && e.track < trace.tracks.size()) {
        process = trace.tracks[e.track].process;
        break;
      }
    }
    auto add = [&](const std::vector<int64_t>& values, const std::string& what) {
      CounterSeries c;
      c.process = process;
      c.name = trace.strings.intern("Memory " + what + " · " + d.label + " (MiB)");
      const size_t step = std::max<size_t>(1, (d.ts.size() + maxSamples - 1) / std::max<size_t>(1, maxSamples));
      for (size_t i = 0; i < d.ts.size(); i += step) {
        size_t best = i;
        for (size_t k = i; k < std::min(d.ts.size(), i + step); ++k)
          if (values[k] > values[best]) best = k;
        if (values[best] < 0) continue;  // reserved not recorded
        c.ts.push_back(d.ts[i]);
        c.value.push_back(static_cast<double>(values[best]) / (1024.0 * 1024.0));
      }
      if (!c.ts.empty()) trace.counters.push_back(std::move(c));
    };
    add(d.allocated, "allocated");
    if (d.peakReserved >= 0) add(d.reserved, "reserved");
  }
}

std::vector<const MemoryAllocation*> liveAllocations(const DeviceMemory& d, TimeNs t) {
  std::vector<const MemoryAllocation*> live;
  for (const MemoryAllocation& a : d.allocations) {
    if (a.alloc > t) break;  // by allocation time
    if (a.liveAt(t)) live.push_back(&a);
  }
  std::stable_sort(live.begin(), live.end(),
                   [](const MemoryAllocation* a, const MemoryAllocation* b) { return a->bytes > b->bytes; });
  return live;
}

}  // namespace opscope
