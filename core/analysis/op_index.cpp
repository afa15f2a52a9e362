#include "analysis/op_index.h"

#include <algorithm>

namespace opscope {

OpIndex::OpIndex(const Trace& trace) : trace_(trace), topOp_(trace.tracks.size()) {
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    const Track& track = trace.tracks[t];
    if (track.kind != TrackKind::Thread) continue;
    const SliceColumns& s = track.slices;
    std::vector<int32_t>& top = topOp_[t];
    top.assign(s.size(), -1);
    // Parents normally precede their children (sorted by start, enclosing first on
    // ties), so one forward pass suffices; a parent after its child (equal starts
    // written in odd order) is resolved by walking up.
    auto resolve = [&](uint32_t row) {
      int32_t outer = -1;
      for (int32_t r = static_cast<int32_t>(row); r >= 0; r = s.parent[static_cast<uint32_t>(r)])
        if (isOpKind(s.kind[static_cast<uint32_t>(r)])) outer = r;
      return outer;
    };
    for (uint32_t i = 0; i < s.size(); ++i) {
      const int32_t p = s.parent[i];
      if (p >= 0 && static_cast<uint32_t>(p) > i) {
        top[i] = resolve(i);
        continue;
      }
      const int32_t above = p >= 0 ? top[static_cast<uint32_t>(p)] : -1;
      top[i] = above >= 0 ? above : (isOpKind(s.kind[i]) ? static_cast<int32_t>(i) : -1);
    }
  }
}

bool OpIndex::isLaunch(EventRef ref) const {
  const auto& v = trace_.links.launchToGpu;
  const uint64_t key = ref.packed();
  auto it =
      std::lower_bound(v.begin(), v.end(), key, [](const LaunchLinks::Pair& p, uint64_t k) { return p.first < k; });
  return it != v.end() && it->first == key;
}

}  // namespace opscope
