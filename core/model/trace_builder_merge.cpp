// TraceBuilder::absorb: the merge step of parallel loading. Every id a part handed out
// (strings, processes, tracks, counter series) is translated into this builder's by
// meeting the part's entries in the order the part created them, which is the order a
// single pass over the part's events would have created the new ones in.
#include <algorithm>
#include <numeric>
#include <type_traits>

#include "model/trace_builder.h"

namespace opscope {

void TraceBuilder::noteProcessMetadata(uint32_t process, uint8_t fields) {
  if (process >= processMetaSet_.size()) processMetaSet_.resize(process + 1, 0);
  processMetaSet_[process] |= fields;
}

void TraceBuilder::noteTrackMetadata(uint32_t track, uint8_t fields) {
  if (track >= trackMetaSet_.size()) trackMetaSet_.resize(track + 1, 0);
  trackMetaSet_[track] |= fields;
}

bool TraceBuilder::hasOpenAsyncSlices() const {
  for (size_t t = 0; t < openSlices_.size(); ++t)
    if (!openSlices_[t].empty() && trace_.tracks[t].kind != TrackKind::Thread) return true;
  return std::any_of(laneOpen_.begin(), laneOpen_.end(), [](const auto& open) { return !open.second.empty(); });
}

bool TraceBuilder::canAbsorb(std::span<TraceBuilder* const> parts) const {
  size_t tracks = trace_.tracks.size();
  bool asyncOpen = hasOpenAsyncSlices();
  for (const TraceBuilder* part : parts) {
    if (part->overflowTrack_ != ~0u || part->tooManyDeferred_) return false;
    // The slices left open before the part only lose some to its deferred ends, so an
    // async end that chose the part's innermost slice chose as one pass would when no
    // async slice was open before the part.
    if (asyncOpen && !part->namelessCloses_.empty()) return false;
    asyncOpen = asyncOpen || part->hasOpenAsyncSlices();
    tracks += part->trace_.tracks.size();
  }
  return tracks <= kMaxTracks;
}

bool TraceBuilder::absorb(TraceBuilder& part) {
  Trace& to = trace_;
  Trace& from = part.trace_;
  if (part.overflowTrack_ != ~0u) return false;

  // Strings in the part's id order: the new ones get ids in the order the part met them.
  std::vector<StringId> str(from.strings.size());
  for (size_t i = 0; i < str.size(); ++i) str[i] = to.strings.intern(from.strings.get(static_cast<StringId>(i)));
  auto raw = [&](RawId id) {
    if (id.isString) id.str = str[id.str];
    return id;
  };

  // Kept args: the part's texts renumbered, after the earlier parts' (file order).
  if (!from.keptArgs.empty()) {
    std::vector<StringId> text(from.keptArgTexts.size());
    for (size_t i = 0; i < text.size(); ++i)
      text[i] = to.keptArgTexts.intern(from.keptArgTexts.get(static_cast<StringId>(i)));
    for (const Trace::KeptArgs& a : from.keptArgs) to.keptArgs.push_back({a.argsAt, text[a.text]});
    from.keptArgs = {};
  }

  // Processes, found or added by pid.
  std::vector<uint32_t> proc(from.processes.size());
  for (size_t i = 0; i < proc.size(); ++i) {
    const Process& p = from.processes[i];
    const RawId pid = raw(p.pid);
    auto [it, inserted] = processByPid_.try_emplace(rawKey(0, pid), static_cast<uint32_t>(to.processes.size()));
    if (inserted) {
      Process q;
      q.pid = pid;
      to.processes.push_back(q);
    }
    proc[i] = it->second;
  }

  // Track keys first: nothing of the tracks changes when the sum would pass kMaxTracks.
  std::vector<Key> keys(from.tracks.size());
  size_t added = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const Track& t = from.tracks[i];
    if (t.kind == TrackKind::Async) {
      keys[i] = asyncKey(t.scope, proc[t.process], str[t.name], str[t.tid.str]);
    } else {
      keys[i] = rawKey(kThreadTag, raw(t.tid));
      keys[i].a |= static_cast<uint64_t>(proc[t.process]) << 32;
    }
    added += !trackByKey_.count(keys[i]);
  }
  if (to.tracks.size() + added > kMaxTracks) return false;

