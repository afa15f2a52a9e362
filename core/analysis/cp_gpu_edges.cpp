// The critical path's GPU-side edges: kernels on their streams, launches, the sync
// events' waits and the waits a trace without them leaves implicit, found on a thread
// beside the call stacks' edges for a large window (cp_builder.h).
#include <algorithm>
#include <map>
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
  queues_ = GpuQueues();  // read only by gpuEdges: freed before the graph's peak
  for (const PendingEdge& e : pending) addEdge(e.u, e.v, e.type, e.zeroWeight, e.attr);
}

StreamKey Builder::streamOf(EventRef g) const {
  const Track& tr = t_.tracks[g.track];
  return StreamKey{tr.device, tr.stream != kNoId ? tr.stream : static_cast<int64_t>(g.track)};
}

void Builder::gpuQueues() {
  GpuQueues& q = queues_;
  const auto& links = t_.links.launchToGpu;
  for (uint32_t k = 0; k < links.size(); ++k) {
    const EventRef l = EventRef::unpack(links[k].first);
    if (q.launches.empty() || q.launches.back().call != l) q.launches.push_back({l, t_.start(l), k, 0});
    ++q.launches.back().count;
  }
  std::stable_sort(q.launches.begin(), q.launches.end(),
                   [](const GpuQueues::Launch& a, const GpuQueues::Launch& b) { return a.ts < b.ts; });

  // Queue length per stream over the whole trace (HTA's TraceCounters queue length):
  // +1 when a launch enqueues on the stream, -1 when its GPU work starts. A CUDA graph
  // launch counts once per stream, its first event there dequeuing it; the graph's
  // other events there are followers, chained to the one before them on the stream.
  struct Step {
    TimeNs ts;
    int delta;
    uint64_t key;  // launch: call ref; gpu: gpu ref
  };
  std::map<StreamKey, std::vector<Step>> steps;
  std::map<StreamKey, EventRef> firstOnStream;
  q.followers.reserve(links.size());
  for (const GpuQueues::Launch& l : q.launches) {
    firstOnStream.clear();
    for (uint32_t j = 0; j < l.count; ++j) {
      const EventRef g = gpuOf(l, j);
      auto [it, fresh] = firstOnStream.emplace(streamOf(g), g);
      if (!fresh && std::make_pair(t_.start(g), g) < std::make_pair(t_.start(it->second), it->second)) it->second = g;
    }
    for (auto& [k, g] : firstOnStream) {
      steps[k].push_back({l.ts, +1, l.call.packed()});
      steps[k].push_back({t_.start(g), -1, g.packed()});
    }
    for (uint32_t j = 0; j < l.count; ++j) {
      const EventRef g = gpuOf(l, j);
      q.followers.push_back({g.packed(), firstOnStream[streamOf(g)] != g});
    }
  }
  for (auto& [k, v] : steps) {
    std::stable_sort(v.begin(), v.end(),
                     [](const Step& a, const Step& b) { return a.ts != b.ts ? a.ts < b.ts : a.delta > b.delta; });
    int64_t n = 0;
    for (const Step& s : v) {
      n += s.delta;
      if (s.delta > 0) q.atLaunch.push_back({s.key, k, n});
      else q.atGpu.push_back({s.key, n});
    }
    std::vector<Step>().swap(v);
  }
  std::stable_sort(q.atLaunch.begin(), q.atLaunch.end(),
                   [](const GpuQueues::LaunchQueue& a, const GpuQueues::LaunchQueue& b) { return a.key() < b.key(); });
  std::stable_sort(q.followers.begin(), q.followers.end(),
                   [](const GpuQueues::GpuFollower& a, const GpuQueues::GpuFollower& b) { return a.gpu < b.gpu; });
  std::stable_sort(q.atGpu.begin(), q.atGpu.end(),
                   [](const GpuQueues::GpuQueue& a, const GpuQueues::GpuQueue& b) { return a.gpu < b.gpu; });
}

