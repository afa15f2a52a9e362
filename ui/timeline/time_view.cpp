#include "timeline/time_view.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>

namespace opscope::ui {

TimeNs TimeView::toTime(double px) const { return start + static_cast<TimeNs>(std::llround(px * nsPerPx)); }

TimeView fitView(TimeNs t0, TimeNs t1, double widthPx, double margin) {
  if (t1 < t0) std::swap(t0, t1);
  double span = static_cast<double>(t1 - t0);
  if (span <= 0) {
    span = 1000;
    t0 -= 500;
  }
  const double total = span * (1 + 2 * margin);
  TimeView v;
  v.nsPerPx = std::max(kMinNsPerPx, total / std::max(1.0, widthPx));
  const double shown = v.nsPerPx * std::max(1.0, widthPx);
  v.start = t0 - static_cast<TimeNs>(std::llround((shown - span) / 2));
  return v;
}

TimeView zoomAt(const TimeView& v, double cursorPx, double factor) {
  if (!(factor > 0)) return v;
  const TimeNs anchor = v.toTime(cursorPx);
  TimeView out;
  out.nsPerPx = std::max(kMinNsPerPx, v.nsPerPx / factor);
  out.start = anchor - static_cast<TimeNs>(std::llround(cursorPx * out.nsPerPx));
  return out;
}

TimeView panBy(const TimeView& v, double px) {
  TimeView out = v;
  out.start += static_cast<TimeNs>(std::llround(px * v.nsPerPx));
  return out;
}

TimeView clampView(TimeView v, TimeNs traceStart, TimeNs traceEnd, double widthPx) {
  widthPx = std::max(1.0, widthPx);
  const TimeView whole = fitView(traceStart, traceEnd, widthPx);
  v.nsPerPx = std::clamp(v.nsPerPx, kMinNsPerPx, std::max(kMinNsPerPx, whole.nsPerPx));
  const double shown = v.nsPerPx * widthPx;
  // Allow scrolling until the trace's end reaches the middle of the view, and its
  // start likewise; a fully zoomed-out view is centred.
  if (v.nsPerPx >= whole.nsPerPx) {
    v.start = whole.start;
    return v;
  }
  const TimeNs lo = traceStart - static_cast<TimeNs>(shown / 2);
  const TimeNs hi = traceEnd - static_cast<TimeNs>(shown / 2);
  v.start = std::clamp(v.start, lo, std::max(lo, hi));
  return v;
}

TimeNs niceStep(double ns) {
  if (!(ns > 1)) return 1;
  double p = std::pow(10.0, std::floor(std::log10(ns)));
  for (;;) {
    for (double m : {1.0, 2.0, 5.0}) {
      if (m * p >= ns * (1 - 1e-12)) return static_cast<TimeNs>(std::llround(m * p));
    }
    p *= 10;
  }
}

namespace {

std::atomic<TimeUnit> gTimeUnit{TimeUnit::Auto};

}  // namespace

void setTimeUnit(TimeUnit u) { gTimeUnit.store(u, std::memory_order_relaxed); }
TimeUnit timeUnit() { return gTimeUnit.load(std::memory_order_relaxed); }

std::string formatTick(TimeNs t, TimeNs step) { return opscope::formatTick(t, step, timeUnit()); }

std::string formatDuration(TimeNs ns) { return opscope::formatDuration(ns, timeUnit()); }

Ruler rulerTicks(const TimeView& v, double widthPx, TimeNs origin, double minSpacingPx) {
  Ruler r;
  r.step = niceStep(minSpacingPx * v.nsPerPx);
  const TimeNs first = v.start - origin;
  // First multiple of step at or after the left edge (floor division for negatives).
  TimeNs k = first / r.step;
  if (k * r.step < first) ++k;
  for (TimeNs rel = k * r.step;; rel += r.step) {
    const TimeNs t = origin + rel;
    const double x = v.toPx(t);
    if (x > widthPx) break;
    r.ticks.push_back({t, x, formatTick(rel, r.step)});
    if (r.ticks.size() > 10000) break;  // guards a degenerate minSpacingPx
  }
  return r;
}

}  // namespace opscope::ui
