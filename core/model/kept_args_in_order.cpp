#include "model/kept_args_in_order.h"

#include "model/gallop.h"

namespace opscope {

const Trace::KeptArgs* KeptArgsInOrder::of(EventRef r) {
  const auto& kept = trace_.keptArgs;
  const SliceColumns& s = trace_.tracks[r.track].slices;
  // keptArgsOf's cases without an entry.
  if (kept.empty() || trace_.tracks[r.track].lazyArgs || r.index >= s.argsAt.size()) return nullptr;
  const uint64_t at = s.argsAt[r.index];
  if (at == SliceColumns::kNoArgsAt) return nullptr;
  if (at_ > kept.size() || (at_ > 0 && kept[at_ - 1].argsAt >= at)) at_ = 0;  // out of order
  const auto first = gallopLowerBound(kept.begin() + static_cast<std::ptrdiff_t>(at_), kept.end(), at,
                                      [](const Trace::KeptArgs& a, uint64_t v) { return a.argsAt < v; });
  at_ = static_cast<size_t>(first - kept.begin());
  return first != kept.end() && first->argsAt == at ? &*first : nullptr;
}

}  // namespace opscope
