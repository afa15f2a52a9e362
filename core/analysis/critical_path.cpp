#include "analysis/critical_path.h"

#include "analysis/cp_call_stack.h"
#include "analysis/cp_graph.h"
#include "analysis/cp_inferred_waits.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

#include "hierarchy/iterations.h"
#include "hierarchy/queries.h"
#include "ranks/rank_metrics.h"

namespace opscope {
namespace {

constexpr uint32_t kNone = ~0u;
// Kernels further apart than this on a stream are not chained by a kernel-kernel edge
// (HTA's KERNEL_KERNEL_DELAY_THRESHOLD_US).
constexpr TimeNs kKernelKernelDelayMax = 1'500'000;

// 32 bytes: the event's end, kind and name are read from the trace by ref (48 bytes an
// event held 38 MB more on 1 GB); its start is kept, the key of every sort.
struct Ev {
  EventRef ref;
  TimeNs ts = 0;
  uint32_t startNode = kNone, endNode = kNone;
  uint32_t parent = kNone;  // CPU: enclosing event of the call stack (any kind)
  bool gpu = false;
  bool lock = false;
};

using Edge = CpGraph::Edge;

struct StreamKey {
  int64_t device = kNoId, stream = kNoId;
  friend auto operator<=>(const StreamKey&, const StreamKey&) = default;
};

// A cuda_sync event (Stream Sync, Context Sync, Event Sync, Stream Wait Event) and the
// runtime call it belongs to.
struct SyncEv {
  EventRef ref;
  uint32_t runtimeEv = kNone;  // the call, when it is in the window
  EventRef runtime;
  StreamKey stream;
  std::string_view name;
  int64_t waitOnStream = -1;
  int64_t waitOnRecordCorrelation = -1;
};

class Builder {
 public:
  Builder(const Trace& trace, const CriticalPathWindow& window) : t_(trace), w_(window) {}

  CriticalPath run();

 private:
  void collect();
  void makeNodes();
  void addEdge(uint32_t u, uint32_t v, CpEdgeType type, bool zeroWeight = false, uint32_t attr = kNone) {
    if (u == v) return;
    graph_->add(u, nodeTs(u), v, nodeTs(v), type, zeroWeight, attr);
  }
  // HTA's edge attribution for op nesting: start->x lies in the start's event, x->end
  // in the end's event, end->start (between siblings) in their parent.
  uint32_t attribute(uint32_t u, uint32_t v, uint32_t srcParent) const {
    if (nodeIsStart(u)) return nodeEv(u);
    if (!nodeIsStart(v)) return nodeEv(v);
    return srcParent;
  }
  bool sharesLock(uint32_t a, uint32_t b) const {
    return evs_[nodeEv(a)].lock && evs_[nodeEv(b)].lock && (nodeIsStart(a) || !nodeIsStart(b));
  }
  void lockEdges();
  void callStackEdges();
  void gpuEdges();
  void inferredWaitEdges();
  void inferStreamWaits(std::unordered_map<uint32_t, uint32_t>& kernelSync) const;
  std::vector<GpuWork> gpuWork() const;
  CriticalPath pathOf(const std::vector<uint32_t>& nodePath);
  CpCategory categoryOf(const Edge& e) const;

