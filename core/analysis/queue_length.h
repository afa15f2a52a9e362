#pragma once
// Queue length per GPU stream, as Holistic Trace Analysis defines it
// (get_queue_length_summary): the operations a stream has been asked to run and has not
// finished. A kernel, memcpy or memset enters its stream's queue when the runtime call
// that launched it starts and leaves it when it ends on the device; GPU work with no
// launch in the trace (launched before profiling began) is counted apart, not queued.
//
// Over time the depth is a step function; per stream the analysis keeps it (clipped to
// the window, starting with the depth already reached at the window's start), its
// time-weighted mean, its maximum, the time spent at each depth, and the time the queue
// was at or above CUDA's launch-queue limit (1024 pending launches, where the host
// blocks: HTA's "time spent blocked on a full queue"). HTA's summary takes plain
// statistics of the series' samples; the mean here is weighted by time, so a depth
// held for a millisecond counts more than one held for a nanosecond.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hierarchy/iterations.h"
#include "model/trace.h"

namespace opscope {

inline constexpr int32_t kFullLaunchQueue = 1024;

struct QueueStep {
  TimeNs ts = 0;
  int32_t depth = 0;  // from ts until the next step
};

struct StreamQueue {
  uint32_t track = 0;
  std::string label;                // "GPU 0 · stream 7"
  uint64_t operations = 0;          // GPU events queued (with a launch)
  uint64_t withoutLaunch = 0;       // GPU events with no launch in the trace
  std::vector<QueueStep> steps;     // inside the window, sorted by ts, no two at one ts
  double meanDepth = 0;             // time-weighted over the window
  int32_t maxDepth = 0;             // inside the window
  std::vector<TimeNs> timeAtDepth;  // [d]: time at depth d, d = 0..maxDepth
  TimeNs timeFull = 0;              // time at or above kFullLaunchQueue
};

struct QueueLengthReport {
  TimeNs start = 0, end = 0;         // the window (the trace's span when none)
  std::vector<StreamQueue> streams;  // GPU streams with at least one GPU event, track order
};

QueueLengthReport queueLength(const Trace& trace, std::optional<TimeWindow> window = std::nullopt);

// One counter series per stream ("stream 7 · queued launches") under the stream's
// process, for the timeline. A stream with more than maxPoints steps is drawn as the
// maximum depth of each of maxPoints equal bins.
void addQueueLengthCounters(Trace& trace, size_t maxPoints = 200'000);
// The suffix of their names: the window shows them on request (View ▸ Tracks).
inline constexpr std::string_view kQueueLengthCounterSuffix = " \xC2\xB7 queued launches";
inline bool isQueueLengthCounter(std::string_view name) { return name.ends_with(kQueueLengthCounterSuffix); }

}  // namespace opscope
