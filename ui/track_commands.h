#pragma once
// View ▸ Tracks: the user's arrangement of the timeline from the menu bar (and so from
// the command palette, which lists every menu action): pin, hide and move the selected
// event's track, show what was hidden, and the per-stream queued-launch counters, which
// the timeline leaves out until asked for (ten streams would add ten rows under the
// device's streams). The track label's context menu offers the same on a track.
#include <QObject>

class QAction;
class QMenu;

namespace opscope::ui {

class TimelineWidget;

class TrackCommands : public QObject {
  Q_OBJECT
 public:
  // restore: read and keep the user's choice in the settings (not for scripted windows).
  TrackCommands(QMenu* view, TimelineWidget* timeline, bool restore);
  // A new trace in the timeline: its queue counters hidden unless the user asked for them.
  void applyToNewTrace();
  void setQueueCountersShown(bool shown);

 private:
  // The selected event's track, or none.
  bool selectedTrack(uint32_t& track) const;
  TimelineWidget* timeline_;
  QAction* queues_ = nullptr;
};

}  // namespace opscope::ui