  const Trace& t_;
  CriticalPathWindow w_;
  std::vector<Ev> evs_;                              // CPU events of the window, then GPU events
  std::vector<std::pair<uint64_t, uint32_t>> evOf_;  // (ref, evs_ index) by ref; a hash map took 85 MB
  uint32_t evIndexOf(EventRef r) const {
    const auto it = std::lower_bound(evOf_.begin(), evOf_.end(), std::make_pair(r.packed(), 0u));
    return it != evOf_.end() && it->first == r.packed() ? it->second : kNone;
  }
  std::vector<SyncEv> syncs_;
  std::unordered_map<int64_t, EventRef> callOfCorrelation_;  // runtime / driver calls, whole trace
  // A node is its event and which end of it (ev << 1 | isStart), 4 bytes: its time is
  // the event's (16 bytes a node held 66 MB more on 1 GB).
  std::vector<uint32_t> nodes_;
  uint32_t nodeEv(uint32_t n) const { return nodes_[n] >> 1; }
  bool nodeIsStart(uint32_t n) const { return nodes_[n] & 1; }
  // The time of a node given as its value (ev << 1 | isStart), and of node n.
  TimeNs packedNodeTs(uint32_t v) const { return v & 1 ? evs_[v >> 1].ts : t_.end(evs_[v >> 1].ref); }
  TimeNs nodeTs(uint32_t n) const { return packedNodeTs(nodes_[n]); }
  std::unique_ptr<CpGraph> graph_;
  bool sawSyncEvents_ = false;
  size_t recordsMatched_ = 0;
  size_t inferredWaits_ = 0;
};

void Builder::collect() {
  const auto inWindow = [&](TimeNs ts) { return ts >= w_.start && ts <= w_.end; };
  // Reserved once, a bound (the window's thread slices and every launched GPU event).
  size_t bound = t_.links.gpuToLaunch.size();
  for (const Track& tr : t_.tracks)
    if (tr.kind == TrackKind::Thread) {
      const SliceColumns& s = tr.slices;
      const size_t last = w_.end < std::numeric_limits<TimeNs>::max() ? s.lowerBound(w_.end + 1) : s.size();
      bound += last - std::min(last, s.lowerBound(w_.start));
    }
  evs_.reserve(bound);
  // CPU events starting in the window with a length (HTA leaves zero-length ones out:
  // they break its call stacks), every kind: annotations shape the nesting too.
  // Whether a name is a lock call, decided once per name (2: not yet).
  std::vector<uint8_t> lockName(t_.strings.size(), 2);
  const auto isLock = [&](StringId n) {
    if (lockName[n] == 2) lockName[n] = isLockCall(t_.str(n)) ? 1 : 0;
    return lockName[n] == 1;
  };
  for (uint32_t ti = 0; ti < t_.tracks.size(); ++ti) {
    const Track& tr = t_.tracks[ti];
    if (tr.kind != TrackKind::Thread) continue;
    const SliceColumns& s = tr.slices;
    for (size_t i = s.lowerBound(w_.start); i < s.size() && s.start[i] <= w_.end; ++i) {
      if (s.dur[i] <= 0 || s.kind[i] == SliceKind::Sync) continue;
      Ev e;
      e.ref = {ti, static_cast<uint32_t>(i)};
      e.ts = s.start[i];
      e.lock = (s.kind[i] == SliceKind::Runtime || s.kind[i] == SliceKind::Driver) && isLock(s.name[i]);
      evs_.push_back(e);
    }
  }
  // GPU events whose launch starts in the window.
  for (const LaunchLinks::Pair& p : t_.links.gpuToLaunch) {
    const EventRef g = EventRef::unpack(p.first), l = EventRef::unpack(p.second);
    if (!inWindow(t_.start(l)) || t_.dur(l) <= 0) continue;
    Ev e;
    e.ref = g;
    e.ts = t_.start(g);
    e.gpu = true;
    evs_.push_back(e);
  }
  // Without sync events, GPU work launched before profiling began (no launch in the trace)
  // joins too: it holds its stream, and the stream's order is what carries the path (see
  // gpuEdges); HTA leaves it out, and so do we when sync events tie the streams.
  for (uint32_t ti = 0; ti < t_.tracks.size() && !sawSyncEvents_; ++ti)
    for (size_t i = 0; i < t_.tracks[ti].slices.size(); ++i)
      if (t_.tracks[ti].slices.kind[i] == SliceKind::Sync) sawSyncEvents_ = true;
  if (!sawSyncEvents_) {
    // gpuToLaunch is sorted by GPU ref and the streams are walked in ref order: one cursor
    // tells the linked events apart (a hash set of a million refs took 0.1 s on 1 GB).
    const auto& linked = t_.links.gpuToLaunch;
    size_t at = 0;
    for (uint32_t ti = 0; ti < t_.tracks.size(); ++ti) {
      const Track& tr = t_.tracks[ti];
      if (tr.kind != TrackKind::GpuStream) continue;
      const SliceColumns& s = tr.slices;
      for (size_t i = s.lowerBound(w_.start); i < s.size() && s.start[i] <= w_.end; ++i) {
        const EventRef g{ti, static_cast<uint32_t>(i)};
        while (at < linked.size() && linked[at].first < g.packed()) ++at;
        if (!isGpuKind(s.kind[i]) || (at < linked.size() && linked[at].first == g.packed())) continue;
        Ev e;
        e.ref = g;
        e.ts = s.start[i];
        e.gpu = true;
        evs_.push_back(e);
      }
    }
  }
  // By start, then where the event lives (HTA's event index is by start): a total order
  // (an event is collected once), sorted in place without a stable sort's buffer.
  std::sort(evs_.begin(), evs_.end(), [](const Ev& a, const Ev& b) {
    if (a.ts != b.ts) return a.ts < b.ts;
    return a.ref < b.ref;
  });
  evOf_.reserve(evs_.size());
  for (uint32_t i = 0; i < evs_.size(); ++i) evOf_.emplace_back(evs_[i].ref.packed(), i);
  std::sort(evOf_.begin(), evOf_.end());

  // cuda_sync events and their calls (by correlation id).
  for (uint32_t ti = 0; ti < t_.tracks.size(); ++ti) {
    const SliceColumns& s = t_.tracks[ti].slices;
    for (size_t i = 0; i < s.size(); ++i)
      if ((s.kind[i] == SliceKind::Runtime || s.kind[i] == SliceKind::Driver) && s.correlation[i] != kNoId)
        callOfCorrelation_.emplace(s.correlation[i], EventRef{ti, static_cast<uint32_t>(i)});
  }
  for (uint32_t ti = 0; ti < t_.tracks.size(); ++ti) {
    const Track& tr = t_.tracks[ti];
    const SliceColumns& s = tr.slices;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s.kind[i] != SliceKind::Sync) continue;
      const auto call = callOfCorrelation_.find(s.correlation[i]);
      if (call == callOfCorrelation_.end()) continue;
      SyncEv y;
      y.ref = {ti, static_cast<uint32_t>(i)};
      y.runtime = call->second;
      y.name = t_.str(s.name[i]);
      const bool callInWindow = inWindow(t_.start(y.runtime)) && t_.dur(y.runtime) > 0;
      if (!callInWindow && y.name != "Stream Wait Event") continue;
      y.runtimeEv = evIndexOf(y.runtime);
      const std::vector<NamedArg> args = t_.args(y.ref);
      y.stream = {intArg(args, "device").value_or(tr.device), intArg(args, "stream").value_or(tr.stream)};
      y.waitOnStream = intArg(args, "wait_on_stream").value_or(-1);
      y.waitOnRecordCorrelation = intArg(args, "wait_on_cuda_event_record_corr_id").value_or(-1);
      syncs_.push_back(y);
    }
  }
}

