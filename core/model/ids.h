#pragma once
// Small value types shared by the whole model.
#include <cstdint>
#include <limits>

#include "model/string_pool.h"

namespace opscope {

// All times are int64 nanoseconds since the trace's own epoch (Kineto writes µs with
// three decimals, so ns is exact; 2^63 ns is ~292 years, ample for epoch timestamps).
using TimeNs = int64_t;

// The model's time domain. Every time the builder stores lies in [-kMaxTimeNs,
// kMaxTimeNs] (±146 years around the trace's epoch: Unix-epoch nanoseconds fit), and
// every slice also ends inside it, so the difference of any two stored times, and
// start + dur of any slice, fit in TimeNs without overflow. The builder clamps what a
// file puts outside and counts it (WarningKind::TimeOutOfRange); it never wraps.
constexpr TimeNs kMaxTimeNs = (TimeNs{1} << 62) - 1;
// Saturating arithmetic for values read from a file before the builder clamps them.
inline int64_t satAdd(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r)
             ? (b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min())
             : r;
}
inline int64_t satSub(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_sub_overflow(a, b, &r)
             ? (b < 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min())
             : r;
}
// Sums of durations (busy time, totals per name): saturate at the int64 limits instead
// of wrapping. Slices fit the time domain one by one, but many overlapping slices of a
// hostile file can add up past int64. Taking TimeNs& keeps it off double totals.
inline void addTo(TimeNs& total, TimeNs d) { total = satAdd(total, d); }
// ceil(a / b) for a >= 0, b > 0, without the overflow of (a + b - 1) / b near INT64_MAX.
inline int64_t ceilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }
inline TimeNs clampTime(TimeNs t) { return t < -kMaxTimeNs ? -kMaxTimeNs : t > kMaxTimeNs ? kMaxTimeNs : t; }

// Absent correlation / External id / device / stream.
constexpr int64_t kNoId = std::numeric_limits<int64_t>::min();

// A pid or tid exactly as the file wrote it: Kineto uses numbers, strings ("Spans",
// "PyTorch Profiler", even "") and negative numbers; all must round-trip unchanged.
struct RawId {
  bool isString = false;
  int64_t num = 0;
  StringId str = 0;
  friend bool operator==(const RawId& a, const RawId& b) {
    return a.isString == b.isString && (a.isString ? a.str == b.str : a.num == b.num);
  }
};

// Where one slice lives: track index and row in that track's (sorted) columns.
struct EventRef {
  uint32_t track = 0;
  uint32_t index = 0;
  uint64_t packed() const { return (static_cast<uint64_t>(track) << 32) | index; }
  static EventRef unpack(uint64_t v) { return {static_cast<uint32_t>(v >> 32), static_cast<uint32_t>(v)}; }
  friend bool operator==(const EventRef&, const EventRef&) = default;
  friend auto operator<=>(const EventRef&, const EventRef&) = default;
};
constexpr uint64_t kNoRef = ~0ull;

// What a slice is, independent of the dialect that wrote it (Kineto or the legacy
// profiler). Classification happens once, when its category is first seen.
enum class SliceKind : uint8_t {
  Other = 0,
  CpuOp,              // cpu_op, legacy Operator
  UserAnnotation,     // user_annotation
  GpuUserAnnotation,  // gpu_user_annotation: the GPU-side copy of an annotation
  PythonFunction,     // python_function
  Runtime,            // cuda_runtime, legacy Runtime (hip* calls are cuda_runtime too)
  Driver,             // cuda_driver
  Kernel,             // kernel, legacy Kernel
  Memcpy,             // gpu_memcpy, legacy Memcpy
  Memset,             // gpu_memset, legacy Memset
  Sync,               // cuda_sync
  TraceSpan,          // Trace ("PyTorch Profiler (0)")
  Async,              // b/e async slices
};

inline bool isGpuKind(SliceKind k) {
  return k == SliceKind::Kernel || k == SliceKind::Memcpy || k == SliceKind::Memset;
}
inline bool isLaunchKind(SliceKind k) { return k == SliceKind::Runtime || k == SliceKind::Driver; }
inline bool isOpKind(SliceKind k) { return k == SliceKind::CpuOp; }

const char* sliceKindName(SliceKind k);

// Per-slice flags.
enum SliceFlag : uint8_t {
  kFlagFromBeginEnd = 1,  // built from a B/E pair
  kFlagUnterminated = 2,  // B without E: ends at the last timestamp of its track
  kFlagCrossover = 4,     // partially overlaps the slice it starts in (kept, not nested)
  kFlagClampedDur = 8,    // negative or missing duration set to 0
};

}  // namespace opscope
