#pragma once
// View ▸ Tracks: the user's arrangement of the timeline from the menu bar (and so from
// the command palette, which lists every menu action): pin, hide and move the selected
// event's track, show what was hidden, and the per-stream queued-launch counters and
// per-kind memory-bandwidth counters, which the timeline leaves out until asked for (ten
// streams would add ten rows under the device's streams). The track label's context menu offers the same on a track.
#include <QObject>
#include <vector>

class QAction;
class QMenu;

namespace opscope::ui {

class TimelineWidget;

class TrackCommands : public QObject {
  Q_OBJECT
 public:
  // restore: read and keep the user's choice in the settings (not for scripted windows).
  // The commands act on timeline (its selected event); the queue counters' choice
  // holds for every timeline in follow (the compared trace's too), applied whenever one
  // is given a new trace.
  TrackCommands(QMenu* view, TimelineWidget* timeline, std::vector<TimelineWidget*> follow, bool restore);
  void setQueueCountersShown(bool shown);
  void setBandwidthCountersShown(bool shown);
  // The queued-launch counters of timeline's trace shown or left out: the window's
  // default (left out) for whatever draws a timeline as the window does (--bench-render).
  static void applyQueues(TimelineWidget* timeline, bool shown);
  // The same for the memory-bandwidth counters (analysis/memory_bandwidth.h).
  static void applyBandwidth(TimelineWidget* timeline, bool shown);

 private:
  // The selected event's track, or none.
  bool selectedTrack(uint32_t& track) const;
  TimelineWidget* timeline_;
  std::vector<TimelineWidget*> follow_;
  QAction* queues_ = nullptr;
  QAction* bandwidth_ = nullptr;
};

}  // namespace opscope::ui
