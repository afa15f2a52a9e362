#include "analysis/range_aggregate.h"

#include <algorithm>
#include <unordered_map>

namespace opscope {

std::vector<RangeRow> aggregateRange(const Trace& trace, std::span<const uint32_t> tracks, TimeNs start, TimeNs end) {
  std::vector<uint32_t> all;
  if (tracks.empty()) {
    all.resize(trace.tracks.size());
    for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
    tracks = all;
  }
  // Key: kind in the top bits, name id below.
  std::unordered_map<uint64_t, RangeRow> rows;
  for (uint32_t t : tracks) {
    if (t >= trace.tracks.size()) continue;
    const Track& track = trace.tracks[t];
    const SliceColumns& s = track.slices;
    // Rows are sorted by start, so everything past the range's end is out; slices that
    // start before it are kept when they reach into it. This is a user action, not a
    // frame, so the linear prefix scan is acceptable (about 10 ms per 10M slices).
    const size_t last = s.lowerBound(end);
    for (size_t i = 0; i < last; ++i) {
      const TimeNs a = s.start[i], b = a + s.dur[i];
      if (b <= start && !(s.dur[i] == 0 && a >= start)) continue;
      const uint64_t key = (static_cast<uint64_t>(track.kind) << 32) | s.name[i];
      RangeRow& r = rows[key];
      r.trackKind = track.kind;
      r.name = s.name[i];
      ++r.count;
      addTo(r.total, s.dur[i]);
      addTo(r.inRange, std::max<TimeNs>(0, std::min(b, end) - std::max(a, start)));
    }
  }
  std::vector<RangeRow> out;
  out.reserve(rows.size());
  for (auto& [k, r] : rows) out.push_back(r);
  std::sort(out.begin(), out.end(), [](const RangeRow& a, const RangeRow& b) {
    if (a.trackKind != b.trackKind) return a.trackKind < b.trackKind;
    if (a.total != b.total) return a.total > b.total;
    return a.name < b.name;
  });
  return out;
}

}  // namespace opscope
