#include "hierarchy/queries.h"

#include <algorithm>
#include <limits>

#include "model/gallop.h"

namespace opscope {

std::optional<EventRef> launchOf(const Trace& trace, EventRef gpuEvent) {
  const auto& v = trace.links.gpuToLaunch;
  const uint64_t key = gpuEvent.packed();
  auto it =
      std::lower_bound(v.begin(), v.end(), key, [](const LaunchLinks::Pair& p, uint64_t k) { return p.first < k; });
  if (it == v.end() || it->first != key) return std::nullopt;
  return EventRef::unpack(it->second);
}

namespace {
// launchToGpu is sorted by launch: the order its searches compare by.
bool launchBefore(const LaunchLinks::Pair& p, uint64_t key) { return p.first < key; }

// The launch's first (launch, GPU event) pair in launchToGpu; its pairs follow it while
// first == launch.packed().
const LaunchLinks::Pair* firstGpuPair(const Trace& trace, EventRef launch) {
  const auto& v = trace.links.launchToGpu;
  return v.data() + (std::lower_bound(v.begin(), v.end(), launch.packed(), launchBefore) - v.begin());
}

// Appends the GPU events of the pairs from `first` on that belong to launch `key`.
void appendGpuEventsFrom(const PodColumn<LaunchLinks::Pair>& v, const LaunchLinks::Pair* first, uint64_t key,
                         std::vector<EventRef>& out) {
  for (const LaunchLinks::Pair* p = first; p != v.data() + v.size() && p->first == key; ++p)
    out.push_back(EventRef::unpack(p->second));
}

// Appends launch's GPU events to out, in launchToGpu's order.
void appendGpuEventsOfLaunch(const Trace& trace, EventRef launch, std::vector<EventRef>& out) {
  appendGpuEventsFrom(trace.links.launchToGpu, firstGpuPair(trace, launch), launch.packed(), out);
}
}  // namespace

std::vector<EventRef> gpuEventsOfLaunch(const Trace& trace, EventRef launch) {
  std::vector<EventRef> out;
  appendGpuEventsOfLaunch(trace, launch, out);
  return out;
}

std::vector<EventRef> GpuEventsInLaunchOrder::of(EventRef launch) {
  const uint64_t key = launch.packed();
  if (at_ > links_.size() || (at_ > 0 && links_[at_ - 1].first >= key)) at_ = 0;  // out of order
  const auto first =
      gallopLowerBound(links_.begin() + static_cast<std::ptrdiff_t>(at_), links_.end(), key, launchBefore);
  at_ = static_cast<size_t>(first - links_.begin());
  std::vector<EventRef> out;
  appendGpuEventsFrom(links_, links_.data() + at_, key, out);
  return out;
}

bool hasGpuEvents(const Trace& trace, EventRef launch) {
  const auto& v = trace.links.launchToGpu;
  const LaunchLinks::Pair* p = firstGpuPair(trace, launch);
  return p != v.data() + v.size() && p->first == launch.packed();
}

bool isBlockingLaunch(const Trace& trace, EventRef launch, const std::vector<EventRef>& gpu) {
  if (gpu.empty()) return false;
  TimeNs done = std::numeric_limits<TimeNs>::min();
  for (EventRef g : gpu) done = std::max(done, trace.end(g));
  return done <= trace.end(launch);
}

std::optional<EventRef> enclosingOp(const Trace& trace, EventRef ref) {
  for (auto p = trace.parent(ref); p; p = trace.parent(*p))
    if (isOpKind(trace.kind(*p))) return p;
  const int64_t ext = trace.tracks[ref.track].slices.externalId[ref.index];
  if (ext == kNoId) return std::nullopt;
  // Rare fallback: a linear scan is fine and keeps no index in memory.
  for (uint32_t ti = 0; ti < trace.tracks.size(); ++ti) {
    const SliceColumns& s = trace.tracks[ti].slices;
    for (uint32_t i = 0; i < s.size(); ++i)
      if (s.externalId[i] == ext && isOpKind(s.kind[i]) && !(EventRef{ti, i} == ref)) return EventRef{ti, i};
  }
  return std::nullopt;
}

std::vector<EventRef> ancestors(const Trace& trace, EventRef ref) {
  std::vector<EventRef> out;
  for (auto p = trace.parent(ref); p; p = trace.parent(*p)) out.push_back(*p);
  std::reverse(out.begin(), out.end());
  return out;
}

namespace {
// Rows of op's subtree: they follow op in sorted order and start before it ends.
template <typename F>
void forSubtree(const Trace& trace, EventRef op, F&& f) {
  const SliceColumns& s = trace.tracks[op.track].slices;
  const TimeNs end = s.end(op.index);
  f(op.index);
  for (uint32_t j = op.index + 1;
       j < s.size() && (s.start[j] < end || (s.start[j] == end && s.dur[j] == 0 && s.dur[op.index] == 0)); ++j) {
    if (s.flags[j] & kFlagCrossover && s.end(j) > end) continue;
    f(j);
  }
}

// The launches in op's subtree (op included), in row order; none off a thread track.
template <typename F>
void forEachLaunch(const Trace& trace, EventRef op, F&& f) {
  if (trace.tracks[op.track].kind != TrackKind::Thread) return;
  const SliceColumns& s = trace.tracks[op.track].slices;
  forSubtree(trace, op, [&](uint32_t j) {
    if (isLaunchKind(s.kind[j])) f(EventRef{op.track, j});
  });
}
}  // namespace

std::vector<EventRef> launchesOf(const Trace& trace, EventRef op) {
  std::vector<EventRef> out;
  forEachLaunch(trace, op, [&](EventRef l) { out.push_back(l); });
  return out;
}

std::vector<EventRef> gpuEventsOf(const Trace& trace, EventRef op) {
  // Each launch's events appended: no list of launches in between (predict asks this of
  // every op and sub-op).
  std::vector<EventRef> out;
  forEachLaunch(trace, op, [&](EventRef l) { appendGpuEventsOfLaunch(trace, l, out); });
  return out;
}

bool causesGpuWork(const Trace& trace, EventRef op) {
  bool any = false;
  forEachLaunch(trace, op, [&](EventRef l) { any = any || hasGpuEvents(trace, l); });
  return any;
}

std::vector<EventRef> childrenOf(const Trace& trace, EventRef ref) {
  std::vector<EventRef> out;
  const SliceColumns& s = trace.tracks[ref.track].slices;
  if (trace.tracks[ref.track].kind != TrackKind::Thread) return out;
  forSubtree(trace, ref, [&](uint32_t j) {
    if (s.parent[j] == static_cast<int32_t>(ref.index)) out.push_back({ref.track, j});
  });
  return out;
}

}  // namespace opscope
