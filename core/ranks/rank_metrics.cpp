#include "ranks/rank_metrics.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "hierarchy/iterations.h"
#include "model/interval_set.h"

namespace opscope {

namespace {

std::string lowerLetters(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (char c : name)
    if (std::isalnum(static_cast<unsigned char>(c)))
      out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

struct KindWord {
  const char* word;  // lower case, no separators
  const char* kind;
};
// Longest first: "reducescatter" before "reduce", "allreduce" before "reduce".
constexpr KindWord kKinds[] = {
    {"reducescatter", "ReduceScatter"},
    {"allreduce", "AllReduce"},
    {"allgather", "AllGather"},
    {"alltoall", "AllToAll"},
    {"broadcast", "Broadcast"},
    {"sendrecv", "SendRecv"},
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

std::vector<RankMetrics> measureRanks(const Trace& trace) {
  // Ranks by number; each track belongs to its process's rank.
  auto rankOf = [&](uint32_t track) {
    const int64_t r = trace.processes[trace.tracks[track].process].rank;
    return r != kNoId ? r : trace.meta.rank.value_or(0);
  };
  std::map<int64_t, uint32_t> index;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) index.emplace(rankOf(t), 0);
  if (index.empty()) index.emplace(trace.meta.rank.value_or(0), 0);
  std::vector<RankMetrics> out(index.size());
  uint32_t n = 0;
  for (auto& [rank, i] : index) {
    i = n++;
    out[i].rank = rank;
  }
  std::vector<uint32_t> groupOf(trace.tracks.size());
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) groupOf[t] = index[rankOf(t)];

  // A merged session keeps only its first rank's steps in trace.iterations: find every rank's.
  bool merged = false;
  for (const Process& p : trace.processes) merged |= p.rank != kNoId;
  std::vector<std::vector<Iteration>> steps(out.size());
  for (const Iteration& it : merged ? findProfilerSteps(trace) : trace.iterations) {
    const uint32_t track = EventRef::unpack(it.ref).track;
    steps[it.ref != kNoRef && track < groupOf.size() ? groupOf[track] : 0].push_back(it);
  }
  std::vector<std::vector<TimeNs>> ends = iterationWallEnds(trace, steps, groupOf);
  for (size_t r = 0; r < out.size(); ++r) {
    out[r].iterations = std::move(steps[r]);
    out[r].iterationWallEnds = std::move(ends[r]);
  }

  std::vector<std::vector<IntervalSet::Interval>> comm(out.size()), compute(out.size()), copies(out.size());
  std::vector<int8_t> verdict;  // by StringId: -1 unknown, 0 no, 1 yes (names repeat)
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    const Track& tr = trace.tracks[t];
    if (tr.kind != TrackKind::GpuStream) continue;
    RankMetrics& m = out[groupOf[t]];
    const SliceColumns& s = tr.slices;
    for (size_t i = 0; i < s.size(); ++i) {
      if (!isGpuKind(s.kind[i])) continue;
      const TimeNs a = s.start[i], b = s.start[i] + s.dur[i];
      const StringId id = s.name[i];
      if (id >= verdict.size()) verdict.resize(id + 1, -1);
      if (verdict[id] < 0)
        verdict[id] = s.kind[i] == SliceKind::Kernel && isCollectiveKernelName(trace.str(id)) ? 1 : 0;
      if (verdict[id] == 1) {
        const std::string kind = collectiveKind(trace.str(id));
        auto found = std::find(m.collectiveKinds.begin(), m.collectiveKinds.end(), kind);
        if (found == m.collectiveKinds.end()) found = m.collectiveKinds.insert(found, kind);
        m.collectives.push_back({a, b, static_cast<uint32_t>(found - m.collectiveKinds.begin()),
                                 EventRef{t, static_cast<uint32_t>(i)}.packed()});
        comm[groupOf[t]].emplace_back(a, b);
      } else if (s.kind[i] == SliceKind::Kernel) {
        compute[groupOf[t]].emplace_back(a, b);
      } else {
        copies[groupOf[t]].emplace_back(a, b);
      }
    }
  }
  for (size_t r = 0; r < out.size(); ++r) {
    RankMetrics& m = out[r];
    std::sort(m.collectives.begin(), m.collectives.end(),
              [](const CollectiveCall& x, const CollectiveCall& y) { return x.start < y.start; });
    const IntervalSet commSet = IntervalSet::fromUnsorted(std::move(comm[r]));
    const IntervalSet computeSet = IntervalSet::fromUnsorted(std::move(compute[r]));
    const IntervalSet copySet = IntervalSet::fromUnsorted(std::move(copies[r]));
    const IntervalSet otherWork = computeSet.unite(copySet);
    m.collectiveTime = commSet.length();
    m.computeTime = computeSet.length();
    m.copyTime = copySet.length();
    m.overlapTime = commSet.lengthInside(computeSet);
    m.copyOverlapTime = commSet.lengthInside(copySet);
    m.overlapAnyTime = commSet.lengthInside(otherWork);
    m.gpuBusy = commSet.unite(otherWork).length();
  }
  return out;
}

RankMetrics measureRank(const Trace& trace) {
  // One rank's own trace: a single group (a merged session wants measureRanks).
  std::vector<RankMetrics> all = measureRanks(trace);
  RankMetrics m = std::move(all.front());
  m.rank = trace.meta.rank;
  return m;
}

}  // namespace opscope