  // Part's deferred ends, by track and in file order within one.
  std::vector<uint32_t> deferred(part.deferredEnds_.size());
  std::iota(deferred.begin(), deferred.end(), 0u);
  std::stable_sort(deferred.begin(), deferred.end(),
                   [&](uint32_t x, uint32_t y) { return part.deferredEnds_[x].track < part.deferredEnds_[y].track; });
  size_t nextDeferred = 0;
  std::vector<std::pair<uint64_t, bool>> unmatched;  // (offset, async)

  // Metadata set in the part is the later setting: it wins, as it would in one pass.
  for (size_t i = 0; i < proc.size(); ++i) {
    const uint8_t set = i < part.processMetaSet_.size() ? part.processMetaSet_[i] : 0;
    if (!set) continue;
    const Process& p = from.processes[i];
    Process& q = to.processes[proc[i]];
    if (set & kMetaName) q.name = str[p.name];
    if (set & kMetaLabels) q.labels = str[p.labels];
    if (set & kMetaSortIndex) q.sortIndex = p.sortIndex, q.hasSortIndex = p.hasSortIndex;
    noteProcessMetadata(proc[i], set);
  }

  std::vector<uint32_t> track(from.tracks.size());
  size_t argsDropped = 0;
  for (size_t i = 0; i < track.size(); ++i) {
    Track& t = from.tracks[i];
    auto [it, inserted] = trackByKey_.try_emplace(keys[i], static_cast<uint32_t>(to.tracks.size()));
    const uint32_t g = track[i] = it->second;
    if (inserted) {
      Track n;
      n.kind = t.kind;
      n.process = proc[t.process];
      n.tid = raw(t.tid);
      n.scope = t.scope;
      n.name = t.kind == TrackKind::Async ? str[t.name] : 0;
      to.tracks.push_back(std::move(n));
      openSlices_.emplace_back();
    }
    Track& d = to.tracks[g];
    const uint8_t set = i < part.trackMetaSet_.size() ? part.trackMetaSet_[i] : 0;
    if (set & kMetaName) d.name = str[t.name];
    if (set & kMetaSortIndex) d.sortIndex = t.sortIndex, d.hasSortIndex = t.hasSortIndex;
    if (set) noteTrackMetadata(g, set);
    if (d.device == kNoId) d.device = t.device;
    if (d.stream == kNoId) d.stream = t.stream;

    // Rows: the part's follow this builder's; its open ones keep their place.
    SliceColumns& s = t.slices;
    SliceColumns& o = d.slices;
    const auto base = static_cast<uint32_t>(o.size());
    for (StringId& n : std::span(s.name.data(), s.size())) n = str[n];
    for (StringId& c : std::span(s.cat.data(), s.size())) c = str[c];
    if (base == 0) {
      // Kept args (a gzip file's parts) name strings by the part's ids: written anew.
      PodColumn<uint8_t> blob;
      PodColumn<uint32_t> offsets;
      argsDropped +=
          appendArgsTranslated({s.argsBlob.data(), s.argsBlob.size()}, {s.argsOffset.data(), s.argsOffset.size()}, str,
                               SliceColumns::kNoArgs, blob, offsets);
      std::swap(o, s);
      o.argsBlob = std::move(blob);
      o.argsOffset = std::move(offsets);
    } else {
      // Each of the part's columns is freed as soon as it is appended: the next
      // column's growth then takes pages just freed (already backed on a VM whose host
      // takes back free memory) instead of fresh ones.
      auto appendAndFree = [](auto& into, auto& from) {
        into.append(from.data(), from.size());
        from = std::remove_reference_t<decltype(from)>{};
      };
      appendAndFree(o.start, s.start);
      appendAndFree(o.dur, s.dur);
      appendAndFree(o.name, s.name);
      appendAndFree(o.cat, s.cat);
      appendAndFree(o.kind, s.kind);
      appendAndFree(o.flags, s.flags);
      appendAndFree(o.correlation, s.correlation);
      appendAndFree(o.externalId, s.externalId);
      appendAndFree(o.argsAt, s.argsAt);
      argsDropped +=
          appendArgsTranslated({s.argsBlob.data(), s.argsBlob.size()}, {s.argsOffset.data(), s.argsOffset.size()}, str,
                               SliceColumns::kNoArgs, o.argsBlob, o.argsOffset);
    }
    s = SliceColumns{};  // the part's copy is freed as the merge goes
    // The ends part could not match close what this builder left open, before part's
    // own open slices go on top of the stacks (they were opened later).
    for (; nextDeferred < deferred.size() && part.deferredEnds_[deferred[nextDeferred]].track == i; ++nextDeferred) {
      const DeferredEnd& e = part.deferredEnds_[deferred[nextDeferred]];
      std::vector<uint32_t>& open = e.async && d.kind == TrackKind::Async ? openOf(g, e.lane) : openSlices_[g];
      if (open.empty()) {
        unmatched.emplace_back(e.at, e.async);
      } else if (e.async) {
        closeAsync(g, open, str[e.name], e.ts);
      } else {
        const uint32_t row = open.back();
        open.pop_back();
        closeBegin(g, row, e.ts);
      }
    }
    for (uint32_t row : part.openSlices_[i]) openSlices_[g].push_back(base + row);
    for (auto it = part.laneOpen_.lower_bound({i, 0}); it != part.laneOpen_.end() && it->first.first == i; ++it)
      for (uint32_t row : it->second) openOf(g, it->first.second).push_back(base + row);
  }

