#include "analysis/stream_usage.h"

#include <algorithm>

#include "hierarchy/queries.h"
#include "model/interval_set.h"

namespace opscope {

StreamUsageReport streamUsage(const Trace& trace, const KernelClassifier& classifier, std::optional<TimeWindow> window,
                              size_t bins) {
  StreamUsageReport r;
  r.start = window ? window->start : trace.minTs;
  r.end = window ? window->end : trace.maxTs;
  r.wall = std::max<TimeNs>(0, r.end - r.start);
  std::vector<int32_t> classOfName;
  const std::vector<std::string> classes = classifyGpuNames(trace, classifier, classOfName);
  const auto nccl = std::find(classes.begin(), classes.end(), "nccl");
  const int32_t ncclClass = nccl == classes.end() ? -2 : static_cast<int32_t>(nccl - classes.begin());

  std::vector<IntervalSet> busySets;
  IntervalSet comm, comp;
  std::vector<IntervalSet::Interval> all, commSpans, compSpans;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    if (trace.tracks[t].kind != TrackKind::GpuStream) continue;
    const SliceColumns& s = trace.tracks[t].slices;
    const size_t first = s.lowerBound(r.start), last = s.lowerBound(r.end);
    StreamUsage u;
    u.track = t;
    all.clear();
    commSpans.clear();
    compSpans.clear();
    TimeNs freeAt = r.start;        // when the stream last became free
    std::optional<TimeNs> prevEnd;  // the previous event's end (HTA's classes)
    std::vector<double> gaps[3];    // host wait, kernel wait, other (µs)
    for (size_t i = first; i < last; ++i) {
      if (!isGpuKind(s.kind[i])) continue;
      ++u.events;
      const TimeNs a = s.start[i], b = std::min(s.end(i), r.end);
      const auto launch = launchOf(trace, {t, static_cast<uint32_t>(i)});
      if (a > freeAt) {
        TimeNs hostWait = 0;
        if (launch) hostWait = std::clamp<TimeNs>(trace.end(*launch) - freeAt, 0, a - freeAt);
        u.idleHostWait += hostWait;
      }
      if (prevEnd && a > *prevEnd) {
        const TimeNs gap = a - *prevEnd;
        const int c = launch && trace.start(*launch) > *prevEnd ? 0 : gap < kHtaKernelWaitNs ? 1 : 2;
        IdleClass& k = c == 0 ? u.htaHostWait : c == 1 ? u.htaKernelWait : u.htaOther;
        addTo(k.time, gap);
        gaps[c].push_back(static_cast<double>(gap) / 1000);
      }
      prevEnd = s.end(i);
      freeAt = std::max(freeAt, b);
      all.emplace_back(a, b);
      const bool isComm = s.kind[i] == SliceKind::Kernel && classOfName[s.name[i]] == ncclClass;
      (isComm ? commSpans : compSpans).emplace_back(a, b);
    }
    if (u.events == 0) continue;
    u.htaHostWait.gapsUs = describe(gaps[0]);
    u.htaKernelWait.gapsUs = describe(gaps[1]);
    u.htaOther.gapsUs = describe(gaps[2]);
    const IntervalSet busy = IntervalSet::fromSortedByStart(all);
    const IntervalSet c = IntervalSet::fromSortedByStart(commSpans);
    u.label = trace.trackLabel(t);
    u.busy = busy.length();
    u.idle = r.wall - u.busy;
    u.idleHostWait = std::min(u.idleHostWait, u.idle);
    u.idleOther = u.idle - u.idleHostWait;
    u.communication = c.length();
    u.utilisation = r.wall ? static_cast<double>(u.busy) / static_cast<double>(r.wall) : 0;
    comm = comm.unite(c);
    comp = comp.unite(IntervalSet::fromSortedByStart(compSpans));
    r.streams.push_back(std::move(u));
    busySets.push_back(busy);
  }
  std::vector<size_t> order(r.streams.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&r](size_t a, size_t b) {
    return r.streams[a].busy != r.streams[b].busy ? r.streams[a].busy > r.streams[b].busy
                                                  : r.streams[a].track < r.streams[b].track;
  });
  std::vector<StreamUsage> sorted;
  std::vector<IntervalSet> sets;
  for (size_t i : order) {
    sorted.push_back(std::move(r.streams[i]));
    sets.push_back(std::move(busySets[i]));
  }
  r.streams = std::move(sorted);
  const size_t n = r.streams.size();
  r.overlap.assign(n * n, 0);
  IntervalSet active;
  for (size_t i = 0; i < n; ++i) {
    active = active.unite(sets[i]);
    r.overlap[i * n + i] = sets[i].length();
    for (size_t j = i + 1; j < n; ++j) r.overlap[i * n + j] = r.overlap[j * n + i] = sets[i].lengthInside(sets[j]);
  }
  r.gpuActive = active.length();
  r.communication = comm.length();
  r.computation = comp.length();
  r.commHidden = comm.lengthInside(comp);
  r.commHiddenShare = r.communication ? static_cast<double>(r.commHidden) / static_cast<double>(r.communication) : 0;
  if (bins > 0 && r.wall > 0) {
    r.binWidth = std::max<TimeNs>(1, ceilDiv(r.wall, static_cast<TimeNs>(bins)));
    const size_t nb = static_cast<size_t>(ceilDiv(r.wall, r.binWidth));
    std::vector<TimeNs> covered(nb, 0);
    const IntervalSet clipped = active.clip(r.start, r.end);
    for (const auto& [a, b] : clipped.intervals()) {
      for (TimeNs x = a; x < b;) {
        const size_t bin = static_cast<size_t>((x - r.start) / r.binWidth);
        const TimeNs binEnd = satAdd(r.start, static_cast<TimeNs>(bin + 1) * r.binWidth);
        const TimeNs y = std::min(b, binEnd);
        covered[bin] += y - x;
        x = y;
      }
    }
    r.utilisation.resize(nb);
    for (size_t i = 0; i < nb; ++i) {
      const TimeNs binStart = satAdd(r.start, static_cast<TimeNs>(i) * r.binWidth);
      const TimeNs width = std::min(r.binWidth, r.end - binStart);
      r.utilisation[i] = width > 0 ? static_cast<double>(covered[i]) / static_cast<double>(width) : 0;
    }
  }
  return r;
}

}  // namespace opscope
