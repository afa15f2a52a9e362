#include "analysis/critical_path.h"

#include "analysis/cp_builder.h"
#include "analysis/cp_call_stack.h"
#include "analysis/cp_graph.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "hierarchy/iterations.h"
#include "hierarchy/queries.h"
#include "model/sorted_runs.h"
#include "model/two_threads.h"
#include "ranks/rank_metrics.h"

namespace opscope {
namespace cp_detail {

void Builder::collect() {
  const auto inWindow = [&](TimeNs ts) { return ts >= w_.start && ts <= w_.end; };
  // Collected with their start, the sort key, then kept without it. Reserved once, a
  // bound (the window's thread slices and every launched GPU event).
  struct Keyed {
    TimeNs ts;
    Ev ev;
  };
  std::vector<Keyed> keyed;
  size_t bound = t_.links.gpuToLaunch.size();
  for (const Track& tr : t_.tracks)
    if (tr.kind == TrackKind::Thread) {
      const SliceColumns& s = tr.slices;
      const size_t last = w_.end < std::numeric_limits<TimeNs>::max() ? s.lowerBound(w_.end + 1) : s.size();
      bound += last - std::min(last, s.lowerBound(w_.start));
    }
  keyed.reserve(bound);
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
      e.lock = (s.kind[i] == SliceKind::Runtime || s.kind[i] == SliceKind::Driver) && isLock(s.name[i]);
      keyed.push_back({s.start[i], e});
    }
  }
  // GPU events whose launch starts in the window.
  for (const LaunchLinks::Pair& p : t_.links.gpuToLaunch) {
    const EventRef g = EventRef::unpack(p.first), l = EventRef::unpack(p.second);
    if (!inWindow(t_.start(l)) || t_.dur(l) <= 0) continue;
    Ev e;
    e.ref = g;
    e.gpu = true;
    keyed.push_back({t_.start(g), e});
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
        e.gpu = true;
        keyed.push_back({s.start[i], e});
      }
    }
  }
  // By start, then where the event lives (HTA's event index is by start): a total order
  // (an event is collected once). Each track's events were collected in that order, so
  // the collection is a few sorted runs, one a thread or stream: merged (sorted_runs.h).
  sortRuns(keyed, [](const Keyed& a, const Keyed& b) { return a.ts != b.ts ? a.ts < b.ts : a.ev.ref < b.ev.ref; });
  evs_.reserve(keyed.size());
  for (const Keyed& k : keyed) evs_.push_back(k.ev);
  decltype(keyed)().swap(keyed);

  // cuda_sync events and their calls (by correlation id).
  if (!sawSyncEvents_) return;
  for (uint32_t ti = 0; ti < t_.tracks.size(); ++ti) {
    const SliceColumns& s = t_.tracks[ti].slices;
    for (size_t i = 0; i < s.size(); ++i)
      if ((s.kind[i] == SliceKind::Runtime || s.kind[i] == SliceKind::Driver) && s.correlation[i] != kNoId)
        callOfCorrelation_.emplace_back(s.correlation[i], EventRef{ti, static_cast<uint32_t>(i)}.packed());
  }
  std::sort(callOfCorrelation_.begin(), callOfCorrelation_.end());
  for (uint32_t ti = 0; ti < t_.tracks.size(); ++ti) {
    const Track& tr = t_.tracks[ti];
    const SliceColumns& s = tr.slices;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s.kind[i] != SliceKind::Sync) continue;
      const std::optional<EventRef> call = callOfCorrelation(s.correlation[i]);
      if (!call) continue;
      SyncEv y;
      y.ref = {ti, static_cast<uint32_t>(i)};
      y.runtime = *call;
      y.name = t_.str(s.name[i]);
      const bool callInWindow = inWindow(t_.start(y.runtime)) && t_.dur(y.runtime) > 0;
      if (!callInWindow && y.name != "Stream Wait Event") continue;
      y.runtimeEv = evIndexOf(y.runtime);
      syncs_.push_back(y);
    }
  }
  // Their stream and wait args, read in one pass over the file (Trace::argsOfEach), not
  // one read a sync event.
  std::vector<EventRef> refs;
  refs.reserve(syncs_.size());
  for (const SyncEv& y : syncs_) refs.push_back(y.ref);
  const LazyArgs::KeyFilter syncKeys = [](size_t, std::string_view key) {
    return key == "device" || key == "stream" || key == "wait_on_stream" || key == "wait_on_cuda_event_record_corr_id";
  };
  t_.argsOfEach(
      refs,
      [&](size_t k, std::vector<NamedArg>&& args) {
        SyncEv& y = syncs_[k];
        const Track& tr = t_.tracks[y.ref.track];
        y.stream = {intArg(args, "device").value_or(tr.device), intArg(args, "stream").value_or(tr.stream)};
        y.waitOnStream = intArg(args, "wait_on_stream").value_or(-1);
        y.waitOnRecordCorrelation = intArg(args, "wait_on_cuda_event_record_corr_id").value_or(-1);
      },
      nullptr, &syncKeys);
}

