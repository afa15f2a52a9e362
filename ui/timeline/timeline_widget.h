#pragma once
// The timeline view: owns the zoom/scroll state and the selection, turns mouse and
// keys into view changes (Perfetto / chrome://tracing conventions) and paints through
// TimelineRenderer.
#include <QScrollBar>
#include <QWidget>
#include <memory>
#include <optional>
#include <set>
#include <span>

#include "timeline/shared_time_view.h"
#include "timeline/timeline_renderer.h"

namespace opscope::ui {

class TimelineWidget : public QWidget {
  Q_OBJECT
 public:
  explicit TimelineWidget(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const TimelineData> data);
  const TimelineData* data() const { return doc_.get(); }

  const TimeView& view() const { return state_.view; }
  void setView(const TimeView& v);
  // Zoom, scroll and the selected span shared with other timelines (shared_time_view.h);
  // offset: this timeline's time minus the shared axis's. Null unlinks.
  void linkView(std::shared_ptr<SharedTimeView> shared, TimeNs offset);
  // The span another linked timeline selected, drawn over this one (none: cleared).
  std::optional<TimeRange> linkedMark() const { return state_.linkedMark; }
  void showRange(TimeNs start, TimeNs end);  // fits [start, end] with a small margin
  void fitAll();
  void fitSelection();  // the selection, else the area selection, else everything
  void zoomAtPx(double eventX, double factor);
  void panPx(double dx);
  int scrollY() const { return state_.scrollY; }
  void setScrollY(int y);

  std::optional<EventRef> selected() const { return state_.selected; }
  // Selects ref (none clears), scrolls it into view when reveal is set.
  void select(std::optional<EventRef> ref, bool reveal = false);
  // Brings ref on screen vertically and horizontally, zooming in when it is too small.
  void reveal(EventRef ref);
  // Selects the other end of the selection's first flow (launch -> kernel, flow start ->
  // end) when forward, else of its first incoming one; false when it has none.
  bool followFlow(bool forward);

  // Highlights the matcher's names; matches (sorted by start) are marked inside folds.
  void setSearch(std::shared_ptr<const NameMatcher> matcher, std::shared_ptr<const std::vector<EventRef>> matches = {});
  // The critical path's edges between tracks (empty: none), drawn until replaced.
  void setPathArrows(std::vector<PathArrow> arrows);
  void setTheme(Theme theme);
  Theme theme() const { return state_.theme; }
  void setProcessCollapsed(uint32_t process, bool collapsed);
  // Multi-rank sessions: a collapsed rank shows only its header line.
  void setRankCollapsed(int64_t rank, bool collapsed);
  void setAllRanksCollapsed(bool collapsed);
  // Multi-rank sessions: only these ranks' processes are laid out (empty: every rank).
  void setShownRanks(const std::set<int64_t>& ranks);
  // Threads show LayoutMetrics::collapsedRows rows until expanded (a click on their
  // label); a selected slice on a hidden row expands its thread.
  void setTrackExpanded(uint32_t track, bool expanded);
  // The user's arrangement (the track label's context menu, the command palette): pin a
  // track above everything, hide it, move it within its process (delta -1 up, +1 down;
  // false when it cannot move).
  void setTrackPinned(uint32_t track, bool pinned);
  void setTrackHidden(uint32_t track, bool hidden);
  // Counter series left out of the layout (or shown again).
  void setCountersHidden(const std::vector<uint32_t>& counters, bool hidden);
  void showAllTracks();
  bool moveTrack(uint32_t track, int delta);
  const TrackArrangement& arrangement() const { return arrangement_; }
  // CPU-only processes with more threads than this start folded.
  static constexpr uint32_t kFoldThreads = 8;
  void setAllTracksExpanded(bool expanded);
  bool trackExpanded(uint32_t track) const { return expanded_.count(track) > 0; }
  const TimelineLayout& layout() const { return layout_; }
  const LayoutMetrics& metrics() const { return state_.metrics; }
  TimelineGeometry geometryNow() const { return TimelineGeometry(eventAreaSize()); }

