#pragma once
// GPU streams side by side (as HTA's temporal and overlap reports): per stream busy and
// idle time with the idle split by cause, the time every pair of streams is busy
// together, how much communication is hidden under computation, and GPU utilisation
// over time.
//
// Idle split: in each gap before a GPU event, the part from when the stream became free
// to the end of that event's launch call is host wait (the GPU had nothing queued
// because the host had not issued the work yet); the rest of the gap (launch latency,
// waits on other streams or events, and the gap after a stream's last event) is other.
// The gap before a stream's first event counts from the window's start.
//
// Beside it, Holistic Trace Analysis' classes (get_idle_time_breakdown), per gap between
// two consecutive GPU events of the stream: host wait when the later event's launch call
// started after the earlier event ended (the whole gap), kernel wait when it did not and
// the gap is under 30 µs (launch overhead between back-to-back kernels), other otherwise;
// with per-gap statistics. Mapping: today's host wait is the part of a gap until the
// launch call returned, so it is finer (a gap whose call started after the previous
// event ended is all HTA host wait, only partly host wait here); HTA's kernel wait and
// other are within today's other. HTA counts only gaps between events (not the window's
// edges) and sums negative "gaps" of overlapping events; here only positive gaps count.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/kernel_classes.h"
#include "analysis/sample_stats.h"
#include "hierarchy/iterations.h"
#include "model/trace.h"

namespace opscope {

inline constexpr TimeNs kHtaKernelWaitNs = 30'000;  // HTA's consecutive_kernel_delay (µs in its frames)

struct IdleClass {
  TimeNs time = 0;
  SampleStats gapsUs;  // the gaps of the class, µs
};

struct StreamUsage {
  uint32_t track = 0;
  std::string label;
  uint64_t events = 0;
  TimeNs busy = 0;  // union of its GPU events, clipped to the window
  TimeNs idle = 0;  // wall - busy
  TimeNs idleHostWait = 0;
  TimeNs idleOther = 0;                            // idle - idleHostWait
  IdleClass htaHostWait, htaKernelWait, htaOther;  // HTA's classes of the gaps between events
  TimeNs communication = 0;                        // busy time of collective kernels (class "nccl")
  double utilisation = 0;                          // busy / wall
};

struct StreamUsageReport {
  TimeNs start = 0, end = 0, wall = 0;
  std::vector<StreamUsage> streams;  // busy descending
  // overlap[i * n + j]: time streams i and j are both busy; the diagonal is busy.
  std::vector<TimeNs> overlap;
  TimeNs overlapOf(size_t i, size_t j) const { return overlap[i * streams.size() + j]; }
  TimeNs gpuActive = 0;        // union over all streams
  TimeNs communication = 0;    // union of collective kernels
  TimeNs computation = 0;      // union of all other GPU events
  TimeNs commHidden = 0;       // communication during computation
  double commHiddenShare = 0;  // commHidden / communication (0 without communication)
  TimeNs binWidth = 0;
  std::vector<double> utilisation;  // per bin from start: fraction covered by any GPU event
};

// GPU events starting inside window when given, else the whole trace.
StreamUsageReport streamUsage(const Trace& trace, const KernelClassifier& classifier,
                              std::optional<TimeWindow> window = std::nullopt, size_t bins = 200);

}  // namespace opscope
