#pragma once
// One zoom, scroll and selected span shared by linked timelines (the open trace and,
// under it, the trace it is compared with), in a common time axis: each linked
// TimelineWidget shows it shifted by its own offset. A widget whose view changes (the
// user zoomed, or code set it) publishes it; the others apply it without publishing
// again, so following never echoes back and no widget needs a "syncing" flag. A widget
// linked later adopts the view already shared.
#include <QObject>
#include <optional>

#include "timeline/time_view.h"
#include "timeline/timeline_renderer.h"

namespace opscope::ui {

class SharedTimeView : public QObject {
  Q_OBJECT
 public:
  using QObject::QObject;
  const std::optional<TimeView>& view() const { return view_; }
  const std::optional<TimeRange>& mark() const { return mark_; }
  // from: the publishing widget, which does not apply its own change.
  void setView(const TimeView& view, const void* from) {
    view_ = view;
    emit viewSet(view, from);
  }
  // The span of the selection in one of the timelines (none: cleared).
  void setMark(std::optional<TimeRange> mark, const void* from) {
    mark_ = mark;
    emit markSet(mark, from);
  }

 signals:
  void viewSet(opscope::ui::TimeView view, const void* from);
  void markSet(std::optional<opscope::ui::TimeRange> mark, const void* from);

 private:
  std::optional<TimeView> view_;
  std::optional<TimeRange> mark_;
};

}  // namespace opscope::ui
