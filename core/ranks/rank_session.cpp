#include "ranks/rank_session.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>

#include "hierarchy/iterations.h"
#include "io/trace_loader.h"
#include "model/args.h"
#include "ranks/cross_rank.h"
#include "ranks/rank_inputs.h"
#include "ranks/rank_loader.h"
#include "ranks/rank_metrics.h"

namespace opscope {

namespace {

// Old StringId of one part -> id in the merged pool, interned on first use.
class StringMap {
 public:
  StringMap(const StringPool& from, StringPool& to) : from_(from), to_(to), ids_(from.size(), kUnset) {}
  StringId operator()(StringId id) {
    if (id >= ids_.size()) return 0;
    if (ids_[id] == kUnset) ids_[id] = to_.intern(from_.get(id));
    return ids_[id];
  }
  RawId operator()(RawId id) {
    if (id.isString) id.str = (*this)(id.str);
    return id;
  }

 private:
  static constexpr StringId kUnset = ~StringId{0};
  const StringPool& from_;
  StringPool& to_;
  std::vector<StringId> ids_;
};

uint64_t movedRef(uint64_t packed, uint32_t trackBase) {
  if (packed == kNoRef) return kNoRef;
  EventRef r = EventRef::unpack(packed);
  r.track += trackBase;
  return r.packed();
}

void reencodeArgs(SliceColumns& s, StringMap& map) {
  if (s.argsOffset.empty()) return;
  PodColumn<uint8_t> blob;
  PodColumn<uint32_t> offsets;
  ArgsWriter w;
  for (size_t i = 0; i < s.argsOffset.size(); ++i) {
    const uint32_t at = s.argsOffset[i];
    if (at == SliceColumns::kNoArgs) {
      offsets.push_back(SliceColumns::kNoArgs);
      continue;
    }
    w.clear();
    for (const Arg& a : decodeArgs({s.argsBlob.data(), s.argsBlob.size()}, at)) {
      const StringId key = map(a.key);
      switch (a.value.type) {
        case ArgType::Null:
          w.addNull(key);
          break;
        case ArgType::False:
          w.addBool(key, false);
          break;
        case ArgType::True:
          w.addBool(key, true);
          break;
        case ArgType::Int:
          w.addInt(key, a.value.i);
          break;
        case ArgType::Double:
          w.addDouble(key, a.value.d);
          break;
        case ArgType::String:
          w.addString(key, map(a.value.s));
          break;
        case ArgType::Json:
          w.addJson(key, map(a.value.s));
          break;
      }
    }
    // Ids may grow a byte each when re-interned: past 4 GiB a row loses its args.
    if (blob.size() + w.byteSize() >= SliceColumns::kNoArgs) offsets.push_back(SliceColumns::kNoArgs);
    else offsets.push_back(static_cast<uint32_t>(w.appendTo(blob)));
  }
  s.argsBlob = std::move(blob);
  s.argsOffset = std::move(offsets);
}

}  // namespace

std::unique_ptr<Trace> mergeRanks(std::vector<RankPart> parts) {
  auto out = std::make_unique<Trace>();
  Trace& m = *out;
  bool first = true;
  std::vector<LaunchLinks::Pair> g2l, l2g;
  for (RankPart& part : parts) {
    Trace& t = *part.trace;
    const TimeNs o = part.offset;
    StringMap map(t.strings, m.strings);
    const uint32_t processBase = static_cast<uint32_t>(m.processes.size());
    const uint32_t trackBase = static_cast<uint32_t>(m.tracks.size());
    if (first) {
      m.meta = t.meta;
      m.meta.rank.reset();
      m.meta.sessionRanks.clear();
      m.lazyArgs = nullptr;
      for (const Iteration& it : t.iterations)
        m.iterations.push_back({it.number, it.start + o, it.end + o, movedRef(it.ref, trackBase)});
      m.minTs = t.minTs + o;
      m.maxTs = t.maxTs + o;
    } else if (t.minTs != t.maxTs || t.maxTs != 0) {
      m.minTs = std::min(m.minTs, t.minTs + o);
      m.maxTs = std::max(m.maxTs, t.maxTs + o);
    }
    m.meta.sessionRanks.push_back({part.rank, o, part.file});
    for (Process p : t.processes) {
      p.pid = map(p.pid);
      p.name = map(p.name);
      p.labels = map(p.labels);
      p.rank = part.rank;
      m.processes.push_back(p);
    }
    for (Track& tr : t.tracks) {
      tr.process += processBase;
      tr.tid = map(tr.tid);
      tr.name = map(tr.name);
      tr.holds = map(tr.holds);
      SliceColumns& s = tr.slices;
      for (auto& v : s.start) v += o;
      for (auto& v : s.name) v = map(v);
      for (auto& v : s.cat) v = map(v);
      reencodeArgs(s, map);
      if (!s.argsAt.empty() && !tr.lazyArgs) tr.lazyArgs = t.lazyArgs;
      m.tracks.push_back(std::move(tr));
    }
    for (CounterSeries& c : t.counters) {
      c.process += processBase;
      c.name = map(c.name);
      for (auto& v : c.ts) v += o;
      m.counters.push_back(std::move(c));
    }
    for (Instant in : t.instants) {
      in.ts += o;
      in.name = map(in.name);
      in.cat = map(in.cat);
      in.process += processBase;
      in.track += trackBase;
      m.instants.push_back(in);
    }
    for (MemoryEvent e : t.memoryEvents) {
      e.ts += o;
      e.track += trackBase;
      m.memoryEvents.push_back(e);
    }
    for (Flow f : t.flows) {
      f.cat = map(f.cat);
      f.name = map(f.name);
      f.from = movedRef(f.from, trackBase);
      f.to = movedRef(f.to, trackBase);
      m.flows.push_back(f);
    }
    for (const auto& p : t.links.gpuToLaunch)
      g2l.push_back({movedRef(p.first, trackBase), movedRef(p.second, trackBase)});
    for (const auto& p : t.links.launchToGpu)
      l2g.push_back({movedRef(p.first, trackBase), movedRef(p.second, trackBase)});
    m.links.unlinkedGpuEvents += t.links.unlinkedGpuEvents;
    const std::string prefix = "rank " + std::to_string(part.rank) + ": ";
    for (const WarningEntry& w : t.diagnostics.entries()) m.diagnostics.add(w.kind, w.count, prefix + w.example);
    m.inputBytes += t.inputBytes;
    m.jsonBytes += t.jsonBytes;
    m.eventsRead += t.eventsRead;
    part.trace.reset();  // its columns now live in the merged trace
    first = false;
  }
  // Track indices grow part by part, so concatenated sorted lists stay sorted.
  for (const auto& p : g2l) m.links.gpuToLaunch.push_back(p);
  for (const auto& p : l2g) m.links.launchToGpu.push_back(p);
  m.meta.worldSize = m.meta.worldSize ? m.meta.worldSize : std::optional<int64_t>(static_cast<int64_t>(parts.size()));
  return out;
}

LoadResult loadRankSession(const std::vector<std::string>& inputs, const LoadOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  LoadResult result;
  std::string error;
  const std::vector<std::string> files = expandRankInputs(inputs, error);
  if (files.empty()) {
    result.status = LoadStatus::IoError;
    result.error = error;
    return result;
  }
  std::vector<LoadResult> loaded(files.size());
  RankLoadOptions ro;
  if (options.progress) {
    ro.progress = [&](const RankLoadProgress& p) {
      LoadProgress lp;
      lp.bytesDone = p.bytesDone;
      lp.bytesTotal = p.bytesTotal;
      return options.progress(lp);
    };
  }
  const bool complete = loadRankFiles(files, ro, [&](size_t i, LoadResult&& r) { loaded[i] = std::move(r); });
  if (!complete) {
    result.status = LoadStatus::Cancelled;
    result.error = "cancelled";
    return result;
  }
  // Ranks as the multi-rank summary assigns them: distributedInfo, file name, free number.
  struct Entry {
    size_t index;
    int64_t rank;
  };
  std::map<int64_t, size_t> claimed;
  std::vector<Entry> entries;
  std::vector<size_t> unnamed;
  std::string failures;
  size_t failed = 0;
  std::vector<std::string> notLoaded;
  for (size_t i = 0; i < files.size(); ++i) {
    if (loaded[i].status != LoadStatus::Ok) {
      if (failed++ == 0) failures = files[i] + ": " + loaded[i].error;
      notLoaded.push_back(files[i] + ": " + loaded[i].error);
      continue;
    }
    std::optional<int64_t> rank = loaded[i].trace->meta.rank;
    if (!rank) rank = rankFromFileName(files[i]);
    if (!rank) {
      unnamed.push_back(i);
      continue;
    }
    if (auto [it, fresh] = claimed.emplace(*rank, i); !fresh) {
      result.status = LoadStatus::InvalidInput;
      result.error = "rank " + std::to_string(*rank) + " is claimed by both " + files[it->second] + " and " + files[i];
      return result;
    }
    entries.push_back({i, *rank});
  }
  int64_t next = 0;
  for (size_t i : unnamed) {
    while (claimed.count(next)) ++next;
    claimed.emplace(next, i);
    entries.push_back({i, next});
  }
  if (entries.empty()) {
    result.status = files.size() == 1 ? loaded[0].status : LoadStatus::InvalidInput;
    result.error = files.size() == 1 ? loaded[0].error : "no rank could be read (" + failures + ")";
    return result;
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.rank < b.rank; });
  std::vector<RankMetrics> metrics;
  metrics.reserve(entries.size());
  for (const Entry& e : entries) metrics.push_back(measureRank(*loaded[e.index].trace));
  std::vector<const RankMetrics*> view;
  for (const RankMetrics& r : metrics) view.push_back(&r);
  const ClockAlignment clocks = alignClocks(view);
  std::vector<RankPart> parts;
  for (size_t k = 0; k < entries.size(); ++k) {
    const Entry& e = entries[k];
    result.timings.parseSeconds = std::max(result.timings.parseSeconds, loaded[e.index].timings.parseSeconds);
    result.peakWindowBytes = std::max(result.peakWindowBytes, loaded[e.index].peakWindowBytes);
    parts.push_back({std::move(loaded[e.index].trace), e.rank, clocks.offsets[k], files[e.index]});
  }
  result.trace = mergeRanks(std::move(parts));
  result.trace->meta.other.emplace_back("clock_alignment", clocks.method);
  result.trace->meta.clockAlignment = clocks.method;
  if (failed) result.trace->diagnostics.add(WarningKind::BadMetadata, failed, "rank trace not loaded: " + failures);
  result.trace->meta.ranksNotLoaded = std::move(notLoaded);
  result.timings.hierarchySeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - result.timings.parseSeconds;
  return result;
}

LoadResult loadTraceOrSession(const std::string& path, const LoadOptions& options) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return loadRankSession({path}, options);
  return loadTraceFile(path, options);
}

}  // namespace opscope
