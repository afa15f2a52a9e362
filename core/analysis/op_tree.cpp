#include "analysis/op_tree.h"

#include <algorithm>
#include <string_view>

#include "hierarchy/iterations.h"

namespace opscope {

namespace {

// GPU time per launch slice of one track, through the launch links.
TimeNs gpuTimeOf(const Trace& trace, uint64_t launchRef, size_t& cursor) {
  const auto& l2g = trace.links.launchToGpu;
  // launchToGpu is sorted by launch ref and the caller walks refs in order.
  while (cursor < l2g.size() && l2g[cursor].first < launchRef) ++cursor;
  TimeNs sum = 0;
  for (size_t k = cursor; k < l2g.size() && l2g[k].first == launchRef; ++k)
    addTo(sum, trace.dur(EventRef::unpack(l2g[k].second)));
  return sum;
}

// (parent node << 32 | name) -> child node: open addressing with linear probing; one
// lookup per slice, so std::unordered_map's node allocations dominated the build.
class ChildMap {
 public:
  ChildMap() : slots_(1024, Slot{kEmpty, 0}) {}
  // Returns the node for key, inserting next when absent (inserted set accordingly).
  uint32_t findOrInsert(uint64_t key, uint32_t next, bool& inserted) {
    if ((used_ + 1) * 2 > slots_.size()) grow();
    size_t mask = slots_.size() - 1;
    for (size_t i = hash(key) & mask;; i = (i + 1) & mask) {
      if (slots_[i].key == key) {
        inserted = false;
        return slots_[i].node;
      }
      if (slots_[i].key == kEmpty) {
        slots_[i] = {key, next};
        ++used_;
        inserted = true;
        return next;
      }
    }
  }

 private:
  struct Slot {
    uint64_t key;
    uint32_t node;
  };
  static constexpr uint64_t kEmpty = ~0ull;  // parent ids stay below 2^32 - 1
  static size_t hash(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return static_cast<size_t>(k);
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2, Slot{kEmpty, 0});
    old.swap(slots_);
    const size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.key == kEmpty) continue;
      size_t i = hash(s.key) & mask;
      while (slots_[i].key != kEmpty) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }
  std::vector<Slot> slots_;
  size_t used_ = 0;
};

}  // namespace

OpTree buildOpTree(const Trace& trace) {
  OpTree tree;
  ChildMap childOf;
  // All ProfilerStep#N names share one merge key.
  constexpr StringId kStepKey = 0xFFFFFFFFu;
  std::vector<uint8_t> stepName(trace.strings.size(), 0);
  for (StringId id = 1; id < trace.strings.size(); ++id) stepName[id] = isProfilerStepName(trace.strings.get(id));
  std::vector<uint32_t> nodeOfRow;
  size_t linkCursor = 0;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    const Track& track = trace.tracks[t];
    if (track.kind != TrackKind::Thread || track.slices.size() == 0) continue;
    const SliceColumns& s = track.slices;
    // A track of device-side sync records only (Kineto's cuda_sync on stream -1, Nsight's
    // context synchronisations) holds no host op: it was a root of 1,312 "Context Sync".
    if (std::all_of(s.kind.begin(), s.kind.end(), [](SliceKind k) { return k == SliceKind::Sync; })) continue;
    const uint32_t root = static_cast<uint32_t>(tree.nodes.size());
    tree.nodes.push_back({});
    tree.nodes[root].track = t;
    tree.roots.push_back(root);
    nodeOfRow.assign(s.size(), root);
    for (uint32_t i = 0; i < s.size(); ++i) {
      const int32_t p = s.parent[i];
      const uint32_t parentNode = p >= 0 ? nodeOfRow[static_cast<size_t>(p)] : root;
      const bool step = s.name[i] < stepName.size() && stepName[s.name[i]];
      const uint64_t key = (static_cast<uint64_t>(parentNode) << 32) | (step ? kStepKey : s.name[i]);
      bool inserted = false;
      const uint32_t node = childOf.findOrInsert(key, static_cast<uint32_t>(tree.nodes.size()), inserted);
      if (inserted) {
        OpTreeNode n;
        n.parent = parentNode;
        n.name = s.name[i];
        n.allSteps = step;
        n.track = t;
        tree.nodes.push_back(std::move(n));
        tree.nodes[parentNode].children.push_back(node);
      }
      nodeOfRow[i] = node;
      OpTreeNode& n = tree.nodes[node];
      ++n.calls;
      addTo(n.total, s.dur[i]);
      addTo(n.self, s.dur[i]);
      const EventRef ref{t, i};
      if (n.longest == kNoRef || s.dur[i] > s.dur[EventRef::unpack(n.longest).index]) n.longest = ref.packed();
      // Self time: a crossover is not contained by its parent, so only the overlap
      // is taken from the parent's self time.
      if (p >= 0) {
        const TimeNs overlap = std::min(s.end(i), s.end(static_cast<size_t>(p))) - s.start[i];
        tree.nodes[parentNode].self -= std::max<TimeNs>(0, overlap);
      } else {
        addTo(tree.nodes[root].total, s.dur[i]);
      }
      if (isLaunchKind(s.kind[i])) n.gpu += gpuTimeOf(trace, ref.packed(), linkCursor);
    }
    // Root: total is the time of its top-level calls, calls their number, self 0.
    for (uint32_t c : tree.nodes[root].children) tree.nodes[root].calls += tree.nodes[c].calls;
  }
  // Bottom-up GPU time (children always have larger indices than their parent).
  for (size_t k = tree.nodes.size(); k-- > 0;) {
    const OpTreeNode& n = tree.nodes[k];
    if (n.parent != UINT32_MAX) tree.nodes[n.parent].gpu += n.gpu;
  }
  for (OpTreeNode& n : tree.nodes) {
    std::sort(n.children.begin(), n.children.end(), [&](uint32_t a, uint32_t b) {
      return tree.nodes[a].total != tree.nodes[b].total ? tree.nodes[a].total > tree.nodes[b].total : a < b;
    });
  }
  std::sort(tree.roots.begin(), tree.roots.end(), [&](uint32_t a, uint32_t b) {
    return tree.nodes[a].total != tree.nodes[b].total ? tree.nodes[a].total > tree.nodes[b].total : a < b;
  });
  return tree;
}

}  // namespace opscope
