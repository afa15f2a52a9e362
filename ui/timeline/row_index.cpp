#include "timeline/row_index.h"

#include <algorithm>

namespace opscope::ui {

uint32_t RowIndex::rowOf(const Track& track, const TrackRows& rows, uint32_t i) {
  const SliceColumns& s = track.slices;
  if (rows.hasOverflowRow && (s.flags[i] & kFlagCrossover)) return rows.rowCount - 1;
  return std::min<uint32_t>(s.depth[i], rows.rowCount - (rows.hasOverflowRow ? 2 : 1));
}

RowIndex::RowIndex(const Trace& trace) {
  tracks_.resize(trace.tracks.size());
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    const Track& track = trace.tracks[t];
    const SliceColumns& s = track.slices;
    TrackRows& r = tracks_[t];
    const uint32_t n = static_cast<uint32_t>(s.size());
    if (n == 0) {
      r.rowBegin.assign(1, 0);
      continue;
    }
    r.hasOverflowRow = track.kind == TrackKind::Thread && track.crossovers > 0;
    r.rowCount = std::max<uint32_t>(1, track.maxDepth) + (r.hasOverflowRow ? 1 : 0);
    // Counting sort by row keeps start order within each row.
    std::vector<uint32_t> counts(r.rowCount + 1, 0);
    for (uint32_t i = 0; i < n; ++i) ++counts[rowOf(track, r, i) + 1];
    for (uint32_t k = 1; k <= r.rowCount; ++k) counts[k] += counts[k - 1];
    r.rowBegin = counts;
    r.items.resize(n);
    for (uint32_t i = 0; i < n; ++i) r.items[counts[rowOf(track, r, i)]++] = i;
  }
}

size_t RowIndex::memoryBytes() const {
  size_t b = 0;
  for (const auto& t : tracks_) b += t.items.capacity() * sizeof(uint32_t) + t.rowBegin.capacity() * sizeof(uint32_t);
  return b;
}

}  // namespace opscope::ui
