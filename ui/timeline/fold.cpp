#include "timeline/fold.h"

#include <algorithm>
#include <cmath>

namespace opscope::ui {

namespace {

// Overflow rows (crossovers) may overlap: look back this far for a slice still
// running. Bounded so a pathological row cannot make a frame O(n).
constexpr size_t kOverlapLookBack = 64;

size_t lowerBoundRow(const SliceColumns& s, std::span<const uint32_t> row, size_t from, TimeNs t) {
  auto it = std::lower_bound(row.begin() + static_cast<ptrdiff_t>(from), row.end(), t,
                             [&](uint32_t i, TimeNs value) { return s.start[i] < value; });
  return static_cast<size_t>(it - row.begin());
}

}  // namespace

size_t firstVisible(const SliceColumns& s, std::span<const uint32_t> row, TimeNs t, bool mayOverlap) {
  size_t k = lowerBoundRow(s, row, 0, t);
  if (!mayOverlap) {
    if (k > 0 && s.end(row[k - 1]) > t) --k;
    return k;
  }
  size_t best = k;
  for (size_t back = 0; back < kOverlapLookBack && k > back; ++back) {
    const size_t j = k - back - 1;
    if (s.end(row[j]) > t) best = j;
  }
  return best;
}

void foldRow(const SliceColumns& s, std::span<const uint32_t> row, const TimeView& v, double widthPx, double minPx,
             bool mayOverlap, std::vector<DrawItem>& out) {
  if (row.empty()) return;
  const TimeNs t0 = v.toTime(0), t1 = v.toTime(widthPx);
  size_t k = firstVisible(s, row, t0, mayOverlap);
  const auto clip = [&](double x) { return std::clamp(x, -1.0, widthPx + 1); };
  while (k < row.size()) {
    const uint32_t i = row[k];
    if (s.start[i] >= t1 && !(s.start[i] == t1 && s.dur[i] == 0)) break;
    const double x0 = v.toPx(s.start[i]);
    const double x1 = v.toPx(s.end(i));
    if (x1 < 0) {  // an earlier overlapping slice that ended before the view
      ++k;
      continue;
    }
    if (x1 - x0 >= minPx) {
      out.push_back({clip(x0), clip(x1), static_cast<uint32_t>(k), 1});
      ++k;
      continue;
    }
    // Fold: everything starting before x0 + minPx joins this block; keep extending
    // while the next slice is also narrow and starts within minPx of the block's end.
    double blockEnd = std::max(x1, x0 + 1);
    size_t next = k + 1;
    for (;;) {
      // Capped at the view's end so a block never takes in slices that are off screen.
      const TimeNs until = std::min(v.toTime(blockEnd + minPx), t1);
      const size_t j = lowerBoundRow(s, row, next, until);
      if (j == next) break;
      // Slices [next, j) start within the gap; the last one may be wide.
      const uint32_t last = row[j - 1];
      const double lastX1 = v.toPx(s.end(last));
      const double lastX0 = v.toPx(s.start[last]);
      if (lastX1 - lastX0 >= minPx) {
        // Stop before a wide slice so it is drawn by itself.
        if (j - 1 > next) {
          const uint32_t prev = row[j - 2];
          blockEnd = std::max(blockEnd, v.toPx(s.end(prev)));
        }
        next = j - 1;
        break;
      }
      blockEnd = std::max(blockEnd, lastX1);
      next = j;
      if (blockEnd > widthPx) break;
    }
    if (next == k + 1) {
      // A single narrow slice: draw it alone, at least 1 px wide.
      out.push_back({clip(x0), clip(std::max(x1, x0 + 1)), static_cast<uint32_t>(k), 1});
    } else {
      out.push_back({clip(x0), clip(blockEnd), static_cast<uint32_t>(k), static_cast<uint32_t>(next - k)});
    }
    k = next;
  }
}

std::optional<uint32_t> hitTest(const SliceColumns& s, std::span<const uint32_t> row, const TimeView& v, double x,
                                double tolerancePx, bool mayOverlap) {
  if (row.empty()) return std::nullopt;
  const TimeNs lo = v.toTime(x - tolerancePx), hi = v.toTime(x + tolerancePx);
  const TimeNs at = v.toTime(x);
  size_t k = firstVisible(s, row, lo, mayOverlap);
  std::optional<uint32_t> best;
  TimeNs bestDur = 0;
  double bestDist = 1e300;
  // Candidates start before hi; bounded so a dense zoomed-out row stays cheap.
  for (size_t n = 0; k < row.size() && n < 4096; ++k, ++n) {
    const uint32_t i = row[k];
    if (s.start[i] > hi) break;
    if (s.end(i) < lo) continue;
    const bool covers = s.start[i] <= at && at < s.end(i);
    const double dist = covers ? 0 : std::min(std::abs(v.toPx(s.start[i]) - x), std::abs(v.toPx(s.end(i)) - x));
    if (dist > tolerancePx) continue;
    if (!best || dist < bestDist || (dist == bestDist && s.dur[i] < bestDur)) {
      best = i;
      bestDist = dist;
      bestDur = s.dur[i];
    }
  }
  return best;
}

DominantName dominantName(const SliceColumns& s, std::span<const uint32_t> row, const DrawItem& item) {
  struct Tally {
    StringId name;
    double time;
  };
  Tally tally[kDominantSamples];
  uint32_t kinds = 0;
  double total = 0;
  const uint32_t count = std::max<uint32_t>(1, item.count);
  const uint32_t samples = std::min(count, kDominantSamples);
  for (uint32_t n = 0; n < samples; ++n) {
    // Evenly spread: sample n sits at the start of the n-th of `samples` equal parts.
    const size_t k = item.first + static_cast<size_t>(uint64_t{n} * count / samples);
    if (k >= row.size()) break;
    const uint32_t i = row[k];
    const double t = std::max<double>(1, static_cast<double>(s.dur[i]));
    total += t;
    uint32_t j = 0;
    while (j < kinds && !(tally[j].name == s.name[i])) ++j;
    if (j == kinds) tally[kinds++] = {s.name[i], 0};
    tally[j].time += t;
  }
  DominantName best;
  for (uint32_t j = 0; j < kinds; ++j)
    if (tally[j].time > best.share) best = {tally[j].name, tally[j].time};
  if (total > 0) best.share /= total;
  return best;
}

uint32_t longestInItem(const SliceColumns& s, std::span<const uint32_t> row, const DrawItem& item) {
  const uint32_t count = std::max<uint32_t>(1, item.count);
  const uint32_t samples = std::min(count, kLongestScan);
  uint32_t best = row[item.first];
  for (uint32_t n = 0; n < samples; ++n) {
    const size_t k = item.first + static_cast<size_t>(uint64_t{n} * count / samples);
    if (k >= row.size()) break;
    if (s.dur[row[k]] > s.dur[best]) best = row[k];
  }
  return best;
}

std::optional<DrawItem> drawItemAt(const SliceColumns& s, std::span<const uint32_t> row, const TimeView& v,
                                   double widthPx, double minPx, bool mayOverlap, double x) {
  std::vector<DrawItem> items;
  foldRow(s, row, v, widthPx, minPx, mayOverlap, items);
  // Items of one row never overlap except in the overflow row; prefer the last drawn
  // (it is the one on top).
  for (auto it = items.rbegin(); it != items.rend(); ++it)
    if (it->x0 <= x && x < std::max(it->x1, it->x0 + 1)) return *it;
  return std::nullopt;
}

}  // namespace opscope::ui
