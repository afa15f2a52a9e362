#pragma once
// Area selection statistics (as Perfetto's): what lies in a time range on a set of
// tracks, grouped by track kind and name.
#include <span>
#include <string>
#include <vector>

#include "model/trace.h"

namespace opscope {

struct RangeRow {
  TrackKind trackKind = TrackKind::Thread;
  StringId name = 0;
  uint64_t count = 0;
  TimeNs total = 0;    // full durations of the slices
  TimeNs inRange = 0;  // their durations clipped to the range
  TimeNs mean() const { return count ? total / static_cast<TimeNs>(count) : 0; }
};

// Slices that overlap [start, end) (a zero-length slice counts when start <= ts < end)
// on the given tracks (all tracks when empty). Rows sorted by track kind, then total
// descending, then name id.
std::vector<RangeRow> aggregateRange(const Trace& trace, std::span<const uint32_t> tracks, TimeNs start, TimeNs end);

}  // namespace opscope
