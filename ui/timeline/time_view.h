#pragma once
// Time <-> pixel mapping of the timeline and the ruler's ticks. Pure functions on a
// small value type, shared by the widget, the exports and the render benchmark.
//
// Invariants: nsPerPx > 0; x = 0 is the left edge of the event area (the track-name
// gutter is not part of it).
#include <cstdint>
#include <string>
#include <vector>

#include "model/ids.h"
#include "text/duration_text.h"

namespace opscope::ui {

struct TimeView {
  TimeNs start = 0;      // time at x = 0
  double nsPerPx = 1.0;  // > 0

  double toPx(TimeNs t) const { return static_cast<double>(t - start) / nsPerPx; }
  TimeNs toTime(double px) const;
  TimeNs endAt(double widthPx) const { return toTime(widthPx); }
  friend bool operator==(const TimeView&, const TimeView&) = default;
};

// Limits of zooming: at most kMinNsPerPx (10 px per ns), at least the whole trace
// (plus margins) in the width.
inline constexpr double kMinNsPerPx = 0.1;

// [t0, t1] in widthPx with margin (a fraction of the span) on both sides. A zero-length
// span shows 1 µs around it.
TimeView fitView(TimeNs t0, TimeNs t1, double widthPx, double margin = 0.02);

// Zoom by factor (> 1 zooms in) keeping the time under cursorPx fixed.
TimeView zoomAt(const TimeView& v, double cursorPx, double factor);

TimeView panBy(const TimeView& v, double px);

// Keeps the view on the trace: no more zoomed out than the whole trace fit with
// margins, no further in than kMinNsPerPx, and not scrolled past either end.
TimeView clampView(TimeView v, TimeNs traceStart, TimeNs traceEnd, double widthPx);

struct Tick {
  TimeNs t = 0;
  double x = 0;
  std::string label;  // relative to the ruler's origin, in the ruler's unit
};

struct Ruler {
  TimeNs step = 0;  // a 1, 2 or 5 times a power of ten, in ns
  std::vector<Tick> ticks;
};

// Ticks at least minSpacingPx apart over [0, widthPx], labelled relative to origin
// (the trace start) with the unit that suits the step: "0", "250 µs", "1.5 ms".
Ruler rulerTicks(const TimeView& v, double widthPx, TimeNs origin, double minSpacingPx = 90);

// Smallest 1/2/5 x 10^k step >= ns.
TimeNs niceStep(double ns);

// The unit times are shown in (Preferences ▸ Time unit; text/duration_text.h formats):
// Auto picks the unit that suits each value; a fixed unit shows every ruler tick and
// duration in it ("0.00081 ms"), with at least three significant digits. Process-wide;
// set from the GUI thread only.
using opscope::TimeUnit;
void setTimeUnit(TimeUnit u);
TimeUnit timeUnit();

// t (ns) in the unit that suits step, in the user's unit.
std::string formatTick(TimeNs t, TimeNs step);

// A duration for people, in the user's unit: "812 ns", "5.10 µs", "12.3 ms", "1.25 s".
// Every view of the window formats durations with this one (never reportDuration).
std::string formatDuration(TimeNs ns);

}  // namespace opscope::ui
