#pragma once
// Per-row view of a finalized trace for drawing: the slices of each track grouped by
// the row they are drawn on, each group sorted by start. Rows of one track:
//   CPU thread: one per nesting depth, then an overflow row for crossovers (which
//               overlap their neighbours, so they cannot share a depth row);
//   GPU stream / async: one per sub-lane (overlaps already spread by the hierarchy).
// Within a depth or lane row slices never overlap, so the visible ones are found with
// two binary searches and the row can be folded (see fold.h). Costs 4 bytes per slice.
#include <cstdint>
#include <span>
#include <vector>

#include "model/pod_column.h"
#include "model/trace.h"

namespace opscope::ui {

struct TrackRows {
  uint32_t rowCount = 0;
  bool hasOverflowRow = false;     // the last row holds crossovers and may overlap
  std::vector<uint32_t> rowBegin;  // rowCount + 1 offsets into items
  PodColumn<uint32_t> items;       // slice indices, grouped by row, sorted by start
  std::span<const uint32_t> row(uint32_t r) const {
    return {items.data() + rowBegin[r], items.data() + rowBegin[r + 1]};
  }
};

class RowIndex {
 public:
  RowIndex() = default;
  explicit RowIndex(const Trace& trace);
  const TrackRows& track(uint32_t t) const { return tracks_[t]; }
  size_t trackCount() const { return tracks_.size(); }
  // Row on which slice i of track t is drawn.
  static uint32_t rowOf(const Track& track, const TrackRows& rows, uint32_t i);
  size_t memoryBytes() const;

 private:
  std::vector<TrackRows> tracks_;
};

}  // namespace opscope::ui
