// The critical path's GPU-side edges: kernels on their streams, launches, the sync
// events' waits and the waits a trace without them leaves implicit, found on a thread
// beside the call stacks' edges for a large window (cp_builder.h).
#include <algorithm>
#include <optional>

#include "analysis/cp_builder.h"
#include "analysis/cp_call_stack.h"
#include "hierarchy/queries.h"
#include "model/two_threads.h"

namespace opscope::cp_detail {

void Builder::callStackAndGpuEdges() {
  std::vector<PendingEdge> pending;
  runBeside(
      evs_.size() >= threads_.concurrentEdgesFrom, [&] { callStackEdges(); },
      [&] {
        struct Reset {
          ~Reset() { tlsPending = nullptr; }
        } reset;
        tlsPending = &pending;
        gpuEdges();
      });
  for (const PendingEdge& e : pending) addEdge(e.u, e.v, e.type, e.zeroWeight, e.attr);
}

void Builder::gpuEdges() {
  // Launches in time order, each with the GPU events it started and their streams.
  struct Launch {
    EventRef call;
    TimeNs ts;
    std::vector<EventRef> gpu;
  };
  std::vector<Launch> launches;
  for (const LaunchLinks::Pair& p : t_.links.launchToGpu) {
    const EventRef l = EventRef::unpack(p.first);
    if (launches.empty() || launches.back().call != l) launches.push_back({l, t_.start(l), {}});
    launches.back().gpu.push_back(EventRef::unpack(p.second));
  }
  std::stable_sort(launches.begin(), launches.end(), [](const Launch& a, const Launch& b) { return a.ts < b.ts; });
  const auto streamOf = [&](EventRef g) {
    const Track& tr = t_.tracks[g.track];
    return StreamKey{tr.device, tr.stream != kNoId ? tr.stream : static_cast<int64_t>(g.track)};
  };

  // Queue length per stream over the whole trace (HTA's TraceCounters queue length):
  // +1 when a launch enqueues on the stream, -1 when its GPU work starts. A CUDA graph
  // launch counts once per stream, its first event there dequeuing it; the graph's
  // other events there are followers, chained to the one before them on the stream.
  std::map<std::pair<uint64_t, StreamKey>, int64_t> queueAtLaunch;  // (launch, stream) -> queue after it
  std::unordered_map<uint64_t, int64_t> queueAtGpu;                 // gpu ref -> queue after it starts
  std::unordered_map<uint64_t, bool> follower;  // gpu ref -> not the first of its launch on its stream
  {
    struct Step {
      TimeNs ts;
      int delta;
      uint64_t key;  // launch: call ref; gpu: gpu ref
    };
    std::map<StreamKey, std::vector<Step>> steps;
    for (const Launch& l : launches) {
      std::map<StreamKey, EventRef> firstOnStream;
      for (EventRef g : l.gpu) {
        const StreamKey k = streamOf(g);
        auto [it, fresh] = firstOnStream.emplace(k, g);
        if (!fresh && std::make_pair(t_.start(g), g) < std::make_pair(t_.start(it->second), it->second)) it->second = g;
      }
      for (auto& [k, g] : firstOnStream) {
        steps[k].push_back({l.ts, +1, l.call.packed()});
        steps[k].push_back({t_.start(g), -1, g.packed()});
      }
      for (EventRef g : l.gpu) follower[g.packed()] = firstOnStream[streamOf(g)] != g;
    }
    for (auto& [k, v] : steps) {
      std::stable_sort(v.begin(), v.end(),
                       [](const Step& a, const Step& b) { return a.ts != b.ts ? a.ts < b.ts : a.delta > b.delta; });
      int64_t q = 0;
      for (const Step& s : v) {
        q += s.delta;
        if (s.delta > 0) queueAtLaunch[{s.key, k}] = q;
        else queueAtGpu[s.key] = q;
      }
    }
  }

  // cudaEventRecord: the stream it recorded on (from the waits naming it) and the last
  // launch onto that stream before it; that launch's work is what the waits wait for.
  std::unordered_map<int64_t, StreamKey> recordStream;
  for (const SyncEv& y : syncs_)
    if (y.waitOnStream > -1 && y.waitOnRecordCorrelation > -1)
      recordStream.emplace(y.waitOnRecordCorrelation, StreamKey{y.stream.device, y.waitOnStream});
  std::unordered_map<int64_t, EventRef> recordedWork;  // record correlation -> GPU event
  if (!recordStream.empty()) {
    std::map<StreamKey, std::vector<std::pair<TimeNs, EventRef>>> workByStream;  // launch ts, last GPU event
    for (const Launch& l : launches) {
      std::map<StreamKey, EventRef> lastOnStream;
      for (EventRef g : l.gpu) lastOnStream[streamOf(g)] = g;
      for (auto& [k, g] : lastOnStream) workByStream[k].push_back({l.ts, g});
    }
    for (const auto& [correlation, stream] : recordStream) {
      const auto call = callOfCorrelation_.find(correlation);
      if (call == callOfCorrelation_.end() || t_.kind(call->second) != SliceKind::Runtime ||
          t_.name(call->second) != "cudaEventRecord")
        continue;
      const auto& work = workByStream[stream];
      auto it = std::upper_bound(work.begin(), work.end(), t_.start(call->second),
                                 [](TimeNs ts, const std::pair<TimeNs, EventRef>& w) { return ts < w.first; });
      if (it != work.begin()) recordedWork.emplace(correlation, std::prev(it)->second);
    }
  }
  // cudaStreamWaitEvent: the next launch from the same thread onto the waiting stream.
  const auto nextLaunchFrom = [&](EventRef call, const StreamKey& k) -> std::optional<EventRef> {
    const TimeNs ts = t_.start(call);
    auto it =
        std::lower_bound(launches.begin(), launches.end(), ts, [](const Launch& l, TimeNs v) { return l.ts < v; });
    for (; it != launches.end(); ++it) {
      if (it->call.track != call.track) continue;
      for (EventRef g : it->gpu)
        if (streamOf(g) == k) return g;
    }
    return std::nullopt;
  };

  // Kernels by start, sync events by end (a stream sync overlapping a copy follows it).
  struct Item {
    TimeNs sortTs;
    uint32_t ev = kNone;    // a GPU event
    uint32_t sync = kNone;  // or a sync event
  };
  recordsMatched_ = recordedWork.size();
  std::unordered_map<uint32_t, uint32_t> kernelSync;  // waiting GPU ev -> ev it waits for
  if (!sawSyncEvents_) inferStreamWaits(kernelSync);
  std::vector<Item> items;
  for (uint32_t i = 0; i < evs_.size(); ++i)
    if (evs_[i].gpu) items.push_back({evs_[i].ts, i, kNone});
  for (uint32_t y = 0; y < syncs_.size(); ++y) items.push_back({t_.end(syncs_[y].ref), kNone, y});
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.sortTs < b.sortTs; });

  std::map<StreamKey, uint32_t> lastOnStream;  // end node of the stream's last kernel
  for (const Item& item : items) {
    if (item.sync != kNone) {
      const SyncEv& y = syncs_[item.sync];
      if (y.name == "Stream Wait Event" || y.name == "Event Sync") {
        const auto work = recordedWork.find(y.waitOnRecordCorrelation);
        if (y.waitOnRecordCorrelation < 0 || work == recordedWork.end()) continue;
        const uint32_t src = evIndexOf(work->second);
        if (y.name == "Stream Wait Event") {
          if (const auto dest = nextLaunchFrom(y.runtime, y.stream)) {
            const uint32_t d = evIndexOf(*dest);
            if (d != kNone) kernelSync[d] = src;
          }
        } else if (src != kNone && y.runtimeEv != kNone && evs_[y.runtimeEv].endNode != kNone) {
          addEdge(evs_[src].endNode, evs_[y.runtimeEv].endNode, CpEdgeType::Sync);
        }
        continue;
      }
      if (y.runtimeEv == kNone || evs_[y.runtimeEv].endNode == kNone) continue;
      const uint32_t callEnd = evs_[y.runtimeEv].endNode;
      if (y.name == "Context Sync") {
        for (auto& [k, n] : lastOnStream)
          if (k.device == y.stream.device || y.stream.device == kNoId) addEdge(n, callEnd, CpEdgeType::Sync);
      } else if (y.name == "Stream Sync") {
        if (auto it = lastOnStream.find(y.stream); it != lastOnStream.end())
          addEdge(it->second, callEnd, CpEdgeType::Sync);
      }
      continue;
    }
    const uint32_t k = item.ev;
    const Ev& e = evs_[k];
    const StreamKey stream = streamOf(e.ref);
    addEdge(e.startNode, e.endNode, CpEdgeType::Operator, false, k);
    const std::optional<EventRef> launchRef = launchOf(t_, e.ref);
    const uint32_t launchEv = launchRef ? evIndexOf(*launchRef) : kNone;
    const uint32_t launchStart = launchEv != kNone ? evs_[launchEv].startNode : kNone;
    const TimeNs launchTs = launchRef ? t_.start(*launchRef) : e.ts;

    uint32_t syncEnd = kNone;
    if (auto it = kernelSync.find(k); it != kernelSync.end()) {
      if (it->second != kNone && evs_[it->second].endNode != kNone) {
        syncEnd = evs_[it->second].endNode;
        addEdge(syncEnd, e.startNode, CpEdgeType::Sync);
      }
      kernelSync.erase(it);
    }
    const auto last = lastOnStream.find(stream);
    const bool hasLast = last != lastOnStream.end();
    if (follower[e.ref.packed()]) {
      if (hasLast) addEdge(last->second, e.startNode, CpEdgeType::KernelKernelDelay, false, nodeEv(last->second));
      else if (launchStart != kNone) addEdge(launchStart, e.startNode, CpEdgeType::LaunchDelay);
    } else {
      const int64_t qLaunch = launchRef ? queueAtLaunch[{launchRef->packed(), stream}] : -1;
      const int64_t qGpu = queueAtGpu[e.ref.packed()];
      if (qLaunch == 1 && qGpu == 0 && (!hasLast || nodeTs(last->second) < launchTs) &&
          (syncEnd == kNone || nodeTs(syncEnd) < launchTs) && launchStart != kNone) {
        addEdge(launchStart, e.startNode, CpEdgeType::LaunchDelay);
      } else if (hasLast && (e.ts - nodeTs(last->second) < kKernelKernelDelayMax || !sawSyncEvents_) &&
                 (syncEnd == kNone || nodeTs(syncEnd) < nodeTs(last->second))) {
        // HTA leaves a kernel queued behind a gap of 1.5 ms or more unlinked: with sync events
        // the wait that caused the gap has its own edge. Without them the gap's cause is not
        // in the trace, and an unlinked kernel cut the path short (it ended at 48.9 of
        // 87 ms on TraceLens' MI300X DDP step): the stream's order is a real dependency,
        // so the kernel follows the one before it, the gap counted as a kernel gap.
        addEdge(last->second, e.startNode, CpEdgeType::KernelKernelDelay, false, nodeEv(last->second));
      }
    }
    lastOnStream[stream] = e.endNode;
  }
}

