#include "analysis/device_breakdown.h"

#include <algorithm>
#include <unordered_map>

#include "hierarchy/queries.h"

namespace opscope {

namespace {

struct ChildKey {
  uint32_t parent;
  StringId name;
  uint8_t kind;
  friend bool operator==(const ChildKey&, const ChildKey&) = default;
};
struct ChildKeyHash {
  size_t operator()(const ChildKey& k) const {
    return std::hash<uint64_t>()((static_cast<uint64_t>(k.parent) << 32) ^ k.name ^
                                 (static_cast<uint64_t>(k.kind) << 29));
  }
};

}  // namespace

std::string breakdownLabel(const Trace& trace, const BreakdownNode& n) {
  switch (n.kind) {
    case BreakdownKind::Stream:
      return trace.trackLabel(n.stream);
    case BreakdownKind::Unattributed:
      return "(no launching op)";
    case BreakdownKind::Op:
      if (n.allSteps) return "ProfilerStep#*";
      [[fallthrough]];
    case BreakdownKind::Gpu:
      return std::string(trace.str(n.name));
  }
  return {};
}

DeviceBreakdown deviceBreakdown(const Trace& trace, std::optional<TimeWindow> window) {
  DeviceBreakdown b;
  std::unordered_map<ChildKey, uint32_t, ChildKeyHash> childOf;
  std::vector<uint8_t> stepName(trace.strings.size(), 0);
  for (StringId id = 1; id < trace.strings.size(); ++id) stepName[id] = isProfilerStepName(trace.strings.get(id));
  StringId firstStep = 0;

  auto child = [&](uint32_t parent, BreakdownKind kind, StringId name, uint32_t stream) {
    auto [it, fresh] = childOf.try_emplace(ChildKey{parent, name, static_cast<uint8_t>(kind)}, 0);
    if (fresh) {
      it->second = static_cast<uint32_t>(b.nodes.size());
      BreakdownNode n;
      n.parent = parent;
      n.kind = kind;
      n.name = name;
      n.stream = stream;
      b.nodes.push_back(n);
      b.nodes[parent].children.push_back(it->second);
    }
    return it->second;
  };

  std::vector<std::pair<uint32_t, uint64_t>> leafEvents;  // (leaf node, packed ref)
  std::vector<EventRef> chain;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    const Track& track = trace.tracks[t];
    if (track.kind != TrackKind::GpuStream) continue;
    const SliceColumns& s = track.slices;
    const size_t first = window ? s.lowerBound(window->start) : 0;
    const size_t last = window ? s.lowerBound(window->end) : s.size();
    uint32_t root = UINT32_MAX;
    for (size_t i = first; i < last; ++i) {
      if (!isGpuKind(s.kind[i])) continue;
      if (root == UINT32_MAX) {
        root = static_cast<uint32_t>(b.nodes.size());
        BreakdownNode n;
        n.kind = BreakdownKind::Stream;
        n.stream = t;
        b.nodes.push_back(n);
        b.roots.push_back(root);
      }
      const EventRef ref{t, static_cast<uint32_t>(i)};
      uint32_t node = root;
      chain.clear();
      if (auto launch = launchOf(trace, ref)) {
        for (auto p = trace.parent(*launch); p; p = trace.parent(*p)) {
          const SliceKind k = trace.kind(*p);
          if (k == SliceKind::CpuOp || k == SliceKind::UserAnnotation) chain.push_back(*p);
        }
      }
      if (chain.empty()) {
        node = child(node, BreakdownKind::Unattributed, 0, t);
      } else {
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
          StringId name = trace.nameId(*it);
          const bool step = stepName[name];
          if (step) {
            if (!firstStep) firstStep = name;
            name = firstStep;
          }
          node = child(node, BreakdownKind::Op, name, t);
          b.nodes[node].allSteps = step;
        }
      }
      node = child(node, BreakdownKind::Gpu, s.name[i], t);
      b.nodes[node].gpuKind = s.kind[i];
      leafEvents.emplace_back(node, ref.packed());
      // Accumulate up the path; the path is short (host nesting depth).
      for (uint32_t n = node; n != UINT32_MAX; n = b.nodes[n].parent) {
        ++b.nodes[n].count;
        addTo(b.nodes[n].time, s.dur[i]);
      }
    }
  }
  for (BreakdownNode& n : b.nodes) {
    std::sort(n.children.begin(), n.children.end(), [&b](uint32_t x, uint32_t y) {
      return b.nodes[x].time != b.nodes[y].time ? b.nodes[x].time > b.nodes[y].time : x < y;
    });
  }
  std::sort(b.roots.begin(), b.roots.end(), [&b](uint32_t x, uint32_t y) {
    return b.nodes[x].time != b.nodes[y].time ? b.nodes[x].time > b.nodes[y].time : x < y;
  });
  // Depth-first order of the leaves, then each node's range from its children's.
  std::vector<uint32_t> leafRank(b.nodes.size(), UINT32_MAX);
  uint32_t rank = 0;
  std::vector<uint32_t> stack(b.roots.rbegin(), b.roots.rend());
  while (!stack.empty()) {
    const uint32_t n = stack.back();
    stack.pop_back();
    if (b.nodes[n].kind == BreakdownKind::Gpu) leafRank[n] = rank++;
    for (auto it = b.nodes[n].children.rbegin(); it != b.nodes[n].children.rend(); ++it) stack.push_back(*it);
  }
  std::stable_sort(leafEvents.begin(), leafEvents.end(),
                   [&](const auto& x, const auto& y) { return leafRank[x.first] < leafRank[y.first]; });
  b.events.reserve(leafEvents.size());
  for (uint32_t i = 0; i < leafEvents.size(); ++i) {
    BreakdownNode& leaf = b.nodes[leafEvents[i].first];
    if (leaf.endEvent == 0) leaf.firstEvent = i;
    leaf.endEvent = i + 1;
    b.events.push_back(leafEvents[i].second);
  }
  // Children have larger indices than parents: a reverse walk folds ranges upwards.
  for (uint32_t n = static_cast<uint32_t>(b.nodes.size()); n-- > 0;) {
    BreakdownNode& node = b.nodes[n];
    if (node.kind == BreakdownKind::Gpu || node.children.empty()) continue;
    node.firstEvent = b.nodes[node.children.front()].firstEvent;
    node.endEvent = b.nodes[node.children.back()].endEvent;
  }
  for (uint32_t r : b.roots) addTo(b.total, b.nodes[r].time);
  for (BreakdownNode& n : b.nodes) {
    uint32_t r = static_cast<uint32_t>(&n - b.nodes.data());
    while (b.nodes[r].parent != UINT32_MAX) r = b.nodes[r].parent;
    n.share = b.nodes[r].time ? static_cast<double>(n.time) / static_cast<double>(b.nodes[r].time) : 0;
  }
  return b;
}

}  // namespace opscope
