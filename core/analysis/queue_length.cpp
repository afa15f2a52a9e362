#include "analysis/queue_length.h"

#include <algorithm>

#include "hierarchy/queries.h"

namespace opscope {

namespace {

struct Change {
  TimeNs ts;
  int32_t delta;
};

}  // namespace

QueueLengthReport queueLength(const Trace& trace, std::optional<TimeWindow> window) {
  QueueLengthReport r;
  r.start = window ? window->start : trace.minTs;
  r.end = window ? window->end : trace.maxTs;
  std::vector<Change> changes;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    const Track& track = trace.tracks[t];
    if (track.kind != TrackKind::GpuStream) continue;
    StreamQueue q;
    q.track = t;
    q.label = trace.trackLabel(t);
    changes.clear();
    const SliceColumns& s = track.slices;
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (!isGpuKind(s.kind[i])) continue;
      const EventRef gpu{t, i};
      const std::optional<EventRef> launch = launchOf(trace, gpu);
      if (!launch) {
        ++q.withoutLaunch;
        continue;
      }
      const TimeNs end = trace.end(gpu);
      // A launch recorded after its kernel ended (skewed clocks) enqueues at the end.
      const TimeNs enqueue = std::min(trace.start(*launch), end);
      changes.push_back({enqueue, +1});
      changes.push_back({end, -1});
      ++q.operations;
    }
    if (q.operations == 0 && q.withoutLaunch == 0) continue;
    // At one instant departures go first: a launch and a completion at the same ns do
    // not make a depth that never lasted.
    std::sort(changes.begin(), changes.end(),
              [](const Change& a, const Change& b) { return a.ts != b.ts ? a.ts < b.ts : a.delta < b.delta; });
    int32_t depth = 0;
    size_t c = 0;
    // The depth reached before the window starts.
    for (; c < changes.size() && changes[c].ts <= r.start; ++c) depth += changes[c].delta;
    q.steps.push_back({r.start, depth});
    for (; c < changes.size() && changes[c].ts < r.end; ++c) {
      depth += changes[c].delta;
      if (changes[c].ts == q.steps.back().ts) q.steps.back().depth = depth;
      else if (depth != q.steps.back().depth) q.steps.push_back({changes[c].ts, depth});
    }
    // Time at each depth, by the steps' durations inside [start, end).
    long double weighted = 0;
    for (size_t k = 0; k < q.steps.size(); ++k) {
      const TimeNs from = q.steps[k].ts, to = k + 1 < q.steps.size() ? q.steps[k + 1].ts : r.end;
      const int32_t d = std::max(0, q.steps[k].depth);
      q.maxDepth = std::max(q.maxDepth, d);
      if (q.timeAtDepth.size() <= static_cast<size_t>(d)) q.timeAtDepth.resize(static_cast<size_t>(d) + 1, 0);
      const TimeNs span = std::max<TimeNs>(0, to - from);
      q.timeAtDepth[static_cast<size_t>(d)] = satAdd(q.timeAtDepth[static_cast<size_t>(d)], span);
      if (d >= kFullLaunchQueue) q.timeFull = satAdd(q.timeFull, span);
      weighted += static_cast<long double>(d) * static_cast<long double>(span);
    }
    const TimeNs wall = r.end - r.start;
    q.meanDepth = wall > 0 ? static_cast<double>(weighted / static_cast<long double>(wall)) : 0;
    r.streams.push_back(std::move(q));
  }
  return r;
}

void addQueueLengthCounters(Trace& trace, size_t maxPoints) {
  const QueueLengthReport r = queueLength(trace);
  for (const StreamQueue& q : r.streams) {
    if (q.operations == 0) continue;
    CounterSeries c;
    c.process = trace.tracks[q.track].process;
    // Under the stream's process header: "stream 7 · queued launches" (its start tells
    // the streams apart when the gutter cuts the label).
    const std::string_view label = q.label;
    const size_t dot = label.rfind("\xC2\xB7 ");
    const std::string stream(dot == std::string_view::npos ? label : label.substr(dot + 3));
    c.name = trace.strings.intern(stream + std::string(kQueueLengthCounterSuffix));
    if (hasCounter(trace, c.process, c.name)) continue;  // a trace opscope wrote back holds it
    if (q.steps.size() <= maxPoints) {
      for (const QueueStep& s : q.steps) {
        c.ts.push_back(s.ts);
        c.value.push_back(s.depth);
      }
    } else {
      // The deepest queue of each bin: a long trace's overview keeps its peaks.
      const long double bin = static_cast<long double>(r.end - r.start) / static_cast<long double>(maxPoints);
      size_t k = 0;
      for (size_t b = 0; b < maxPoints && k < q.steps.size(); ++b) {
        const TimeNs from = r.start + static_cast<TimeNs>(bin * static_cast<long double>(b));
        const TimeNs to = r.start + static_cast<TimeNs>(bin * static_cast<long double>(b + 1));
        int32_t deepest = k > 0 ? q.steps[k - 1].depth : q.steps[k].depth;
        for (; k < q.steps.size() && q.steps[k].ts < to; ++k) deepest = std::max(deepest, q.steps[k].depth);
        c.ts.push_back(from);
        c.value.push_back(deepest);
      }
    }
    c.ts.push_back(r.end);
    c.value.push_back(0);
    trace.counters.push_back(std::move(c));
  }
}

}  // namespace opscope
