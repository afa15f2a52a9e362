#include "track_commands.h"

#include <QAction>
#include <QMenu>
#include <QSettings>
#include <algorithm>

#include "analysis/queue_length.h"
#include "timeline/timeline_widget.h"

namespace opscope::ui {

namespace {

const QString kQueuesKey = QStringLiteral("timeline/queueCounters");

}  // namespace

TrackCommands::TrackCommands(QMenu* view, TimelineWidget* timeline, std::vector<TimelineWidget*> follow, bool restore)
    : QObject(view), timeline_(timeline), follow_(std::move(follow)) {
  QMenu* tracks = view->addMenu(QStringLiteral("&Tracks"));
  tracks->addAction(QStringLiteral("&Pin the selected event's track to the top"), this, [this] {
    uint32_t t;
    if (!selectedTrack(t)) return;
    const auto& pinned = timeline_->arrangement().pinned;
    timeline_->setTrackPinned(t, std::find(pinned.begin(), pinned.end(), t) == pinned.end());
  });
  tracks->addAction(QStringLiteral("&Hide the selected event's track"), this, [this] {
    uint32_t t;
    if (selectedTrack(t)) timeline_->setTrackHidden(t, true);
  });
  tracks->addAction(QStringLiteral("Move the selected event's track &up"), this, [this] {
    uint32_t t;
    if (selectedTrack(t)) timeline_->moveTrack(t, -1);
  });
  tracks->addAction(QStringLiteral("Move the selected event's track &down"), this, [this] {
    uint32_t t;
    if (selectedTrack(t)) timeline_->moveTrack(t, +1);
  });
  tracks->addAction(QStringLiteral("&Show every hidden track"), timeline_, &TimelineWidget::showAllTracks);
  tracks->addSeparator();
  queues_ = tracks->addAction(QStringLiteral("&Queued launches per stream"));
  queues_->setCheckable(true);
  queues_->setChecked(restore && QSettings().value(kQueuesKey, false).toBool());
  queues_->setToolTip(QStringLiteral("A counter track under each stream: launches not yet finished on the device"));
  for (TimelineWidget* t : follow_)
    connect(t, &TimelineWidget::dataChanged, this, [this, t] { applyQueues(t, queues_->isChecked()); });
  connect(queues_, &QAction::toggled, this, [this, restore](bool on) {
    if (restore) QSettings().setValue(kQueuesKey, on);
    setQueueCountersShown(on);
  });
}

bool TrackCommands::selectedTrack(uint32_t& track) const {
  if (!timeline_->selected()) return false;
  track = timeline_->selected()->track;
  return true;
}

void TrackCommands::applyQueues(TimelineWidget* timeline, bool shown) {
  const TimelineData* data = timeline->data();
  if (!data) return;
  std::vector<uint32_t> queues;
  for (uint32_t c = 0; c < data->trace->counters.size(); ++c)
    if (isQueueLengthCounter(data->trace->str(data->trace->counters[c].name))) queues.push_back(c);
  if (!queues.empty()) timeline->setCountersHidden(queues, !shown);
}

void TrackCommands::setQueueCountersShown(bool shown) {
  for (TimelineWidget* t : follow_) applyQueues(t, shown);
}

}  // namespace opscope::ui
