#include "timeline/track_layout.h"

#include <algorithm>
#include <filesystem>
#include <tuple>

#include "timeline/time_view.h"

namespace opscope::ui {

namespace {

// Sort key of a RawId: numbers before strings, numbers by value, strings by text.
auto idKey(const Trace& trace, const RawId& id) {
  return std::make_tuple(id.isString ? 1 : 0, id.isString ? 0 : id.num,
                         id.isString ? trace.str(id.str) : std::string_view());
}

int kindRank(TrackKind k) {
  switch (k) {
    case TrackKind::GpuStream:
      return 0;
    case TrackKind::Thread:
      return 1;
    case TrackKind::Async:
      return 2;
  }
  return 3;
}

}  // namespace

int TimelineLayout::entryAt(int y) const {
  auto it = std::upper_bound(entries.begin(), entries.end(), y, [](int v, const LayoutEntry& e) { return v < e.y; });
  if (it == entries.begin()) return -1;
  --it;
  return y < it->bottom() ? static_cast<int>(it - entries.begin()) : -1;
}

int TimelineLayout::entryOfTrack(uint32_t track) const { return track < trackEntry.size() ? trackEntry[track] : -1; }

std::vector<uint32_t> processOrder(const Trace& trace) {
  std::vector<uint32_t> order(trace.processes.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::vector<uint8_t> device(trace.processes.size(), 0);
  for (const Track& t : trace.tracks)
    if (t.kind == TrackKind::GpuStream && t.slices.size() > 0) device[t.process] = 1;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const Process& pa = trace.processes[a];
    const Process& pb = trace.processes[b];
    // A multi-rank session: rank by rank, each rank's processes as in its own trace.
    if (pa.rank != pb.rank) return pa.rank < pb.rank;
    // The device first: its streams are what the trace is about.
    if (device[a] != device[b]) return device[a] > device[b];
    // Processes with a sort index first, by it (Kineto gives GPUs index 0x1000000+).
    if (pa.hasSortIndex != pb.hasSortIndex) return pa.hasSortIndex;
    if (pa.hasSortIndex && pa.sortIndex != pb.sortIndex) return pa.sortIndex < pb.sortIndex;
    return idKey(trace, pa.pid) < idKey(trace, pb.pid);
  });
  return order;
}

std::string rankHeaderLabel(const Trace& trace, int64_t rank) {
  std::string label = "rank " + std::to_string(rank);
  size_t streams = 0, threads = 0;
  for (const Track& t : trace.tracks)
    if (t.slices.size() > 0 && trace.processes[t.process].rank == rank)
      ++(t.kind == TrackKind::GpuStream ? streams : threads);
  for (const TraceMetadata::SessionRank& s : trace.meta.sessionRanks) {
    if (s.rank != rank) continue;
    label += " \xC2\xB7 clock " + std::string(s.clockOffset > 0 ? "+" : "") + formatDuration(s.clockOffset);
    if (!trace.meta.clockAlignment.empty()) label += " (" + trace.meta.clockAlignment + ")";
  }
  label += " \xC2\xB7 " + std::to_string(streams) + (streams == 1 ? " GPU stream, " : " GPU streams, ") +
           std::to_string(threads) + (threads == 1 ? " thread" : " threads");
  for (const TraceMetadata::SessionRank& s : trace.meta.sessionRanks)
    if (s.rank == rank && !s.file.empty()) label += " \xC2\xB7 " + std::filesystem::path(s.file).filename().string();
  return label;
}

namespace {

void sortTracks(const Trace& trace, std::vector<uint32_t>& tracks) {
  std::stable_sort(tracks.begin(), tracks.end(), [&](uint32_t a, uint32_t b) {
    const Track& ta = trace.tracks[a];
    const Track& tb = trace.tracks[b];
    if (kindRank(ta.kind) != kindRank(tb.kind)) return kindRank(ta.kind) < kindRank(tb.kind);
    if (ta.hasSortIndex != tb.hasSortIndex) return ta.hasSortIndex;
    if (ta.hasSortIndex && ta.sortIndex != tb.sortIndex) return ta.sortIndex < tb.sortIndex;
    if (ta.kind == TrackKind::GpuStream && ta.stream != tb.stream) return ta.stream < tb.stream;
    return idKey(trace, ta.tid) < idKey(trace, tb.tid);
  });
}

// The user's arrangement of one process's tracks: pinned and hidden ones out, the moved
// order first.
void arrange(std::vector<uint32_t>& tracks, uint32_t process, const TrackArrangement& a) {
  auto gone = [&](uint32_t t) {
    return a.hidden.count(t) || std::find(a.pinned.begin(), a.pinned.end(), t) != a.pinned.end();
  };
  std::vector<uint32_t> out;
  if (auto it = a.order.find(process); it != a.order.end())
    for (uint32_t t : it->second)
      if (std::find(tracks.begin(), tracks.end(), t) != tracks.end() && !gone(t)) out.push_back(t);
  for (uint32_t t : tracks)
    if (!gone(t) && std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  tracks = std::move(out);
}

}  // namespace

std::vector<uint32_t> defaultTrackOrder(const Trace& trace, uint32_t process) {
  std::vector<uint32_t> tracks;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t)
    if (trace.tracks[t].process == process && trace.tracks[t].slices.size() > 0) tracks.push_back(t);
  sortTracks(trace, tracks);
  return tracks;
}