void Builder::makeNodes() {
  for (uint32_t i = 0; i < evs_.size(); ++i) {
    const SliceKind kind = t_.kind(evs_[i].ref);
    if (!evs_[i].gpu && kind != SliceKind::CpuOp && kind != SliceKind::Runtime && kind != SliceKind::Driver) continue;
    nodes_.push_back(i << 1 | 1);
    nodes_.push_back(i << 1);
  }
  // By time, then event, then start before end (the order they were added in): total.
  // Sorted as (time, key) pairs, the key ordering event then start first: a comparator
  // reading each node's time from the trace's columns was the slowest sort on 1 GB.
  {
    std::vector<std::pair<TimeNs, uint32_t>> keyed(nodes_.size());
    for (size_t k = 0; k < nodes_.size(); ++k) keyed[k] = {packedNodeTs(nodes_[k]), nodes_[k] ^ 1u};
    std::sort(keyed.begin(), keyed.end());
    for (size_t k = 0; k < nodes_.size(); ++k) nodes_[k] = keyed[k].second ^ 1u;
  }
  for (uint32_t n = 0; n < nodes_.size(); ++n)
    (nodeIsStart(n) ? evs_[nodeEv(n)].startNode : evs_[nodeEv(n)].endNode) = n;
  graph_ = std::make_unique<CpGraph>(nodes_.size(), [this](uint32_t n) { return nodeTs(n); });
}