void Builder::gpuEdges() {
  const auto& launches = queues_.launches;
  // The last value assigned to a key, or the default a map's operator[] gave.
  const auto lastOf = [](const auto& sorted, const auto& key, auto keyOf, auto value, auto none) {
    auto it =
        std::upper_bound(sorted.begin(), sorted.end(), key, [&](const auto& k, const auto& e) { return k < keyOf(e); });
    return it != sorted.begin() && keyOf(*std::prev(it)) == key ? value(*std::prev(it)) : none;
  };
  const auto queueAfterLaunch = [&](uint64_t launch, const StreamKey& k) {
    return lastOf(
        queues_.atLaunch, std::make_pair(launch, k), [](const GpuQueues::LaunchQueue& e) { return e.key(); },
        [](const GpuQueues::LaunchQueue& e) { return e.queue; }, int64_t{0});
  };
  const auto queueAfterGpu = [&](uint64_t g) {
    return lastOf(
        queues_.atGpu, g, [](const GpuQueues::GpuQueue& e) { return e.gpu; },
        [](const GpuQueues::GpuQueue& e) { return e.queue; }, int64_t{0});
  };
  const auto isFollower = [&](uint64_t g) {
    return lastOf(
        queues_.followers, g, [](const GpuQueues::GpuFollower& e) { return e.gpu; },
        [](const GpuQueues::GpuFollower& e) { return e.follower; }, false);
  };

  // cudaEventRecord: the stream it recorded on (from the waits naming it) and the last
  // launch onto that stream before it; that launch's work is what the waits wait for.
  std::unordered_map<int64_t, StreamKey> recordStream;
  for (const SyncEv& y : syncs_)
    if (y.waitOnStream > -1 && y.waitOnRecordCorrelation > -1)
      recordStream.emplace(y.waitOnRecordCorrelation, StreamKey{y.stream.device, y.waitOnStream});
  std::unordered_map<int64_t, EventRef> recordedWork;  // record correlation -> GPU event
  if (!recordStream.empty()) {
    std::map<StreamKey, std::vector<std::pair<TimeNs, EventRef>>> workByStream;  // launch ts, last GPU event
    for (const GpuQueues::Launch& l : launches) {
      std::map<StreamKey, EventRef> lastOnStream;
      for (uint32_t j = 0; j < l.count; ++j) lastOnStream[streamOf(gpuOf(l, j))] = gpuOf(l, j);
      for (auto& [k, g] : lastOnStream) workByStream[k].push_back({l.ts, g});
    }
    for (const auto& [correlation, stream] : recordStream) {
      const std::optional<EventRef> call = callOfCorrelation(correlation);
      if (!call || t_.kind(*call) != SliceKind::Runtime || t_.name(*call) != "cudaEventRecord") continue;
      const auto& work = workByStream[stream];
      auto it = std::upper_bound(work.begin(), work.end(), t_.start(*call),
                                 [](TimeNs ts, const std::pair<TimeNs, EventRef>& w) { return ts < w.first; });
      if (it != work.begin()) recordedWork.emplace(correlation, std::prev(it)->second);
    }
  }
  // cudaStreamWaitEvent: the next launch from the same thread onto the waiting stream.
  const auto nextLaunchFrom = [&](EventRef call, const StreamKey& k) -> std::optional<EventRef> {
    const TimeNs ts = t_.start(call);
    auto it = std::lower_bound(launches.begin(), launches.end(), ts,
                               [](const GpuQueues::Launch& l, TimeNs v) { return l.ts < v; });
    for (; it != launches.end(); ++it) {
      if (it->call.track != call.track) continue;
      for (uint32_t j = 0; j < it->count; ++j)
        if (streamOf(gpuOf(*it, j)) == k) return gpuOf(*it, j);
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
    if (evs_[i].gpu) items.push_back({t_.start(evs_[i].ref), i, kNone});
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
        } else if (src != kNone && y.runtimeEv != kNone && evs_[y.runtimeEv].endNode != kNoNode) {
          addEdge(evs_[src].endNode, evs_[y.runtimeEv].endNode, CpEdgeType::Sync);
        }
        continue;
      }
      if (y.runtimeEv == kNone || evs_[y.runtimeEv].endNode == kNoNode) continue;
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
    const TimeNs ets = t_.start(e.ref);
    const StreamKey stream = streamOf(e.ref);
    addEdge(e.startNode, e.endNode, CpEdgeType::Operator, false, k);
    const std::optional<EventRef> launchRef = launchOf(t_, e.ref);
    const uint32_t launchEv = launchRef ? evIndexOf(*launchRef) : kNone;
    const uint32_t launchStart =
        launchEv != kNone && evs_[launchEv].startNode != kNoNode ? evs_[launchEv].startNode : kNone;
    const TimeNs launchTs = launchRef ? t_.start(*launchRef) : ets;

    uint32_t syncEnd = kNone;
    if (auto it = kernelSync.find(k); it != kernelSync.end()) {
      if (it->second != kNone && evs_[it->second].endNode != kNoNode) {
        syncEnd = evs_[it->second].endNode;
        addEdge(syncEnd, e.startNode, CpEdgeType::Sync);
      }
      kernelSync.erase(it);
    }
    const auto last = lastOnStream.find(stream);
    const bool hasLast = last != lastOnStream.end();
    if (isFollower(e.ref.packed())) {
      if (hasLast) addEdge(last->second, e.startNode, CpEdgeType::KernelKernelDelay, false, nodeEv(last->second));
      else if (launchStart != kNone) addEdge(launchStart, e.startNode, CpEdgeType::LaunchDelay);
    } else {
      const int64_t qLaunch = launchRef ? queueAfterLaunch(launchRef->packed(), stream) : -1;
      const int64_t qGpu = queueAfterGpu(e.ref.packed());
      if (qLaunch == 1 && qGpu == 0 && (!hasLast || nodeTs(last->second) < launchTs) &&
          (syncEnd == kNone || nodeTs(syncEnd) < launchTs) && launchStart != kNone) {
        addEdge(launchStart, e.startNode, CpEdgeType::LaunchDelay);
      } else if (hasLast && (ets - nodeTs(last->second) < kKernelKernelDelayMax || !sawSyncEvents_) &&
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
    if (!evs_[i].gpu || evs_[i].endNode == kNoNode) continue;
    const Track& tr = t_.tracks[evs_[i].ref.track];
    work.push_back({tr.device, tr.stream != kNoId ? tr.stream : static_cast<int64_t>(evs_[i].ref.track),
                    t_.start(evs_[i].ref), t_.end(evs_[i].ref), i});
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
    if (c.gpu || c.endNode == kNoNode || hasSyncEvent[i] ||
        (t_.kind(c.ref) != SliceKind::Runtime && t_.kind(c.ref) != SliceKind::Driver))
      continue;
    const CallWaits w = callWaitsFor(t_.name(c.ref));
    if (w != CallWaits::Nothing) calls.push_back({t_.tracks[c.ref.track].device, t_.start(c.ref), t_.end(c.ref), i, w});
  }
  const InferredCallWaits inferred = inferCallWaits(gpuWork(), calls);
  for (const auto& [gpu, call] : inferred.edges) addEdge(evs_[gpu].endNode, evs_[call].endNode, CpEdgeType::Sync);
  inferredWaits_ = inferred.callsTied;
}

}  // namespace opscope::cp_detail