TimelineLayout layoutTracks(const Trace& trace, const RowIndex& rows, const std::set<uint32_t>& collapsed,
                            const LayoutMetrics& m, const std::set<uint32_t>& expanded,
                            const std::set<uint32_t>& hidden, const std::set<int64_t>& collapsedRanks,
                            const TrackArrangement& arrangement) {
  std::vector<std::vector<uint32_t>> tracksOf(trace.processes.size());
  for (uint32_t t = 0; t < trace.tracks.size(); ++t)
    if (trace.tracks[t].slices.size() > 0) tracksOf[trace.tracks[t].process].push_back(t);
  std::vector<std::vector<uint32_t>> countersOf(trace.processes.size());
  for (uint32_t c = 0; c < trace.counters.size(); ++c)
    if (!trace.counters[c].ts.empty() && !arrangement.hiddenCounters.count(c))
      countersOf[trace.counters[c].process].push_back(c);

  TimelineLayout layout;
  int y = 0;
  auto sliceEntry = [&](uint32_t t, uint32_t p, int64_t rank, std::string label) {
    LayoutEntry e;
    e.kind = LayoutEntry::Kind::Slices;
    e.process = p;
    e.rank = rank;
    e.index = t;
    e.y = y;
    const uint32_t all = std::max<uint32_t>(1, rows.track(t).rowCount);
    const bool bounded = trace.tracks[t].kind != TrackKind::GpuStream && m.collapsedRows > 0 && !expanded.count(t);
    e.rows = bounded ? std::min(all, m.collapsedRows) : all;
    e.hiddenRows = all - e.rows;
    e.height = static_cast<int>(e.rows) * m.rowHeight + 2 * m.trackPadding;
    e.label = std::move(label);
    y += e.height;
    layout.entries.push_back(std::move(e));
  };
  // The user's pinned tracks, above everything.
  for (uint32_t t : arrangement.pinned)
    if (t < trace.tracks.size() && trace.tracks[t].slices.size() > 0 && !arrangement.hidden.count(t))
      sliceEntry(t, trace.tracks[t].process, trace.processes[trace.tracks[t].process].rank,
                 "pinned \xC2\xB7 " + trace.trackLabel(t));
  // processOrder keeps each rank's processes together, so a rank's header goes before
  // the first of them that is laid out.
  int64_t rankOpen = kNoId;
  for (uint32_t p : processOrder(trace)) {
    auto& tracks = tracksOf[p];
    auto& counters = countersOf[p];
    if ((tracks.empty() && counters.empty()) || hidden.count(p)) continue;
    const int64_t rank = trace.processes[p].rank;
    if (rank != kNoId && rank != rankOpen) {
      rankOpen = rank;
      LayoutEntry header;
      header.kind = LayoutEntry::Kind::RankHeader;
      header.process = p;
      header.rank = rank;
      header.y = y;
      header.height = m.headerHeight + 4;
      header.folded = collapsedRanks.count(rank) > 0;
      header.label = rankHeaderLabel(trace, rank);
      y += header.height;
      layout.entries.push_back(std::move(header));
    }
    if (rank != kNoId && collapsedRanks.count(rank)) continue;
    sortTracks(trace, tracks);
    if (!arrangement.empty()) arrange(tracks, p, arrangement);
    if (tracks.empty() && counters.empty()) continue;
    std::sort(counters.begin(), counters.end(), [&](uint32_t a, uint32_t b) {
      return trace.str(trace.counters[a].name) < trace.str(trace.counters[b].name);
    });
    LayoutEntry header;
    header.kind = LayoutEntry::Kind::ProcessHeader;
    header.process = p;
    header.rank = rank;
    header.y = y;
    header.height = m.headerHeight;
    header.folded = collapsed.count(p) > 0;
    header.label = trace.processLabel(p);
    y += header.height;
    layout.entries.push_back(std::move(header));
    if (collapsed.count(p)) continue;
    for (uint32_t t : tracks) sliceEntry(t, p, rank, trace.trackLabel(t));
    for (uint32_t c : counters) {
      LayoutEntry e;
      e.kind = LayoutEntry::Kind::Counter;
      e.process = p;
      e.rank = rank;
      e.index = c;
      e.y = y;
      e.height = m.counterHeight;
      e.label = std::string(trace.str(trace.counters[c].name));
      y += e.height;
      layout.entries.push_back(std::move(e));
    }
  }
  layout.height = y;
  layout.trackEntry.assign(trace.tracks.size(), -1);
  layout.processEntries.assign(trace.processes.size(), -1);
  layout.processBottom.assign(trace.processes.size(), 0);
  for (size_t k = 0; k < layout.entries.size(); ++k) {
    const LayoutEntry& e = layout.entries[k];
    if (e.kind == LayoutEntry::Kind::Slices) layout.trackEntry[e.index] = static_cast<int>(k);
    if (e.kind == LayoutEntry::Kind::ProcessHeader) layout.processEntries[e.process] = static_cast<int>(k);
    if (e.kind != LayoutEntry::Kind::RankHeader)
      layout.processBottom[e.process] = std::max(layout.processBottom[e.process], e.bottom());
  }
  return layout;
}

}  // namespace opscope::ui