// Calls holding the CUDA runtime lock run one at a time across threads; who held it is
// read from the order they finish. Each finishing call depends on every lock call that
// started since the previous one finished, and on that previous finish.
void Builder::lockEdges() {
  std::vector<uint32_t> started;
  uint32_t last = kNone;
  for (uint32_t n = 0; n < nodes_.size(); ++n) {
    if (!evs_[nodeEv(n)].lock) continue;
    if (nodeIsStart(n)) {
      started.push_back(n);
    } else {
      while (!started.empty()) {
        const uint32_t p = started.back();
        started.pop_back();
        if (nodeEv(p) == nodeEv(n)) addEdge(p, n, CpEdgeType::Operator, false, nodeEv(n));
        else addEdge(p, n, CpEdgeType::Dependency);
      }
      if (last != kNone && !nodeIsStart(last)) addEdge(last, n, CpEdgeType::Dependency);
    }
    last = n;
  }
}

// HTA's call stacks: per thread, start/end points swept in time order (at one instant
// ends before starts, longer first among starts), each start nested in the innermost
// open event. The depth-first walk then chains the op and call nodes.
void Builder::callStackEdges() {
  // One stack per thread track; the backward thread folds into the forward thread when
  // exactly one thread has "forward" ops and exactly one has "autograd" ones.
  const auto soleTrackWith = [&](std::string_view word) -> uint32_t {
    uint32_t found = kNone;
    for (const Ev& e : evs_) {
      if (e.gpu || (t_.kind(e.ref) != SliceKind::CpuOp && t_.kind(e.ref) != SliceKind::UserAnnotation)) continue;
      if (t_.name(e.ref).find(word) == std::string_view::npos) continue;
      if (found == kNone) found = e.ref.track;
      else if (found != e.ref.track) return kNone;
    }
    return found;
  };
  const uint32_t fwd = soleTrackWith("forward"), bwd = soleTrackWith("autograd");
  std::map<uint32_t, std::vector<uint32_t>> stacks;
  for (uint32_t i = 0; i < evs_.size(); ++i) {
    if (evs_[i].gpu) continue;
    uint32_t track = evs_[i].ref.track;
    if (fwd != kNone && bwd != kNone && track == bwd) track = fwd;
    stacks[track].push_back(i);
  }
  // Every stack swept first (parents, roots, starts in order), then the children as one
  // array in start order (a vector an event took 200 MB on 1 GB), then the walks in stack
  // order, adding the edges in the order they always were.
  std::vector<std::vector<uint32_t>> rootsOf;
  rootsOf.reserve(stacks.size());
  std::vector<uint32_t> startOrder;
  for (auto& [track, members] : stacks) {
    std::vector<uint32_t>& roots = rootsOf.emplace_back();
    sweepCallStack(
        members, [&](uint32_t i) { return evs_[i].ts; }, [&](uint32_t i) { return t_.end(evs_[i].ref); },
        [&](uint32_t ev, uint32_t parent) {
          evs_[ev].parent = parent;
          (parent == kNone ? roots : startOrder).push_back(ev);
        });
  }
  std::vector<uint32_t> childAt(evs_.size() + 1, 0);
  for (uint32_t ev : startOrder) ++childAt[evs_[ev].parent + 1];
  for (size_t k = 0; k < evs_.size(); ++k) childAt[k + 1] += childAt[k];
  std::vector<uint32_t> children(startOrder.size());
  {
    std::vector<uint32_t> fill(childAt.begin(), childAt.end() - 1);
    for (uint32_t ev : startOrder) children[fill[evs_[ev].parent]++] = ev;
  }
  std::vector<uint32_t>().swap(startOrder);
  for (const std::vector<uint32_t>& roots : rootsOf) {
    // Depth-first walk, iteratively (stacks can be thousands deep in hostile files).
    uint32_t last = kNone;
    int depth = 0;
    const auto enter = [&](uint32_t ev) {
      const Ev& e = evs_[ev];
      if (e.startNode == kNone) return;
      if (last != kNone && !sharesLock(last, e.startNode)) {
        const CpEdgeType type = depth == 0 ? CpEdgeType::Dependency : CpEdgeType::Operator;
        addEdge(last, e.startNode, type, false,
                type == CpEdgeType::Operator ? attribute(last, e.startNode, evs_[nodeEv(last)].parent) : kNone);
      }
      last = e.startNode;
      ++depth;
    };
    const auto exit = [&](uint32_t ev) {
      const Ev& e = evs_[ev];
      if (e.startNode == kNone) return;
      if (last != kNone && !sharesLock(last, e.endNode))
        addEdge(last, e.endNode, CpEdgeType::Operator, isBlockingCall(t_.name(e.ref)),
                attribute(last, e.endNode, evs_[nodeEv(last)].parent));
      last = e.endNode;
      --depth;
    };
    struct Frame {
      uint32_t ev;
      size_t next;
    };
    std::vector<Frame> walk;
    for (uint32_t root : roots) {
      enter(root);
      walk.push_back({root, 0});
      while (!walk.empty()) {
        Frame& f = walk.back();
        if (childAt[f.ev] + f.next < childAt[f.ev + 1]) {
          const uint32_t c = children[childAt[f.ev] + f.next++];
          enter(c);
          walk.push_back({c, 0});
        } else {
          exit(f.ev);
          walk.pop_back();
        }
      }
    }
  }
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

CpCategory Builder::categoryOf(const Edge& e) const {
  switch (e.type) {
    case CpEdgeType::LaunchDelay:
      return graph_->weight(e) > 0 ? CpCategory::LaunchDelay : CpCategory::Idle;
    case CpEdgeType::KernelKernelDelay:
      return CpCategory::KernelGap;
    case CpEdgeType::Sync:
      return CpCategory::SyncWait;
    case CpEdgeType::Dependency:
      return evs_[nodeEv(e.from)].lock && evs_[nodeEv(e.to)].lock ? CpCategory::Runtime : CpCategory::Idle;
    case CpEdgeType::Operator:
      break;
  }
  if (graph_->weight(e) == 0 && nodeTs(e.to) > nodeTs(e.from)) return CpCategory::SyncWait;  // a blocking call
  const Ev* a = e.attr != kNone ? &evs_[e.attr] : nullptr;
  if (!a) return CpCategory::CpuOp;
  switch (t_.kind(a->ref)) {
    case SliceKind::Runtime:
    case SliceKind::Driver:
      return CpCategory::Runtime;
    case SliceKind::Kernel:
      return isCollectiveKernelName(t_.name(a->ref)) ? CpCategory::Communication : CpCategory::Kernel;
    case SliceKind::Memcpy:
    case SliceKind::Memset:
      return CpCategory::Memcpy;
    default:
      return CpCategory::CpuOp;
  }
}

CriticalPath Builder::pathOf(const std::vector<uint32_t>& nodePath) {
  CriticalPath p;
  p.window = w_;
  p.graphNodes = graph_->nodeCount();
  p.graphEdges = graph_->edges().size();
  for (const Edge& e : graph_->edges()) ++p.graphEdgesByType[static_cast<size_t>(e.type)];
  p.eventRecordsMatched = recordsMatched_;
  p.pathNodes = nodePath.size();
  p.traceHasSyncEvents = sawSyncEvents_;
  p.inferredWaits = inferredWaits_;
  p.traceFormat = t_.meta.format;
  p.clampedNegativeWeights = graph_->clamped;
  if (nodePath.empty()) return p;
  p.start = nodeTs(nodePath.front());
  // The segments counted first and reserved exactly: zero-length steps make none, and a
  // chain of back-to-back ops (10^6 one-event threads) has half as many as nodes; a
  // segment a node held 96 MB there.
  size_t segments = 0;
  // (No std::views::iota here: clang 14 cannot use libstdc++ 12's ranges.)
  TimeNs at = p.start;
  for (size_t i = 1; i < nodePath.size(); ++i)
    if (graph_->find(nodePath[i - 1], nodePath[i]) && nodeTs(nodePath[i]) > at) {
      at = nodeTs(nodePath[i]);
      ++segments;
    }
  p.segments.reserve(segments);
  TimeNs cursor = p.start;
  {
    // The path's events, each once (a node's event, marked in a bitmap): reserved exactly.
    std::vector<bool> onPath(evs_.size(), false);
    size_t count = 0;
    for (uint32_t n : nodePath)
      if (!onPath[nodeEv(n)]) onPath[nodeEv(n)] = true, ++count;
    p.events.reserve(count);
    for (size_t ev = 0; ev < evs_.size(); ++ev)
      if (onPath[ev]) p.events.push_back(evs_[ev].ref.packed());
  }
  for (size_t i = 1; i < nodePath.size(); ++i) {
    const Edge* e = graph_->find(nodePath[i - 1], nodePath[i]);
    if (!e) continue;
    p.weight += graph_->weight(*e);
    const TimeNs to = std::max(cursor, nodeTs(nodePath[i]));
    if (to == cursor) continue;
    CriticalPathSegment s;
    s.start = cursor;
    s.end = to;
    s.category = categoryOf(*e);
    s.edge = e->type;
    const bool inEvent =
        (e->type == CpEdgeType::Operator && graph_->weight(*e) > 0) || e->type == CpEdgeType::KernelKernelDelay;
    if (inEvent && e->attr != kNone) s.event = evs_[e->attr].ref.packed();
    s.from = evs_[nodeEv(e->from)].ref.packed();
    s.to = evs_[nodeEv(e->to)].ref.packed();
    p.byCategory[static_cast<size_t>(s.category)] += to - cursor;
    p.segments.push_back(s);
    cursor = to;
  }
  p.end = cursor;
  std::sort(p.events.begin(), p.events.end());  // kept with the result (the window holds it)
  return p;
}

CriticalPath Builder::run() {
  collect();
  makeNodes();
  lockEdges();
  callStackEdges();
  gpuEdges();
  inferredWaitEdges();
  for (const Ev& e : evs_)
    if (e.gpu) w_.wallEnd = std::max(w_.wallEnd, t_.end(e.ref));
  w_.wallEnd = std::max(w_.wallEnd, w_.end);
  decltype(evOf_)().swap(evOf_);  // looked up while edges are added, not after
  graph_->finish();
  bool cycle = false;
  const std::vector<uint32_t> path = graph_->longestPath(&cycle);
  graph_->dropPathSearch();
  CriticalPath p = pathOf(path);
  if (cycle) p.error = "the dependency graph has a cycle (contradictory timestamps); no critical path";
  else if (path.size() < 2) p.error = "no ops, runtime calls or GPU work in the window";
  return p;
}

}  // namespace

CriticalPath computeCriticalPath(const Trace& trace, const CriticalPathWindow& window) {
  return Builder(trace, window).run();
}

}  // namespace opscope
