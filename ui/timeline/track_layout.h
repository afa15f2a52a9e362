#pragma once
// Vertical layout of the timeline: process groups (collapsible headers), inside each
// its device streams, thread tracks, async tracks and counters. Device first: processes
// holding device streams (GPU, MTIA, HPU/XPU, PlaidML devices, Nsight GPUs) come before
// the CPU-only ones; within each group the order the trace's metadata asks for
// (process_sort_index / thread_sort_index, then ids). In a multi-rank session each
// rank's processes sit under a collapsible rank header of their own. The user's
// arrangement comes on top: pinned tracks first, hidden tracks left out, tracks moved
// within their process.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/trace.h"
#include "timeline/row_index.h"

namespace opscope::ui {

struct LayoutMetrics {
  int rowHeight = 18;
  int headerHeight = 22;
  int counterHeight = 34;
  int trackPadding = 4;  // above and below each track's rows
  // CPU threads and async tracks show at most this many rows until expanded (a thread
  // nested 12 deep must not push the GPU streams off screen); 0: all rows always.
  uint32_t collapsedRows = 4;
};

struct LayoutEntry {
  enum class Kind : uint8_t { RankHeader, ProcessHeader, Slices, Counter };
  Kind kind = Kind::Slices;
  uint32_t process = 0;  // RankHeader: the rank's first process shown
  int64_t rank = kNoId;  // the process's rank in a multi-rank session
  uint32_t index = 0;    // track index (Slices) or counter index (Counter)
  int y = 0;             // top, in content coordinates
  int height = 0;
  uint32_t rows = 0;        // Slices: rows drawn
  uint32_t hiddenRows = 0;  // Slices: rows of a collapsed track not drawn (deeper levels, overflow)
  bool folded = false;      // headers: their contents are not laid out
  std::string label;
  int bottom() const { return y + height; }
};

struct TimelineLayout {
  std::vector<LayoutEntry> entries;  // top to bottom
  int height = 0;
  std::vector<int> trackEntry;      // per track: its Slices entry, or -1
  std::vector<int> processEntries;  // per process: index of its header, or -1
  std::vector<int> processBottom;   // per process: y below its last entry
  // Entry under content y, or -1.
  int entryAt(int y) const;
  // Entry of a slice track / counter, or -1 (e.g. its process is collapsed).
  int entryOfTrack(uint32_t track) const;
};

// Process display order: rank by rank; processes with device streams first; then sort
// index when given, then numeric pids before string ones.
std::vector<uint32_t> processOrder(const Trace& trace);

// What the user changed about the track list (the track label's context menu, the
// command palette).
struct TrackArrangement {
  std::vector<uint32_t> pinned;       // laid out first, in this order, labelled "pinned · …"
  std::set<uint32_t> hidden;          // not laid out
  std::set<uint32_t> hiddenCounters;  // counter series not laid out
  // A process's tracks in the order the user moved them to (tracks not listed follow,
  // in the default order).
  std::map<uint32_t, std::vector<uint32_t>> order;
  bool empty() const { return pinned.empty() && hidden.empty() && hiddenCounters.empty() && order.empty(); }
};

// expandedTracks: threads and async tracks shown with all their rows; hiddenProcesses:
// left out entirely, header included (the rank filter of a multi-rank session);
// collapsedRanks: only the rank's header is laid out.
TimelineLayout layoutTracks(const Trace& trace, const RowIndex& rows, const std::set<uint32_t>& collapsedProcesses,
                            const LayoutMetrics& m = {}, const std::set<uint32_t>& expandedTracks = {},
                            const std::set<uint32_t>& hiddenProcesses = {},
                            const std::set<int64_t>& collapsedRanks = {}, const TrackArrangement& arrangement = {});

// The tracks of process p as the layout orders them (device streams, threads, async;
// sort indexes, ids), before the user's arrangement.
std::vector<uint32_t> defaultTrackOrder(const Trace& trace, uint32_t process);

// The header of a rank's group: "rank 3 · clock −12.5 µs (collectives) · 4 GPU streams,
// 2 threads · trace_rank3.json.gz" (offset and file when the session recorded them).
std::string rankHeaderLabel(const Trace& trace, int64_t rank);

// y of row r inside a Slices entry.
inline int rowY(const LayoutEntry& e, const LayoutMetrics& m, uint32_t r) {
  return e.y + m.trackPadding + static_cast<int>(r) * m.rowHeight;
}

}  // namespace opscope::ui