void Builder::makeNodes() {
  // By time, then event, then start before end (the order they were added in): total.
  // The starts are in that order already (evs_ is by start, then ref, and a node's event
  // is its index in evs_); the ends are sorted apart as (time, key) pairs, the key
  // ordering event then start first, and the two merged (a comparator reading each
  // node's time from the trace's columns was the slowest sort on 1 GB; one sort of every
  // node's pair made this step 0.29 s there, the ends' alone 0.21 s).
  std::vector<uint32_t> starts;
  std::vector<std::pair<TimeNs, uint32_t>> ends;
  for (uint32_t i = 0; i < evs_.size(); ++i) {
    const SliceKind kind = t_.kind(evs_[i].ref);
    if (!evs_[i].gpu && kind != SliceKind::CpuOp && kind != SliceKind::Runtime && kind != SliceKind::Driver) continue;
    starts.push_back(i);
    ends.emplace_back(t_.end(evs_[i].ref), i << 1 | 1);
  }
  std::sort(ends.begin(), ends.end());
  nodes_.reserve(starts.size() + ends.size());
  size_t e = 0;
  for (const uint32_t i : starts) {
    const std::pair<TimeNs, uint32_t> start{t_.start(evs_[i].ref), i << 1};
    for (; e < ends.size() && ends[e] < start; ++e) nodes_.push_back(ends[e].second ^ 1u);
    nodes_.push_back(start.second ^ 1u);
  }
  for (; e < ends.size(); ++e) nodes_.push_back(ends[e].second ^ 1u);
  decltype(starts)().swap(starts);
  decltype(ends)().swap(ends);
  for (uint32_t n = 0; n < nodes_.size(); ++n)
    if (nodeIsStart(n)) evs_[nodeEv(n)].startNode = n;
    else evs_[nodeEv(n)].endNode = n;
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
  // Every stack swept first, in stack order: every event with its parent, in start order,
  // which is the depth-first walk's preorder (an event's descendants all start before its
  // next sibling). Then each stack walked in turn: a stack of the events entered and not
  // yet exited, unwound to the parent of each next event, adding the edges in the order
  // they always were. No tree is built (children lists took 35 MB on 1 GB; a vector an
  // event took 200 MB), and a stack's sweep is over before the walks add edges.
  std::vector<std::pair<uint32_t, uint32_t>> preorder;  // (event, parent), stack after stack
  std::vector<size_t> stackEnds;
  {
    size_t cpu = 0;
    for (const auto& [track, members] : stacks) cpu += members.size();
    preorder.reserve(cpu);
  }
  for (auto& [track, members] : stacks) {
    sweepCallStack(
        members, [&](uint32_t i) { return t_.start(evs_[i].ref); }, [&](uint32_t i) { return t_.end(evs_[i].ref); },
        [&](uint32_t ev, uint32_t parent) { preorder.emplace_back(ev, parent); });
    stackEnds.push_back(preorder.size());
  }
  decltype(stacks)().swap(stacks);
  std::vector<uint32_t> walk;   // the events entered and not exited, outermost first
  uint32_t last = kNone;        // the last node the walk passed
  uint32_t lastParent = kNone;  // the parent of last's event, where last is an end node
  int depth = 0;                // events with nodes entered and not exited (annotations have none)
  const auto enter = [&](uint32_t ev) {
    const Ev& e = evs_[ev];
    if (e.startNode == kNoNode) return;
    if (last != kNone && !sharesLock(last, e.startNode)) {
      // Depth 0: an op outside any other follows the last one before it.
      const CpEdgeType type = depth == 0 ? CpEdgeType::Dependency : CpEdgeType::Operator;
      addEdge(last, e.startNode, type, false,
              type == CpEdgeType::Operator ? attribute(last, e.startNode, lastParent) : kNone);
    }
    last = e.startNode;
    ++depth;
  };
  // Exits the innermost event entered (the walk's top).
  const auto exit = [&] {
    const uint32_t ev = walk.back();
    walk.pop_back();
    const Ev& e = evs_[ev];
    if (e.startNode == kNoNode) return;
    if (last != kNone && !sharesLock(last, e.endNode))
      addEdge(last, e.endNode, CpEdgeType::Operator, isBlockingCall(t_.name(e.ref)),
              attribute(last, e.endNode, lastParent));
    last = e.endNode;
    lastParent = walk.empty() ? kNone : walk.back();
    --depth;
  };
  size_t at = 0;
  for (const size_t end : stackEnds) {
    last = lastParent = kNone;
    depth = 0;
    for (; at < end; ++at) {
      const auto [ev, parent] = preorder[at];
      while (!walk.empty() && walk.back() != parent) exit();
      enter(ev);
      walk.push_back(ev);
    }
    while (!walk.empty()) exit();
  }
}

