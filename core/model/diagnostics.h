#pragma once
// Warnings about the input, counted by kind. Each kind keeps its first location and
// one example so a person can find it; nothing is logged line by line.
#include <cstdint>
#include <string>
#include <vector>

namespace opscope {

enum class WarningKind : uint8_t {
  Truncated,  // input ended inside the event list
  UnknownPhase,
  MissingField,        // e.g. an X event without ts
  WrongType,           // a string where a number belongs (converted when numeric)
  NegativeDuration,    // clamped to 0
  ControlCharacter,    // raw or escaped control characters in a string
  IdOutOfRange,        // correlation / External id / pid beyond int64
  UnmatchedEnd,        // E without a B on its thread
  UnterminatedBegin,   // B without an E
  Crossover,           // slice partially overlapping the slice it starts in
  DanglingFlow,        // flow end without a start, or whose slice cannot be found
  DanglingLaunchFlow,  // the same for Kineto's ac2g launch flows: expected (informational)
  BadMetadata,         // unreadable M event or top-level metadata value
  NotAnEvent,          // an element of traceEvents that is not an object
  ArgsDropped,         // a track's args beyond 4 GiB are not kept
  TimeOutOfRange,      // a time beyond ±kMaxTimeNs (or a slice ending there): clamped
  Unfinished,          // an activity that never ended (event logs): ends at its clock's last event
  TrailingData,        // bytes after the last gzip member that are not one: not read
  TracksMerged,        // events of threads past kMaxTracks, put on one merged track
  Count_
};

const char* warningKindName(WarningKind k);
// Kinds every file of some tool has and that say nothing is wrong (Kineto writes ac2g
// flow ends whose start it filtered out): listed among the diagnostics, never raised
// as a warning.
bool isInformational(WarningKind k);

struct WarningEntry {
  WarningKind kind;
  uint64_t count = 0;
  uint64_t firstOffset = 0;  // byte offset in the (decompressed) input
  uint64_t firstLine = 0;    // 1-based line, 0 when unknown
  std::string example;       // one short description of the first occurrence
};

class Diagnostics {
 public:
  void warn(WarningKind kind, uint64_t offset, uint64_t line, std::string_view example);
  // Adds n occurrences found after loading (e.g. crossovers found while nesting).
  void add(WarningKind kind, uint64_t n, std::string_view example);
  uint64_t count(WarningKind kind) const;
  uint64_t total() const;
  // Occurrences of kinds that point at a problem, not at something every file of a
  // tool has (see isInformational): what a warning badge counts.
  uint64_t problems() const;
  // Entries with count > 0, in kind order.
  std::vector<WarningEntry> entries() const;
  // "3 crossovers, 1 truncated input" style one-liner of the problems; empty when there
  // is none (informational kinds are left out).
  std::string oneLine() const;
  // Adds the warnings of a later stretch of the same input (parallel loading): counts
  // add up, and a kind's first occurrence is this one's when it has one.
  void absorb(const Diagnostics& later);
  // Sets the line of a kind's first occurrence (parallel loading counts lines after).
  void setFirstLine(WarningKind kind, uint64_t line) { slots_[static_cast<int>(kind)].firstLine = line; }

 private:
  WarningEntry slots_[static_cast<int>(WarningKind::Count_)] = {};
};

}  // namespace opscope
