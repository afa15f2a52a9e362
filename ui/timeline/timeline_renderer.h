#pragma once
// Draws the timeline (overview strip, ruler, track gutter, rows of slices, counters,
// selection, search hits, arrows) into any QPainter: the widget, PNG and PDF exports
// and the render benchmark share it. Per frame it touches only what fold.h returns.
#include <QFont>
#include <QPainter>
#include <QRect>
#include <optional>
#include <utility>
#include <vector>

#include "analysis/find_events.h"
#include "timeline/colors.h"
#include "timeline/fold.h"
#include "timeline/time_view.h"
#include "timeline/timeline_data.h"
#include "timeline/track_layout.h"

namespace opscope::ui {

// Regions of the timeline for a given size; x of the event area starts at events.left().
struct TimelineGeometry {
  static constexpr int kOverviewHeight = 34;
  static constexpr int kRulerHeight = 24;
  static constexpr int kGutterWidth = 250;
  QRect overview, ruler, gutter, events;
  explicit TimelineGeometry(QSize size);
};

struct TimeRange {
  TimeNs start = 0, end = 0;
};

// An edge of the critical path between two tracks, from the end (or start) of one
// event to the start (or end) of another.
struct PathArrow {
  EventRef from, to;
  bool fromStart = false, toStart = true;
};

struct RenderState {
  const TimelineData* doc = nullptr;
  const TimelineLayout* layout = nullptr;
  LayoutMetrics metrics;
  TimeView view;
  int scrollY = 0;
  Theme theme = Theme::Light;
  std::optional<EventRef> selected;
  std::optional<EventRef> hovered;
  const NameMatcher* search = nullptr;                // highlight matches when set
  const std::vector<EventRef>* matches = nullptr;     // the matches, by start time: marked even inside folds
  std::optional<TimeRange> area;                      // Shift+drag selection
  std::vector<uint32_t> areaTracks;                   // tracks inside the area selection
  std::vector<std::pair<EventRef, EventRef>> arrows;  // launch -> kernel, fwd -> bwd
  std::vector<PathArrow> pathArrows;                  // the critical path's edges between tracks
  std::optional<TimeRange> linkedMark;                // a linked timeline's selected span
};

struct RenderStats {
  size_t drawnItems = 0, foldedItems = 0, labels = 0;
};

class TimelineRenderer {
 public:
  RenderStats paint(QPainter& p, QSize size, const RenderState& s);
  // Colour per name id, cached for the current document and theme.
  QColor colorOf(const Trace& trace, StringId name, Theme theme);

 private:
  void paintOverview(QPainter& p, const TimelineGeometry& g, const RenderState& s);
  void paintRuler(QPainter& p, const TimelineGeometry& g, const RenderState& s);
  void paintTracks(QPainter& p, const TimelineGeometry& g, const RenderState& s, RenderStats& stats);
  void paintSlices(QPainter& p, const TimelineGeometry& g, const RenderState& s, const LayoutEntry& e, int y0,
                   RenderStats& stats);
  void paintCounter(QPainter& p, const TimelineGeometry& g, const RenderState& s, const LayoutEntry& e, int y0);
  void paintLinkedMark(QPainter& p, const TimelineGeometry& g, const RenderState& s);
  void paintArrows(QPainter& p, const TimelineGeometry& g, const RenderState& s);
  void paintInstants(QPainter& p, const TimelineGeometry& g, const RenderState& s);
  void paintMatchMarks(QPainter& p, const TimelineGeometry& g, const RenderState& s);
  std::optional<QPointF> anchorOf(const TimelineGeometry& g, const RenderState& s, EventRef r, bool atStart) const;
  float textWidth(const QFontMetricsF& fm, const Trace& trace, StringId name);
  const QString& labelOf(const Trace& trace, StringId name);  // displayName, cached per string
  void resetCaches(const RenderState& s);

  const TimelineData* cachedDoc_ = nullptr;
  Theme cachedTheme_ = Theme::Light;
  std::vector<QColor> colors_;
  std::vector<uint8_t> colorReady_;
  std::vector<float> textWidths_;  // < 0: not measured yet
  std::vector<QString> labels_;
  std::vector<uint8_t> labelReady_;
  QString scratchLabel_;
  // Per counter: its value range and where it first reaches its maximum (lo > hi: not
  // computed yet).
  struct CounterRange {
    double lo = 1, hi = -1;  // the drawn range: hi is lo + 1 for a constant counter
    double max = 0;          // the largest finite value, as the gutter writes it
    double peak = 0;         // the largest finite value; the peak is marked when it is above 0
    TimeNs peakTs = 0;
  };
  std::vector<CounterRange> counterRanges_;
  std::vector<DrawItem> scratch_;
  std::vector<double> lastMarkX_;
  QFont font_;
};

// A counter value as the gutter's "max" and the memory peak show it: four significant
// digits, except a memory track (values in MiB) under 0.1 MiB, which reads in bytes or
// KiB ("8 B" rather than "7.629e-06": CPU allocation tracks often peak at a few bytes).
QString counterValueText(double value, bool mebibytes);

}  // namespace opscope::ui