// The waits a trace without sync events leaves implicit (cp_inferred_waits.h).
std::vector<GpuWork> Builder::gpuWork() const {
  std::vector<GpuWork> work;
  for (uint32_t i = 0; i < evs_.size(); ++i) {
    if (!evs_[i].gpu || evs_[i].endNode == kNone) continue;
    const Track& tr = t_.tracks[evs_[i].ref.track];
    work.push_back({tr.device, tr.stream != kNoId ? tr.stream : static_cast<int64_t>(evs_[i].ref.track), evs_[i].ts,
                    t_.end(evs_[i].ref), i});
  }
  return work;
}

void Builder::inferStreamWaits(std::unordered_map<uint32_t, uint32_t>& kernelSync) const {
  for (const auto& [waiting, waitedFor] : opscope::inferStreamWaits(gpuWork())) kernelSync.emplace(waiting, waitedFor);
}

void Builder::inferredWaitEdges() {
  std::vector<char> hasSyncEvent(evs_.size(), 0);
  for (const SyncEv& y : syncs_)
    if (y.runtimeEv != kNone) hasSyncEvent[y.runtimeEv] = 1;
  std::vector<BlockingCall> calls;
  for (uint32_t i = 0; i < evs_.size(); ++i) {
    const Ev& c = evs_[i];
    if (c.gpu || c.endNode == kNone || hasSyncEvent[i] ||
        (t_.kind(c.ref) != SliceKind::Runtime && t_.kind(c.ref) != SliceKind::Driver))
      continue;
    const CallWaits w = callWaitsFor(t_.name(c.ref));
    if (w != CallWaits::Nothing) calls.push_back({t_.tracks[c.ref.track].device, c.ts, t_.end(c.ref), i, w});
  }
  const InferredCallWaits inferred = inferCallWaits(gpuWork(), calls);
  for (const auto& [gpu, call] : inferred.edges) addEdge(evs_[gpu].endNode, evs_[call].endNode, CpEdgeType::Sync);
  inferredWaits_ = inferred.callsTied;
}

}  // namespace opscope::cp_detail