  // The slice under a widget position, if any.
  std::optional<EventRef> eventAt(QPoint pos) const;
  // Tooltip text of the folded block under pos (count, the name that dominates it and
  // its share of their time); empty where the mouse is not over a folded block.
  QString foldedTipAt(QPoint pos) const;
  // Tooltip text of the track label under pos in the gutter (full label, event count,
  // the stream id or OpenCL queue handle behind a numbered queue); empty elsewhere.
  QString trackTipAt(QPoint pos) const;
  // An instant event drawn within 3 px of pos (thread instants: on pos's track), if any.
  std::optional<uint32_t> instantAt(QPoint pos) const;
  // Widget position of the middle of a slice's visible part (tests, automation).
  std::optional<QPoint> positionOf(EventRef ref) const;
  // The slice's rectangle in widget coordinates, unclipped (it may lie outside the
  // event area); nullopt when its track is not laid out (a folded process).
  std::optional<QRect> eventRect(EventRef ref) const;

  // Paints the current view into any device: exports and the render benchmark.
  RenderStats render(QPainter& painter, QSize size);
  // The whole track list as laid out now (threads expanded or not as on screen), from
  // the first track, whatever the scroll position: the "whole track list" exports.
  QSize wholeListSize() const;
  RenderStats renderWholeList(QPainter& painter);
  std::optional<TimeRange> areaSelection() const { return state_.area; }

 signals:
  void selectionChanged(std::optional<opscope::EventRef> ref);
  void areaSelected(opscope::ui::TimeRange range, std::vector<uint32_t> tracks);
  // Esc cleared the area selection (or M unmarked a span).
  void areaCleared();
  // Tracks were pinned, hidden, shown or moved.
  void arrangementChanged();
  void viewChanged();
  // setData gave it another trace (or none); the arrangement starts afresh.
  void dataChanged();

 protected:
  void paintEvent(QPaintEvent*) override;
  void resizeEvent(QResizeEvent*) override;
  void wheelEvent(QWheelEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  // A track's menu: pin to the top, move up or down, hide; show the hidden tracks.
  void contextMenuEvent(QContextMenuEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;
  void mouseReleaseEvent(QMouseEvent*) override;
  void mouseDoubleClickEvent(QMouseEvent*) override;
  void keyPressEvent(QKeyEvent*) override;
  bool event(QEvent*) override;

 private:
  std::shared_ptr<SharedTimeView> link_;
  TrackArrangement arrangement_;
  TimeNs linkOffset_ = 0;
  QSize eventAreaSize() const;  // the widget minus the vertical scroll bar
  // Folds or unfolds a rank or process header; false for any other entry.
  bool toggleHeader(const LayoutEntry& header);
  // The slice row under pos in the event area (what eventAt and foldedTipAt look in).
  struct RowAt {
    uint32_t track;
    std::span<const uint32_t> row;
    bool mayOverlap;  // the overflow row of crossovers
    double x;         // pos in event-area pixels
    double width;     // of the event area
  };
  std::optional<RowAt> sliceRowAt(QPoint pos) const;
  void relayout();
  void clampState();
  void updateScrollBar();
  void computeArrows();
  std::vector<uint32_t> tracksBetween(int y0, int y1) const;
  void centreOverviewAt(int x);
  double eventsWidth() const;

  enum class Drag { None, Pan, Area, Overview };
  std::shared_ptr<const TimelineData> doc_;
  std::shared_ptr<const NameMatcher> search_;
  std::shared_ptr<const std::vector<EventRef>> matches_;
  std::vector<Flow> linkFlows_;  // flows other than ac2g (fwd -> bwd), for arrows
  RenderState state_;
  TimelineLayout layout_;
  std::set<uint32_t> collapsed_;
  std::set<int64_t> collapsedRanks_;
  std::set<uint32_t> hidden_;  // processes of ranks the rank filter leaves out
  std::set<uint32_t> expanded_;
  TimelineRenderer renderer_;
  QScrollBar* vbar_ = nullptr;
  Drag drag_ = Drag::None;
  bool dragMoved_ = false;
  QPoint pressPos_;
  TimeView pressView_;
  int pressScroll_ = 0;
  QPoint lastMouse_{-1, -1};
};

}  // namespace opscope::ui
