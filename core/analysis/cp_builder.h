#pragma once
// The critical path's builder (analysis/critical_path.h), shared by the files that make
// its parts: critical_path.cpp (the events, nodes, CPU edges, the path) and
// cp_gpu_edges.cpp (the GPU side's edges, found beside the call stacks'). Internal: no
// other file includes it.
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/cp_graph.h"
#include "analysis/cp_inferred_waits.h"
#include "analysis/critical_path.h"
#include "model/trace.h"

namespace opscope::cp_detail {

inline constexpr uint32_t kNone = ~0u;
// Kernels further apart than this on a stream are not chained by a kernel-kernel edge
// (HTA's KERNEL_KERNEL_DELAY_THRESHOLD_US).
inline constexpr TimeNs kKernelKernelDelayMax = 1'500'000;

// 16 bytes: the event's start, end, kind and name are read from the trace by ref (32
// bytes an event held 37 MB more on 1 GB, 48 bytes 75 MB more); its nodes and flags in
// the bits left.
inline constexpr uint32_t kNoNode = (1u << 31) - 1;  // an event without nodes (annotations)
struct Ev {
  EventRef ref;
  uint32_t startNode : 31 = kNoNode;
  uint32_t gpu : 1 = 0;
  uint32_t endNode : 31 = kNoNode;
  uint32_t lock : 1 = 0;  // a runtime call holding the CUDA runtime lock
};
static_assert(sizeof(Ev) == 16);

using Edge = CpGraph::Edge;

// An edge added on a thread beside the graph's: kept, then added to the graph in the
// order the one-thread build adds it (the graph's node and edge order decide ties).
struct PendingEdge {
  uint32_t u, v, attr;
  CpEdgeType type;
  bool zeroWeight;
};
// Where this thread's edges go while the GPU edges are found beside the call stacks'
// (null: straight into the graph).
inline thread_local std::vector<PendingEdge>* tlsPending = nullptr;

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

// Launches and the streams' queue lengths over the whole trace (HTA's TraceCounters),
// read by the GPU edges. Made from the trace alone (its launch links, the GPU events'
// streams and starts), nothing the builder makes, so beside the events' collection and
// nodes (Builder::run); freed once the GPU edges are found. Kept as sorted arrays (a
// tree, two hash maps and a vector a launch put 28 MB more on the peak of 1 GB), written
// in the order a map's entries were assigned and read as the last assignment of a key.
struct GpuQueues {
  // A launch, with the GPU events it started (a range of the launch links, which are
  // sorted by launch): by start.
  struct Launch {
    EventRef call;
    TimeNs ts;
    uint32_t first, count;  // launchToGpu[first, first + count)
  };
  struct LaunchQueue {
    uint64_t launch;
    StreamKey stream;
    int64_t queue;  // after the launch
    auto key() const { return std::make_pair(launch, stream); }
  };
  struct GpuQueue {
    uint64_t gpu;
    int64_t queue;  // after it starts (the first of its launch on its stream)
  };
  struct GpuFollower {
    uint64_t gpu;
    bool follower;  // not the first of its launch on its stream
  };
  std::vector<Launch> launches;
  std::vector<LaunchQueue> atLaunch;   // by (launch, stream)
  std::vector<GpuQueue> atGpu;         // by GPU event
  std::vector<GpuFollower> followers;  // by GPU event
};

class Builder {
 public:
  Builder(const Trace& trace, const CriticalPathWindow& window, CriticalPathThreads threads)
      : t_(trace), w_(window), threads_(threads) {}

  CriticalPath run();

 private:
  void collect();
  void makeNodes();
  void addEdge(uint32_t u, uint32_t v, CpEdgeType type, bool zeroWeight = false, uint32_t attr = kNone) {
    if (u == v) return;
    if (tlsPending) tlsPending->push_back({u, v, attr, type, zeroWeight});
    else graph_->add(u, nodeTs(u), v, nodeTs(v), type, zeroWeight, attr);
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
  // queues_ from the launch links (reads nothing else the builder makes).
  void gpuQueues();
  void gpuEdges();
  StreamKey streamOf(EventRef gpu) const;
  EventRef gpuOf(const GpuQueues::Launch& l, uint32_t j) const {
    return EventRef::unpack(t_.links.launchToGpu[l.first + j].second);
  }
  // callStackEdges and gpuEdges, the second on a thread of its own for a large window:
  // they share only what collect and makeNodes made, which both only read.
  void callStackAndGpuEdges();
  void inferredWaitEdges();
  void inferStreamWaits(std::unordered_map<uint32_t, uint32_t>& kernelSync) const;
  std::vector<GpuWork> gpuWork() const;
  CriticalPath pathOf(const std::vector<uint32_t>& nodePath);
  // Not const: it remembers which kernel names are collectives (collectiveName_).
  CpCategory categoryOf(const Edge& e);

  const Trace& t_;
  CriticalPathWindow w_;
  CriticalPathThreads threads_;  // from this many events the GPU edges are found beside the call stacks'
  std::vector<Ev> evs_;          // the window's CPU and GPU events, by start then ref (evIndexOf)
  // The index of the event r in evs_ (sorted by start, then ref), or kNone: a binary
  // search, no index of its own (a sorted (ref, index) array took 38 MB on 1 GB).
  uint32_t evIndexOf(EventRef r) const {
    const TimeNs ts = t_.start(r);
    const auto it =
        std::lower_bound(evs_.begin(), evs_.end(), std::make_pair(ts, r), [&](const Ev& e, const auto& key) {
          const TimeNs ets = t_.start(e.ref);
          return ets != key.first ? ets < key.first : e.ref < key.second;
        });
    return it != evs_.end() && it->ref == r ? static_cast<uint32_t>(it - evs_.begin()) : kNone;
  }
  std::vector<SyncEv> syncs_;
  GpuQueues queues_;
  // Runtime and driver calls by correlation id, whole trace, as (correlation, ref) sorted
  // (the first call of an id first): made only when the trace has sync events, the one
  // thing they are looked up for.
  std::vector<std::pair<int64_t, uint64_t>> callOfCorrelation_;
  std::optional<EventRef> callOfCorrelation(int64_t correlation) const {
    const auto it = std::lower_bound(callOfCorrelation_.begin(), callOfCorrelation_.end(),
                                     std::make_pair(correlation, uint64_t{0}));
    if (it == callOfCorrelation_.end() || it->first != correlation) return std::nullopt;
    return EventRef::unpack(it->second);
  }
  // A node is its event and which end of it (ev << 1 | isStart), 4 bytes: its time is
  // the event's (16 bytes a node held 66 MB more on 1 GB).
  std::vector<uint32_t> nodes_;
  uint32_t nodeEv(uint32_t n) const { return nodes_[n] >> 1; }
  bool nodeIsStart(uint32_t n) const { return nodes_[n] & 1; }
  // The time of a node given as its value (ev << 1 | isStart), and of node n.
  TimeNs packedNodeTs(uint32_t v) const { return v & 1 ? t_.start(evs_[v >> 1].ref) : t_.end(evs_[v >> 1].ref); }
  TimeNs nodeTs(uint32_t n) const { return packedNodeTs(nodes_[n]); }
  std::unique_ptr<CpGraph> graph_;
  bool sawSyncEvents_ = false;
  size_t recordsMatched_ = 0;
  size_t inferredWaits_ = 0;
  // Whether a kernel name is a collective, decided once per name (2: not yet): the
  // test lowers the name's letters, for each of 10^5 kernel segments on 1 GB.
  std::vector<uint8_t> collectiveName_;
};

}  // namespace opscope::cp_detail
