#include "analysis/kernel_sequences.h"

#include <algorithm>
#include <map>

#include "analysis/summary.h"
#include "hierarchy/queries.h"

namespace opscope {

namespace {

// The ops to examine on one thread track: top-level ops, or the shallowest ops whose
// names contain the pattern (an op inside an earlier match's span is skipped).
std::vector<uint32_t> opsOf(const Trace& trace, const SliceColumns& s, const std::string& pattern) {
  if (pattern.empty()) return topLevelOps(s);
  std::vector<uint32_t> out;
  TimeNs coveredUntil = std::numeric_limits<TimeNs>::min();
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (!isOpKind(s.kind[i]) || s.start[i] < coveredUntil) continue;
    if (trace.str(s.name[i]).find(pattern) == std::string_view::npos) continue;
    out.push_back(i);
    coveredUntil = s.end(i);
  }
  return out;
}

}  // namespace

KernelSequences kernelSequences(const Trace& trace, std::optional<TimeWindow> window,
                                const KernelSequenceOptions& options) {
  KernelSequences out;
  out.options = options;
  struct Key {
    StringId op;
    std::vector<StringId> kernels;
    bool operator<(const Key& o) const { return op != o.op ? op < o.op : kernels < o.kernels; }
  };
  struct Acc {
    uint64_t count = 0;
    TimeNs gpu = 0, cpu = 0, longestGpu = -1;
    EventRef longest;
  };
  std::map<Key, Acc> groups;
  std::vector<EventRef> gpu;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    if (trace.tracks[t].kind != TrackKind::Thread) continue;
    const SliceColumns& s = trace.tracks[t].slices;
    for (uint32_t i : opsOf(trace, s, options.opPattern)) {
      if (window && (s.start[i] < window->start || s.start[i] >= window->end)) continue;
      ++out.opsExamined;
      const EventRef op{t, i};
      gpu = gpuEventsOf(trace, op);
      if (gpu.size() < options.minLength) continue;
      std::stable_sort(gpu.begin(), gpu.end(), [&](EventRef a, EventRef b) { return trace.start(a) < trace.start(b); });
      Key key{s.name[i], {}};
      TimeNs gpuTime = 0;
      for (EventRef g : gpu) {
        key.kernels.push_back(trace.nameId(g));
        addTo(gpuTime, trace.dur(g));
      }
      Acc& a = groups[std::move(key)];
      ++a.count;
      addTo(a.gpu, gpuTime);
      addTo(a.cpu, s.dur[i]);
      if (gpuTime > a.longestGpu) {
        a.longestGpu = gpuTime;
        a.longest = op;
      }
    }
  }
  for (const auto& [key, a] : groups) {
    if (a.count < options.minCount) continue;
    KernelSequence q;
    q.op = std::string(trace.str(key.op));
    for (StringId k : key.kernels) q.kernels.emplace_back(trace.str(k));
    q.count = a.count;
    q.gpuTime = a.gpu;
    q.cpuTime = a.cpu;
    q.longest = a.longest;
    out.sequences.push_back(std::move(q));
  }
  std::sort(out.sequences.begin(), out.sequences.end(), [](const KernelSequence& x, const KernelSequence& y) {
    if (x.gpuTime != y.gpuTime) return x.gpuTime > y.gpuTime;
    if (x.count != y.count) return x.count > y.count;
    return x.op < y.op;
  });
  return out;
}

}  // namespace opscope
