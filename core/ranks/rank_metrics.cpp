#include "ranks/rank_metrics.h"

#include <algorithm>
#include <cctype>

#include "analysis/interval_set.h"
#include "hierarchy/iterations.h"

namespace opscope {

namespace {

std::string lowerLetters(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (char c : name)
    if (std::isalnum(static_cast<unsigned char>(c))) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

struct KindWord {
  const char* word;  // lower case, no separators
  const char* kind;
};
// Longest first: "reducescatter" before "reduce", "allreduce" before "reduce".
constexpr KindWord kKinds[] = {
    {"reducescatter", "ReduceScatter"}, {"allreduce", "AllReduce"}, {"allgather", "AllGather"},
    {"alltoall", "AllToAll"},           {"broadcast", "Broadcast"}, {"sendrecv", "SendRecv"},
    {"reduce", "Reduce"},
};

}  // namespace

std::string collectiveKind(std::string_view name) {
  // Only the kernel's own name, not its argument list (which may mention ncclWork).
  const size_t paren = name.find('(');
  const std::string flat = lowerLetters(name.substr(0, paren));
  for (const KindWord& k : kKinds)
    if (flat.find(k.word) != std::string::npos) return k.kind;
  return "Collective";
}

bool isCollectiveKernelName(std::string_view name) {
  const size_t paren = name.find('(');
  const std::string flat = lowerLetters(name.substr(0, paren));
  if (flat.find("nccl") != std::string::npos || flat.find("rccl") != std::string::npos) return true;
  for (const KindWord& k : kKinds)
    if (k.kind != std::string_view("Reduce") && flat.find(k.word) != std::string::npos) return true;
  return false;
}

RankMetrics measureRank(const Trace& trace) {
  RankMetrics m;
  m.rank = trace.meta.rank;
  m.iterations = trace.iterations;
  m.iterationWallEnds = iterationWallEnds(trace, m.iterations);
  std::vector<IntervalSet::Interval> comm, compute;
  for (const Track& t : trace.tracks) {
    if (t.kind != TrackKind::GpuStream) continue;
    const SliceColumns& s = t.slices;
    // Names repeat: decide once per string.
    std::vector<int8_t> verdict;  // by StringId: -1 unknown, 0 no, 1 yes
    for (size_t i = 0; i < s.size(); ++i) {
      if (!isGpuKind(s.kind[i])) continue;
      const TimeNs a = s.start[i], b = s.start[i] + s.dur[i];
      const StringId id = s.name[i];
      if (id >= verdict.size()) verdict.resize(id + 1, -1);
      if (verdict[id] < 0) verdict[id] = s.kind[i] == SliceKind::Kernel && isCollectiveKernelName(trace.str(id)) ? 1 : 0;
      if (verdict[id] == 1) {
        const std::string kind = collectiveKind(trace.str(id));
        auto found = std::find(m.collectiveKinds.begin(), m.collectiveKinds.end(), kind);
        if (found == m.collectiveKinds.end()) found = m.collectiveKinds.insert(found, kind);
        m.collectives.push_back({a, b, static_cast<uint32_t>(found - m.collectiveKinds.begin())});
        comm.emplace_back(a, b);
      } else {
        compute.emplace_back(a, b);
      }
    }
  }
  std::sort(m.collectives.begin(), m.collectives.end(),
            [](const CollectiveCall& x, const CollectiveCall& y) { return x.start < y.start; });
  const IntervalSet commSet = IntervalSet::fromUnsorted(std::move(comm));
  const IntervalSet computeSet = IntervalSet::fromUnsorted(std::move(compute));
  m.collectiveTime = commSet.length();
  m.computeTime = computeSet.length();
  m.overlapTime = commSet.lengthInside(computeSet);
  m.gpuBusy = commSet.unite(computeSet).length();
  return m;
}

}  // namespace opscope
