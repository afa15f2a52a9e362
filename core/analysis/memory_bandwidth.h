#pragma once
// Memory bandwidth per copy kind (HtoD, DtoH, DtoD, PtoP peer copies, Memset): for every
// memcpy and memset starting in the window, its bytes (the event's "bytes" arg, as
// Kineto, Nsight exports and rocprofv3 record it) and its duration; per kind their
// count, bytes, time and achieved GB/s (bytes over time: a copy's GB/s is bytes per ns),
// split by host memory (pageable, pinned: Kineto names them in the copy's name), and
// over time the concurrent bandwidth of each kind as a step series (a copy adds its rate
// while it runs), as Holistic Trace Analysis' get_memory_bw_time_series builds it. A
// copy's rate is Kineto's "memory bandwidth (GB/s)" arg where present (computed from the
// exact duration, before the JSON's µs rounding), else its bytes over its duration.
//
// Where HTA differs: its summary takes plain statistics of the step series' non-zero
// values, so a level held for 1 ns counts as much as one held for a second; here the
// kind's GB/s is its bytes over its time, and per-copy mean, min and max are given as
// well. HTA rounds copies of no duration up to 1 µs; here they count in bytes and time
// (0) but add no step (no bandwidth without a duration). Copies whose bytes the trace
// does not record count in time and `without_bytes`, not in GB/s.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hierarchy/iterations.h"
#include "model/trace.h"

namespace opscope {

struct CopyTotals {
  uint64_t count = 0;
  uint64_t bytes = 0;
  TimeNs time = 0;             // sum of durations
  uint64_t withoutBytes = 0;   // copies with no "bytes" arg
  TimeNs timeWithBytes = 0;    // the GB/s denominator: durations of copies with bytes
  double gbsMeanOfCopies = 0;  // per copy rate, over copies that have one
  double gbsMin = 0, gbsMax = 0;
  uint64_t ratedCopies = 0;  // copies with bytes and a rate (the per-copy figures)
  // bytes / timeWithBytes, the achieved GB/s; nullopt when no copy had both.
  std::optional<double> gbs() const {
    return timeWithBytes > 0 ? std::optional<double>(static_cast<double>(bytes) / static_cast<double>(timeWithBytes))
                             : std::nullopt;
  }
};

struct BandwidthStep {
  TimeNs ts = 0;
  double gbs = 0;  // concurrent GB/s of the kind from ts until the next step
};

struct CopyKindBandwidth {
  std::string kind;  // "HtoD", "DtoH", "DtoD", "PtoP", "Memset", or another copy kind as named ("HtoH")
  CopyTotals all, pageable, pinned;
  std::vector<BandwidthStep> steps;  // sorted, no two at one ts, ends at 0
  double peakGBs = 0;                // the highest concurrent level
};

struct MemoryBandwidthReport {
  TimeNs start = 0, end = 0;             // the window (the trace's span when none)
  std::vector<CopyKindBandwidth> kinds;  // HtoD, DtoH, DtoD, PtoP, Memset, then others by name
};

// The copy kind of a memcpy or memset event's name: "Memcpy HtoD (Pinned -> Device)" ->
// "HtoD", "Memset (Device)" -> "Memset"; empty for a name with no kind.
std::string copyKindOf(std::string_view name, SliceKind kind);

MemoryBandwidthReport memoryBandwidth(const Trace& trace, std::optional<TimeWindow> window = std::nullopt);

// One counter series per device and copy kind ("HtoD · memory bandwidth (GB/s)") under
// the device's process, for the timeline.
void addMemoryBandwidthCounters(Trace& trace);
inline constexpr std::string_view kMemoryBandwidthCounterSuffix = " \xC2\xB7 memory bandwidth (GB/s)";

}  // namespace opscope