CpCategory Builder::categoryOf(const Edge& e) {
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
    case SliceKind::Kernel: {
      const StringId name = t_.nameId(a->ref);
      if (collectiveName_.size() <= name) collectiveName_.resize(t_.strings.size(), 2);
      if (collectiveName_[name] == 2) collectiveName_[name] = isCollectiveKernelName(t_.str(name)) ? 1 : 0;
      return collectiveName_[name] == 1 ? CpCategory::Communication : CpCategory::Kernel;
    }
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
  p.graphEdges = graph_->edgeCount();
  p.graphEdgesByType = graph_->edgesByType();
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
    const std::optional<Edge> e = graph_->find(nodePath[i - 1], nodePath[i]);
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
  // The streams' queues read only the trace (its launch links and GPU events), nothing the
  // other steps write: made on a second thread beside the events, nodes and lock edges
  // (0.18 s of the GPU edges' 0.45 s on 1 GB), from as many launch links as the GPU
  // edges' own thread asks events. (A window past kMaxAttr events makes them for nothing.)
  bool tooMany = false;
  runBeside(
      t_.links.launchToGpu.size() >= threads_.concurrentEdgesFrom,
      [&] {
        collect();
        tooMany = evs_.size() > CpGraph::kMaxAttr;
        if (tooMany) return;
        makeNodes();
        lockEdges();
      },
      [&] { gpuQueues(); });
  if (tooMany) {
    // An edge names its event in 28 bits (cp_graph.h): about 110 GB of JSON in one window.
    CriticalPath p;
    p.window = w_;
    p.traceFormat = t_.meta.format;
    p.traceHasSyncEvents = sawSyncEvents_;
    p.error = "the window holds " + std::to_string(evs_.size()) + " events, more than the critical path's " +
              std::to_string(CpGraph::kMaxAttr) + "; choose an iteration or a shorter window";
    return p;
  }
  callStackAndGpuEdges();
  inferredWaitEdges();
  for (const Ev& e : evs_)
    if (e.gpu) w_.wallEnd = std::max(w_.wallEnd, t_.end(e.ref));
  w_.wallEnd = std::max(w_.wallEnd, w_.end);
  graph_->finish();
  bool cycle = false;
  const std::vector<uint32_t> path = graph_->longestPath(&cycle);
  graph_->dropPathSearch();
  CriticalPath p = pathOf(path);
  if (cycle) p.error = "the dependency graph has a cycle (contradictory timestamps); no critical path";
  else if (path.size() < 2) p.error = "no ops, runtime calls or GPU work in the window";
  return p;
}

}  // namespace cp_detail

CriticalPath computeCriticalPath(const Trace& trace, const CriticalPathWindow& window, CriticalPathThreads threads) {
  return cp_detail::Builder(trace, window, threads).run();
}

}  // namespace opscope