  std::sort(unmatched.begin(), unmatched.end());
  for (const auto& [at, async] : unmatched)
    to.diagnostics.warn(WarningKind::UnmatchedEnd, at, 0, async ? kNoOpenAsyncBegin : kNoOpenBegin);
  if (argsDropped) to.diagnostics.add(WarningKind::ArgsDropped, argsDropped, "a track holds more than 4 GiB of args");
  for (const auto& [cat, kind] : part.kindByCat_) kindByCat_.try_emplace(str[cat], kind);

  for (Instant i : from.instants) {
    i.name = str[i.name];
    i.cat = str[i.cat];
    i.process = proc[i.process];
    if (i.scope == InstantScope::Thread) i.track = track[i.track];
    to.instants.push_back(i);
  }
  for (MemoryEvent m : from.memoryEvents) {
    m.track = track[m.track];
    to.memoryEvents.push_back(m);
  }
  to.unboundFlows.reserve(to.unboundFlows.size() + from.unboundFlows.size());
  for (FlowPoint f : from.unboundFlows) {
    f.track = track[f.track];
    f.cat = str[f.cat];
    f.name = str[f.name];
    if (f.id & kStringFlowId) f.id = kStringFlowId | str[static_cast<StringId>(f.id & ~kStringFlowId)];
    to.unboundFlows.push_back(f);
  }
  for (CounterSeries& c : from.counters) {
    CounterSeries& d = counterSeries(proc[c.process], str[c.name]);
    d.ts.insert(d.ts.end(), c.ts.begin(), c.ts.end());
    d.value.insert(d.value.end(), c.value.begin(), c.value.end());
  }
  to.eventsRead += from.eventsRead;

  // The single-pass caches point at what this builder met last; the part met other ids.
  lastProcess_ = lastTrack_ = ~0u;
  lastCat_ = ~0u;
  from.tracks.clear();
  from.instants.clear();
  from.memoryEvents.clear();
  from.unboundFlows = PodColumn<FlowPoint>{};
  from.counters.clear();
  part.deferredEnds_ = {};
  part.namelessCloses_ = {};
  return true;
}

}  // namespace opscope
