#include "perf/iteration_sim.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "analysis/op_index.h"
#include "hierarchy/iterations.h"
#include "hierarchy/queries.h"
#include "model/interval_set.h"

namespace opscope {

bool isSynchronizingCall(std::string_view n) {
  return n.find("Synchronize") != std::string_view::npos || n == "cudaMemcpy" || n == "hipMemcpy" ||
         n == "cudaMemcpy2D" || n == "hipMemcpy2D" || n == "cuCtxSynchronize" || n == "cuStreamSynchronize";
}

namespace {

double us(TimeNs ns) { return static_cast<double>(ns) / 1e3; }

// A GPU event starts at max(its launch's issue + latency, its stream free + gap): when
// it was measured queued behind the previous event of its stream (that one still ran
// when the launch began), gap is the measured time between the two (the GPU's own
// kernel-to-kernel time, or a wait on another stream) and latency is at most the launch
// call's length; when the stream was idle, latency is the measured launch-to-start time
// and gap 0. Replaying the measured durations gives back the measured start times.
struct SimEvent {
  uint32_t stream = 0;
  double latency = 0;  // µs after the launch call's start
  double gap = 0;      // µs after the previous event of its stream
  double dur = 0;      // simulated duration, µs
};

struct Item {
  double gap = 0;   // host time before the call, µs
  double cost = 0;  // the call's own time (after its wait, for synchronising calls)
  bool sync = false;
  // Synchronising calls: the streams waited for. Traces do not say which stream a
  // cudaStreamSynchronize names, so these are the streams whose work launched before
  // the call had finished when it returned (a stream still busy was not waited for).
  std::vector<uint32_t> waits;
  std::vector<SimEvent> events;
};

struct HostThread {
  std::vector<Item> items;
  double tail = 0;  // step thread: from its last call to the step's end
};

// A host call the simulation replays: a launch (started GPU work) or a synchronising call.
// A blocking launch (isBlockingLaunch: a pageable copy) is both: it queues its GPU work
// and waits for it, so its length is a wait on the GPU, not a launch cost.
struct Call {
  EventRef ref;
  bool sync = false;
  std::vector<EventRef> gpu;
  bool blockingLaunch = false;  // sync only for its own GPU work, not other streams'
};

std::vector<Call> hostCalls(const Trace& trace, uint32_t track, TimeWindow w) {
  std::vector<Call> calls;
  const SliceColumns& s = trace.tracks[track].slices;
  TimeNs busyUntil = std::numeric_limits<TimeNs>::min();
  GpuEventsInLaunchOrder gpuOf(trace);  // the rows ascend
  for (size_t i = s.lowerBound(w.start), end = s.lowerBound(w.end); i < end; ++i) {
    if (!isLaunchKind(s.kind[i]) || s.start[i] < busyUntil) continue;  // nested in the previous call
    const EventRef ref{track, static_cast<uint32_t>(i)};
    Call c{ref, isSynchronizingCall(trace.str(s.name[i])), gpuOf.of(ref)};
    if (!c.sync && isBlockingLaunch(trace, ref, c.gpu)) c.sync = c.blockingLaunch = true;
    if (c.gpu.empty() && !c.sync) continue;
    busyUntil = s.end(i);
    calls.push_back(std::move(c));
  }
  return calls;
}

// A statistic's entry for a name id, found by its text once per id: a simulation asks
// for the same few hundred names hundreds of thousands of times. Null when the
// statistic lacks the name or counted none of it.
class StatOfName {
 public:
  StatOfName(const Trace& trace, const MeanStdByName* stat) : trace_(trace), stat_(stat) {}
  const MeanStd* operator()(StringId name) {
    if (!stat_) return nullptr;
    const auto [it, fresh] = memo_.try_emplace(name, nullptr);
    if (fresh) {
      const auto found = stat_->find(trace_.str(name));
      if (found != stat_->end() && found->second.count > 0) it->second = &found->second;
    }
    return it->second;
  }

