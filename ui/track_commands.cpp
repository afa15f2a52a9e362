#include "track_commands.h"

#include <QAction>
#include <QMenu>
#include <QSettings>
#include <algorithm>

#include "analysis/memory_bandwidth.h"
#include "analysis/queue_length.h"
#include "timeline/timeline_widget.h"

namespace opscope::ui {

namespace {

const QString kQueuesKey = QStringLiteral("timeline/queueCounters");
const QString kBandwidthKey = QStringLiteral("timeline/bandwidthCounters");

// The counters of timeline's trace whose names match shown or left out.
template <class Match>
void applyCounters(TimelineWidget* timeline, Match match, bool shown) {
  const TimelineData* data = timeline->data();
  if (!data) return;
  std::vector<uint32_t> found;
  for (uint32_t c = 0; c < data->trace->counters.size(); ++c)
    if (match(data->trace->str(data->trace->counters[c].name))) found.push_back(c);
  if (!found.empty()) timeline->setCountersHidden(found, !shown);
}

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
  bandwidth_ = tracks->addAction(QStringLiteral("Memory &bandwidth per copy kind"));
  bandwidth_->setCheckable(true);
  bandwidth_->setChecked(restore && QSettings().value(kBandwidthKey, false).toBool());
  bandwidth_->setToolTip(QStringLiteral("A counter track per device and copy kind: GB/s of the copies running"));
  for (TimelineWidget* t : follow_)
    connect(t, &TimelineWidget::dataChanged, this, [this, t] {
      applyQueues(t, queues_->isChecked());
      applyBandwidth(t, bandwidth_->isChecked());
    });
  connect(queues_, &QAction::toggled, this, [this, restore](bool on) {
    if (restore) QSettings().setValue(kQueuesKey, on);
    setQueueCountersShown(on);
  });
  connect(bandwidth_, &QAction::toggled, this, [this, restore](bool on) {
    if (restore) QSettings().setValue(kBandwidthKey, on);
    setBandwidthCountersShown(on);
  });
}

bool TrackCommands::selectedTrack(uint32_t& track) const {
  if (!timeline_->selected()) return false;
  track = timeline_->selected()->track;
  return true;
}

void TrackCommands::applyQueues(TimelineWidget* timeline, bool shown) {
  applyCounters(timeline, isQueueLengthCounter, shown);
}

void TrackCommands::applyBandwidth(TimelineWidget* timeline, bool shown) {
  applyCounters(
      timeline, [](std::string_view name) { return name.ends_with(kMemoryBandwidthCounterSuffix); }, shown);
}

void TrackCommands::setQueueCountersShown(bool shown) {
  for (TimelineWidget* t : follow_) applyQueues(t, shown);
}

void TrackCommands::setBandwidthCountersShown(bool shown) {
  for (TimelineWidget* t : follow_) applyBandwidth(t, shown);
}

}  // namespace opscope::ui
