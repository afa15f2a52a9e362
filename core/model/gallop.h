#pragma once
// std::lower_bound over [from, end) found by galloping from `from`: steps of 1, 2, 4, …
// until an element not less than key, then a binary search inside the last step. It
// costs O(log d) for an answer d places on, so a pass asking ascending keys walks the
// range once instead of searching all of it each time (GpuEventsInLaunchOrder,
// KeptArgsInOrder). The caller guarantees that every element before `from` is less than
// key (asked out of order, it starts again from the beginning).
#include <algorithm>
#include <iterator>

namespace opscope {

template <class It, class T, class Less>
It gallopLowerBound(It from, It end, const T& key, Less less) {
  using Diff = typename std::iterator_traits<It>::difference_type;
  It lo = from;
  Diff step = 1;
  while (end - lo >= step && less(*(lo + (step - 1)), key)) {
    lo += step;
    step *= 2;
  }
  return std::lower_bound(lo, lo + std::min(step, static_cast<Diff>(end - lo)), key, less);
}

}  // namespace opscope