 private:
  const Trace& trace_;
  const MeanStdByName* stat_;
  std::unordered_map<StringId, const MeanStd*> memo_;
};

// T4: the median launch cost when the model has it (the notebook's files have means only).
std::optional<double> launchCost(const MeanStd* m) {
  if (!m) return std::nullopt;
  return m->median.value_or(m->mean);
}

}  // namespace

std::vector<IterationPrediction> simulateIterations(const Trace& trace, const SimOptions& options) {
  std::vector<IterationPrediction> out;
  std::optional<OpIndex> own;
  if (!options.index) own.emplace(trace);
  const OpIndex& index = options.index ? *options.index : *own;
  std::unordered_map<uint64_t, double> scaleOfOp;  // predict: top-level op -> predicted / measured GPU time
  if (!options.replay && !options.measuredKernels && options.ops)
    for (const OpRow& r : *options.ops)
      if (r.predictedUs && r.measuredGpu > 0) scaleOfOp[r.op.packed()] = *r.predictedUs / us(r.measuredGpu);

  const std::vector<TimeNs> wallEnds = iterationWallEnds(trace, trace.iterations);
  const OverheadModel* o = options.overheads;
  StatOfName t2Of(trace, o ? &o->t2 : nullptr), t3Of(trace, o ? &o->t3 : nullptr), t4Of(trace, o ? &o->t4 : nullptr),
      t5Of(trace, o ? &o->t5 : nullptr);
  for (size_t it = 0; it < trace.iterations.size(); ++it) {
    const Iteration& iteration = trace.iterations[it];
    if (iteration.ref == kNoRef) continue;
    const EventRef step = EventRef::unpack(iteration.ref);
    const TimeWindow w{iteration.start, iteration.end};
    IterationPrediction p;
    p.index = it;
    p.number = iteration.number;
    p.stepUs = us(w.end - w.start);
    p.measuredUs = us(std::max(w.end, it < wallEnds.size() ? wallEnds[it] : w.end) - w.start);

    // Host calls of every thread, and when the GPU work launched before each instant
    // finished as measured (for the synchronising calls' own time).
    std::vector<std::pair<uint32_t, std::vector<Call>>> perThread;
    // Per GPU track: (launch start, end) of its events launched in the window, by
    // launch start, the ends made running maxima.
    std::unordered_map<uint32_t, std::vector<std::pair<TimeNs, TimeNs>>> launchedEnds;
    std::vector<IntervalSet::Interval> measuredSpans;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
      if (trace.tracks[t].kind != TrackKind::Thread) continue;
      std::vector<Call> calls = hostCalls(trace, t, w);
      for (const Call& c : calls)
        for (EventRef g : c.gpu) {
          launchedEnds[g.track].emplace_back(trace.start(c.ref), trace.end(g));
          measuredSpans.emplace_back(trace.start(g), trace.end(g));
        }
      if (!calls.empty() || t == step.track) perThread.emplace_back(t, std::move(calls));
    }
    for (auto& [track, v] : launchedEnds) {
      std::sort(v.begin(), v.end());
      for (size_t i = 1; i < v.size(); ++i) v[i].second = std::max(v[i].second, v[i - 1].second);
    }
    std::unordered_map<uint32_t, uint32_t> streamIndex;  // GPU track -> dense index
    auto streamOf = [&](uint32_t track) {
      return streamIndex.try_emplace(track, static_cast<uint32_t>(streamIndex.size())).first->second;
    };
    // A synchronising call [start, end): the streams it waited for and when, as
    // measured, their work launched before it had finished.
    auto measuredWait = [&](TimeNs start, TimeNs end, std::vector<uint32_t>& waits) {
      TimeNs drained = std::numeric_limits<TimeNs>::min();
      for (const auto& [track, v] : launchedEnds) {
        const auto pos =
            std::lower_bound(v.begin(), v.end(), std::make_pair(start, std::numeric_limits<TimeNs>::min()));
        if (pos == v.begin()) continue;
        const TimeNs done = std::prev(pos)->second;
        if (done > end + 1000) continue;  // still busy after the call returned: not waited for
        waits.push_back(streamOf(track));
        drained = std::max(drained, done);
      }
      return drained;
    };
    p.gpuActiveMeasuredUs = us(IntervalSet::fromUnsorted(measuredSpans).length());

    std::vector<HostThread> threads;
    size_t stepThread = SIZE_MAX;
    for (auto& [threadTrack, calls] : perThread) {
      const uint32_t track =
          threadTrack;  // a plain variable: lambdas below capture it (C++20 allows bindings, clang 14 does not)
      HostThread h;
      if (track == step.track) stepThread = threads.size();
      // Predict mode: walk the thread's top-level ops to know which overhead each gap is.
      const SliceColumns& s = trace.tracks[track].slices;
      size_t sliceCursor = s.lowerBound(w.start);
      const size_t sliceEnd = s.lowerBound(w.end);
      int64_t currentOp = -1;  // row of the top-level op being walked
      uint32_t callsInOp = 0;
      // The previous call in the op was a synchronisation: the overhead statistics (the
      // notebook's T3 and T5 run from launch to launch or op end) hold its wait, which the
      // simulation already makes, so the gaps on either side of it stay as measured
      // (aten::item's T3 of a generated trace is its 75 ms cudaStreamSynchronize).
      bool lastCallSync = false;
      TimeNs boundary = w.start;  // end of the last thing accounted for (op or call)
      bool boundaryIsOp = false;
      double pending = 0;  // modelled host time not yet given to a call
      // The statistics are net of the profiler's cost of recording each host event
      // (overheads.h: T2, T3, T5 less their sub-events' CPU event cost, T1 and T4 less
      // one event's), so a piece priced by one gets back the cost of the events this op
      // recorded there: the prediction is of the profiled iteration it is compared with.
      // The counts are launch facts (what the profiler recorded), not measured times.
      size_t subCursor = 0;  // next row of the current op not yet counted as a sub-event
      // Rows of the current op's from subCursor up to row `end`, launches left out: as the
      // statistics count them, in row order (a row starting with a launch but ordered
      // before it, being longer, counts before it).
      auto subEventsBefore = [&](size_t end) {
        uint64_t n = 0;
        for (; subCursor < std::min(end, s.size()); ++subCursor) {
          if (index.topOp(track, static_cast<uint32_t>(subCursor)) != currentOp) continue;
          if (isLaunchKind(s.kind[subCursor]) && index.isLaunch({track, static_cast<uint32_t>(subCursor)})) continue;
          ++n;
        }
        return static_cast<double>(n);
      };
      const double cpuCost = options.overheads && options.overheads->costs ? options.overheads->costs->cpuEvent : 0;
      const double gpuCost = options.overheads && options.overheads->costs ? options.overheads->costs->gpuEvent : 0;
      // A statistic's mean plus `events` recordings, or the measured piece without one.
      auto priced = [&](StatOfName& stat, StringId name, double events, double measured) {
        const MeanStd* m = stat(name);
        return m ? m->mean + events * cpuCost : measured;
      };
      auto closeOp = [&] {
        if (currentOp < 0) return;
        const StringId name = s.name[static_cast<size_t>(currentOp)];
        const TimeNs opEnd = s.end(static_cast<size_t>(currentOp));
        const double measuredTail = us(std::max<TimeNs>(0, opEnd - boundary));
        const double events = subEventsBefore(s.upperBound(opEnd));
        if (callsInOp > 0) pending += lastCallSync ? measuredTail : priced(t3Of, name, events, measuredTail);
        else pending += priced(t5Of, name, events, us(s.dur[static_cast<size_t>(currentOp)]));
        boundary = std::max(boundary, opEnd);
        boundaryIsOp = true;
        currentOp = -1;
      };
      // Advances the op walk to time `until`, opening top-level ops that start before it.
      auto walkTo = [&](TimeNs until) {
        for (; sliceCursor < sliceEnd && s.start[sliceCursor] <= until; ++sliceCursor) {
          if (!isOpKind(s.kind[sliceCursor]) || !index.isTopOp(track, static_cast<uint32_t>(sliceCursor))) continue;
          if (currentOp >= 0 && s.start[sliceCursor] >= s.end(static_cast<size_t>(currentOp))) closeOp();
          if (currentOp >= 0) continue;  // overlapping top-level ops: keep the first
          const TimeNs gap = std::max<TimeNs>(0, s.start[sliceCursor] - boundary);
          const bool t1 = boundaryIsOp && us(gap) < options.t1MaxGapUs && options.overheads->t1.count > 0;
          pending += t1 ? options.overheads->t1.mean + cpuCost : us(gap);
          currentOp = static_cast<int64_t>(sliceCursor);
          subCursor = sliceCursor + 1;
          callsInOp = 0;
          lastCallSync = false;
          boundary = s.start[sliceCursor];
        }
        if (currentOp >= 0 && until >= s.end(static_cast<size_t>(currentOp))) closeOp();
      };

      TimeNs previousEnd = w.start;
      for (const Call& c : calls) {
        Item item;
        item.sync = c.sync;
        const TimeNs start = trace.start(c.ref), end = trace.end(c.ref);
        TimeNs wait = c.sync && !c.blockingLaunch ? std::max(start, measuredWait(start, end, item.waits)) : start;
        if (c.sync)
          for (EventRef g : c.gpu) {
            item.waits.push_back(streamOf(g.track));
            wait = std::max(wait, std::min(end, trace.end(g)));
          }
        const double ownTime = c.sync ? us(std::max<TimeNs>(0, end - std::min(end, wait))) : us(end - start);
        const int32_t top = index.topOp(track, c.ref.index);
        if (options.replay || !options.overheads) {
          item.gap = us(start - previousEnd);
          item.cost = ownTime;
        } else {
          walkTo(start);
          const bool inOp = currentOp >= 0 && start < s.end(static_cast<size_t>(currentOp));
          if (inOp) {
            const StringId name = s.name[static_cast<size_t>(currentOp)];
            const double measuredGap = us(start - std::max(boundary, s.start[static_cast<size_t>(currentOp)]));
            const double events = subEventsBefore(c.ref.index);
            subCursor = std::max<size_t>(subCursor, c.ref.index + 1);  // the call itself is no sub-event
            item.gap =
                pending + (c.sync || lastCallSync ? measuredGap
                                                  : priced(callsInOp == 0 ? t2Of : t5Of, name, events, measuredGap));
            ++callsInOp;
            lastCallSync = c.sync;
          } else {
            item.gap = pending + us(std::max<TimeNs>(0, start - boundary));
            boundaryIsOp = false;
          }
          pending = 0;
          const std::optional<double> t4 = c.sync ? std::nullopt : launchCost(t4Of(trace.nameId(c.ref)));
          item.cost = t4 ? *t4 + cpuCost + gpuCost : ownTime;
          boundary = end;
        }
        previousEnd = end;
        c.sync ? ++p.syncs : ++p.launches;
        const auto scale =
            top >= 0 ? scaleOfOp.find(EventRef{track, static_cast<uint32_t>(top)}.packed()) : scaleOfOp.end();
        for (EventRef g : c.gpu) {
          const double measured = us(trace.dur(g));
          SimEvent e;
          e.stream = streamOf(g.track);
          const SliceColumns& gs = trace.tracks[g.track].slices;
          const TimeNs previousEnd = g.index > 0 ? gs.end(g.index - 1) : std::numeric_limits<TimeNs>::min();
          if (previousEnd > start) {
            e.gap = us(std::max<TimeNs>(0, trace.start(g) - previousEnd));
            e.latency = std::clamp(us(trace.start(g) - start), 0.0, us(end - start));
          } else {
            e.latency = us(std::max<TimeNs>(0, trace.start(g) - start));
          }
          e.dur = options.replay || scale == scaleOfOp.end() ? measured : measured * scale->second;
          if (!options.replay && scale != scaleOfOp.end()) p.modelledGpuUs += measured;
          p.measuredGpuUs += measured;
          ++p.gpuEvents;
          item.events.push_back(e);
        }
        h.items.push_back(std::move(item));
      }
      if (track == step.track) {
        if (options.replay || !options.overheads) {
          h.tail = us(std::max<TimeNs>(0, w.end - previousEnd));
        } else {
          walkTo(w.end);
          closeOp();
          h.tail = pending + us(std::max<TimeNs>(0, w.end - boundary));
        }
      }
      threads.push_back(std::move(h));
    }

    // The simulation: host calls in order of their simulated issue time across threads.
    // Streams start free when the work running into the window ends: events started
    // before it, and those launched before it that start inside it (a GPU-bound
    // previous iteration spills over: recsys' GPU runs 160 ms behind its host), which
    // queue ahead of this iteration's work in stream order. Bounded scans: 64 events
    // back, and forward until the first event launched in the window (the backlog).
    std::vector<double> streamFree(streamIndex.size(), 0.0);
    for (const auto& [track, si] : streamIndex) {
      const SliceColumns& gs = trace.tracks[track].slices;
      const size_t first = gs.lowerBound(w.start);
      TimeNs busy = w.start;
      for (size_t k = first; k-- > 0 && k + 64 > first;) busy = std::max(busy, gs.end(k));
      for (size_t k = first; k < gs.size(); ++k) {
        // A stream runs its events in launch order, so every event that starts before
        // the first one launched in the window queued ahead of the window's work: those
        // launched before the window, even when they start after it ends (a stream
        // running behind its host: that MI300X step's all-reduces start up to 30 ms after
        // their launch), and those whose launch the trace lacks (launched before the
        // profiler started, or not linked). Every stream simulated here has an event
        // launched in the window, so the scan ends at the backlog's end.
        // Annotation spans and sync markers on a GPU track are not stream work.
        if (!isGpuKind(gs.kind[k])) continue;
        const auto launch = launchOf(trace, EventRef{track, static_cast<uint32_t>(k)});
        if (launch && trace.start(*launch) >= w.start) break;
        busy = std::max(busy, gs.end(k));
      }
      streamFree[si] = us(busy - w.start);
    }
    std::vector<double> clock(threads.size(), 0.0);
    std::vector<size_t> cursor(threads.size(), 0);
    std::vector<IntervalSet::Interval> simSpans;
    std::vector<std::vector<double>> starts(streamIndex.size());  // per stream, simulated starts (ascending)
    double gpuDrain = 0;                                          // end of the last GPU event launched in the iteration
    while (true) {
      size_t next = SIZE_MAX;
      double nextIssue = std::numeric_limits<double>::infinity();
      for (size_t t = 0; t < threads.size(); ++t) {
        if (cursor[t] >= threads[t].items.size()) continue;
        const double issue = clock[t] + threads[t].items[cursor[t]].gap;
        if (issue < nextIssue) {
          nextIssue = issue;
          next = t;
        }
      }
      if (next == SIZE_MAX) break;
      const Item& item = threads[next].items[cursor[next]++];
      // Back-pressure: a full launch queue holds the call until its oldest entry starts.
      if (!options.replay)
        for (const SimEvent& e : item.events) {
          const std::vector<double>& q = starts[e.stream];
          if (q.size() >= kLaunchQueueDepth) nextIssue = std::max(nextIssue, q[q.size() - kLaunchQueueDepth]);
        }
      for (const SimEvent& e : item.events) {
        const double start = std::max(nextIssue + e.latency, streamFree[e.stream] + e.gap);
        streamFree[e.stream] = start + e.dur;
        starts[e.stream].push_back(start);
        gpuDrain = std::max(gpuDrain, start + e.dur);
        simSpans.emplace_back(static_cast<TimeNs>(start * 1e3), static_cast<TimeNs>((start + e.dur) * 1e3));
      }
      double ready = nextIssue;
      for (uint32_t stream : item.waits) ready = std::max(ready, streamFree[stream]);
      clock[next] = ready + item.cost;
    }
    if (stepThread == SIZE_MAX) continue;
    p.predictedUs = std::max(clock[stepThread] + threads[stepThread].tail, gpuDrain);
    p.gpuActivePredictedUs = us(IntervalSet::fromUnsorted(simSpans).length());
    out.push_back(p);
  }
  return out;
}

}  // namespace opscope
