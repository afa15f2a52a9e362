#pragma once
// What to draw of one row: the visible slices, with runs of slices narrower than a few
// pixels folded into one block that carries their count (as Tracy and Qt Creator's
// tracing library do). Cost per row is O(drawn items x log n), never O(slices), so a
// fully zoomed-out 10M-event trace draws as fast as a zoomed-in one.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "model/slice_columns.h"
#include "timeline/time_view.h"

namespace opscope::ui {

// Slices narrower than this many pixels fold with their neighbours (renderer and hover agree).
inline constexpr double kFoldPx = 3.0;

struct DrawItem {
  double x0 = 0, x1 = 0;  // pixels, clipped to [-1, widthPx + 1]
  uint32_t first = 0;     // position in the row of the first slice
  uint32_t count = 1;     // > 1: a folded run of `count` slices starting at `first`
  bool folded() const { return count > 1; }
};

// Position in row of the first slice that may be visible at time t: the first one
// starting at or after t, or an earlier one still running at t.
size_t firstVisible(const SliceColumns& s, std::span<const uint32_t> row, TimeNs t, bool mayOverlap);

// Appends the row's draw items for the view over [0, widthPx] to out. Slices narrower
// than minPx are folded with the slices that start within minPx of them.
void foldRow(const SliceColumns& s, std::span<const uint32_t> row, const TimeView& v, double widthPx, double minPx,
             bool mayOverlap, std::vector<DrawItem>& out);

// The slice (index into s) drawn at x on this row: one whose span covers x, else the
// nearest within tolerancePx; among several, the shortest (the innermost visible).
std::optional<uint32_t> hitTest(const SliceColumns& s, std::span<const uint32_t> row, const TimeView& v, double x,
                                double tolerancePx, bool mayOverlap);

// The name that takes most of a folded run's time, so a folded block can keep the colour
// of what it is mostly made of. Estimated from at most kDominantSamples slices spread
// evenly over the run (a 100,000-slice block costs what a 32-slice one does); share is
// that name's fraction of the sampled time, zero-length slices counting 1 ns each.
inline constexpr uint32_t kDominantSamples = 32;
struct DominantName {
  StringId name{};
  double share = 0;  // (0, 1]
};
DominantName dominantName(const SliceColumns& s, std::span<const uint32_t> row, const DrawItem& item);

// The slice a click on a folded run selects (and its tooltip names): the longest of the
// run, the first of equals; runs longer than kLongestScan are sampled evenly, so a click
// on a 10^6-slice block stays instant.
inline constexpr uint32_t kLongestScan = 4096;
uint32_t longestInItem(const SliceColumns& s, std::span<const uint32_t> row, const DrawItem& item);

// The item foldRow draws at x on this row (same arguments), if any: what the mouse is
// over, folded block or slice.
std::optional<DrawItem> drawItemAt(const SliceColumns& s, std::span<const uint32_t> row, const TimeView& v,
                                   double widthPx, double minPx, bool mayOverlap, double x);

}  // namespace opscope::ui
