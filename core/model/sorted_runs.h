#pragma once
// Sorting what is already a few sorted runs one after another (the events of each thread
// and stream, collected a track at a time): the runs found in one pass and merged
// pairwise, a pass over the data per doubling of the runs merged, instead of a sort's
// log2(n) passes. Used by the critical path's collection of events (a sort of its 2.3 M
// events on 1 GB took 0.08 s more than the merges) and by the search's matches (a run a
// track: 140 ms -> 35 ms for 2.3 M matches).
//
// less must be a strict total order (no two elements equal): the result is then the one
// sorted order, whatever the route. Past maxRuns runs (10^6 one-event threads) the
// merges would cost a sort's passes with a buffer a merge: the vector is sorted instead.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace opscope {

template <class T, class Less>
void sortRuns(std::vector<T>& v, Less less, size_t maxRuns = 64) {
  std::vector<size_t> runs{0};  // where each run starts
  for (size_t i = 1; i < v.size() && runs.size() <= maxRuns; ++i)
    if (less(v[i], v[i - 1])) runs.push_back(i);
  if (runs.size() > maxRuns) {
    std::sort(v.begin(), v.end(), less);
    return;
  }
  runs.push_back(v.size());
  const auto at = [&](size_t r) { return v.begin() + static_cast<std::ptrdiff_t>(runs[std::min(r, runs.size() - 1)]); };
  // Runs r and r + width (each the merge of width runs) merged into one, for every pair;
  // std::inplace_merge takes a buffer of the shorter side (half the data at most).
  for (size_t width = 1; width + 1 < runs.size(); width *= 2)
    for (size_t r = 0; r + width + 1 < runs.size(); r += 2 * width)
      std::inplace_merge(at(r), at(r + width), at(r + 2 * width), less);
}

}  // namespace opscope
