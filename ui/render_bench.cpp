#include "render_bench.h"

#include <QImage>
#include <QPainter>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "timeline/timeline_widget.h"
#include "track_commands.h"

namespace opscope::ui {

double runRenderBench(std::shared_ptr<const TraceDocument> doc, const RenderBenchOptions& o) {
  TimelineWidget widget;
  widget.resize(o.width, o.height);
  widget.setData(doc);
  TrackCommands::applyQueues(&widget, false);  // as the window opens it
  TrackCommands::applyBandwidth(&widget, false);
  const Trace& t = *doc->trace;
  QImage image(widget.size(), QImage::Format_RGB32);
  const TimeNs span = std::max<TimeNs>(1, t.maxTs - t.minTs);
  std::printf("render benchmark: %dx%d, %llu slices on %zu tracks, %d frames per level\n", o.width, o.height,
              static_cast<unsigned long long>(t.sliceCount()), t.tracks.size(), o.framesPerLevel);
  std::printf("%14s %10s %10s %10s %12s %10s\n", "visible span", "median ms", "max ms", "items", "folded", "labels");
  {
    // One untimed frame first: font loading and glyph caches are a one-off cost of
    // the first paint, not of a frame.
    QPainter p(&image);
    widget.render(p, widget.size());
  }
  double worst = 0;
  // From the whole trace down by factors of ~4 to 10 µs.
  for (double visible = static_cast<double>(span) * 1.04;; visible /= 4) {
    if (visible < 10'000) visible = 10'000;
    std::vector<double> ms;
    RenderStats last;
    for (int f = 0; f < o.framesPerLevel; ++f) {
      // Positions spread over the trace; scroll offsets over the tracks.
      const double frac = (f + 0.5) / o.framesPerLevel;
      const TimeNs centre = t.minTs + static_cast<TimeNs>(frac * static_cast<double>(span));
      widget.showRange(centre - static_cast<TimeNs>(visible / 2), centre + static_cast<TimeNs>(visible / 2));
      widget.setScrollY(f % 3 == 0 ? 0 : (f % 3) * widget.layout().height / 3);
      const auto t0 = std::chrono::steady_clock::now();
      {
        QPainter p(&image);
        last = widget.render(p, widget.size());
      }
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2], mx = ms.back();
    worst = std::max(worst, mx);
    std::printf("%14s %10.2f %10.2f %10zu %12zu %10zu\n", formatDuration(static_cast<TimeNs>(visible)).c_str(), median,
                mx, last.drawnItems, last.foldedItems, last.labels);
    if (visible <= 10'000) break;
  }
  std::printf("worst frame: %.2f ms\n", worst);
  return worst;
}

}  // namespace opscope::ui
