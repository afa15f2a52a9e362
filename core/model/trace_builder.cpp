#include "model/trace_builder.h"

#include <algorithm>
#include <numeric>

#include "model/sorted_runs.h"

namespace opscope {

namespace {
// Kineto's activity type names (libkineto ActivityType.cpp) for every backend: the
// accelerator's own events are device activity (Kernel, Memcpy, Memset kinds, so every
// analysis counts them as device time), its runtime calls are launches.
SliceKind classify(std::string_view c) {
  if (c == "cpu_op" || c == "Operator" || c == "collective_comm") return SliceKind::CpuOp;
  if (c == "user_annotation") return SliceKind::UserAnnotation;
  if (c == "gpu_user_annotation" || c == "mlu_user_annotation") return SliceKind::GpuUserAnnotation;
  if (c == "python_function") return SliceKind::PythonFunction;
  if (c == "cuda_runtime" || c == "Runtime" || c == "mtia_runtime" || c == "xpu_runtime" ||
      c == "privateuse1_runtime" || c == "mlu_runtime" || c == "glow_runtime")
    return SliceKind::Runtime;
  if (c == "cuda_driver" || c == "xpu_driver" || c == "privateuse1_driver") return SliceKind::Driver;
  // MTIA's command-processor events, Habana's device ops and CUPTI's range profiler
  // (kernels replayed under counters, their metrics in args) are device activity.
  if (c == "kernel" || c == "Kernel" || c == "mtia_ccp_events" || c == "hpu_op" || c == "cuda_profiler_range")
    return SliceKind::Kernel;
  if (c == "gpu_memcpy" || c == "Memcpy" || c == "mlu_memcpy") return SliceKind::Memcpy;
  if (c == "gpu_memset" || c == "Memset" || c == "mlu_memset") return SliceKind::Memset;
  if (c == "cuda_sync" || c == "xpu_sync") return SliceKind::Sync;
  if (c == "Trace") return SliceKind::TraceSpan;
  return SliceKind::Other;
}

// record_function spans by name: what PyTorch's profiler and the DLRM notebooks' module
// markers open around ops. Kineto files them as user_annotation; the legacy dialect
// (Kineto of 2021, the notebooks' traces) as "Operator", the ops' own category, where
// one would make a whole iteration, forward pass or optimizer step a single top-level
// op hiding every op inside it. No op's name starts like these (ops are "ns::name" or
// autograd nodes; '#' and "## " appear in none).
bool isRecordFunctionSpan(std::string_view n) {
  return n.starts_with("ProfilerStep#") || n.starts_with("## ") || n.starts_with("Optimizer.step#") ||
         n.starts_with("Optimizer.zero_grad#") || n.starts_with("enumerate(DataLoader)#");
}

// The accelerator's name from the categories seen ("GPU" unless another backend's).
const char* deviceKindOf(std::string_view c) {
  if (c.starts_with("mtia_")) return "MTIA";
  if (c == "hpu_op") return "HPU";
  if (c.starts_with("xpu_")) return "XPU";
  if (c.starts_with("mlu_")) return "MLU";
  if (c.starts_with("privateuse1_")) return "device";
  return nullptr;
}
}  // namespace

TraceBuilder::TraceBuilder(Trace& trace) : trace_(trace) {}

uint32_t TraceBuilder::process(const RawId& pid) {
  // Events come in runs of one process: the last answer usually holds.
  if (lastProcess_ != ~0u && pid == lastProcessPid_) return lastProcess_;
  auto [it, inserted] = processByPid_.try_emplace(rawKey(0, pid), static_cast<uint32_t>(trace_.processes.size()));
  if (inserted) {
    Process p;
    p.pid = pid;
    trace_.processes.push_back(p);
  }
  lastProcessPid_ = pid;
  lastProcess_ = it->second;
  return it->second;
}

uint32_t TraceBuilder::mergedTrack(uint32_t process) {
  // Once per event on the merged track: the words are made once, not per event.
  static const std::string note = "a thread or stream beyond the first " + std::to_string(kMaxTracks) +
                                  " tracks: its events are on one merged track";
  trace_.diagnostics.add(WarningKind::TracksMerged, 1, note);
  if (overflowTrack_ == ~0u) {
    Track t;
    t.kind = TrackKind::Thread;
    t.process = process;
    t.tid.isString = true;
    t.tid.str = trace_.strings.intern("merged");
    t.name = trace_.strings.intern("threads and streams beyond the first " + std::to_string(kMaxTracks) + ", merged");
    overflowTrack_ = static_cast<uint32_t>(trace_.tracks.size());
    trace_.tracks.push_back(std::move(t));
    openSlices_.emplace_back();
  }
  return overflowTrack_;
}

uint32_t TraceBuilder::threadTrack(const RawId& pid, const RawId& tid) {
  if (lastTrack_ != ~0u && pid == lastPid_ && tid == lastTid_) return lastTrack_;
  const uint32_t proc = process(pid);
  Key key = rawKey(kThreadTag, tid);
  key.a |= static_cast<uint64_t>(proc) << 32;
  if (trace_.tracks.size() >= kMaxTracks && !trackByKey_.count(key)) return mergedTrack(proc);
  auto [it, inserted] = trackByKey_.try_emplace(key, static_cast<uint32_t>(trace_.tracks.size()));
  if (inserted) {
    Track t;
    t.kind = TrackKind::Thread;
    t.process = proc;
    t.tid = tid;
    trace_.tracks.push_back(std::move(t));
    openSlices_.emplace_back();
  }
  lastPid_ = pid;
  lastTid_ = tid;
  lastTrack_ = it->second;
  return it->second;
}

SliceKind TraceBuilder::kindOf(StringId cat) {
  if (cat == lastCat_) return lastKind_;
  auto it = kindByCat_.find(cat);
  SliceKind k;
  if (it == kindByCat_.end()) {
    k = classify(trace_.str(cat));
    kindByCat_.emplace(cat, k);
  } else {
    k = it->second;
  }
  lastCat_ = cat;
  lastKind_ = k;
  return k;
}

bool TraceBuilder::isRecordFunctionName(StringId name) {
  if (name >= spanByName_.size()) spanByName_.resize(static_cast<size_t>(name) + 1, kUnclassified);
  uint8_t& c = spanByName_[name];
  if (c == kUnclassified) c = isRecordFunctionSpan(trace_.str(name)) ? 1 : 0;
  return c == 1;
}

TimeNs TraceBuilder::clampPoint(TimeNs t, const char* what) {
  const TimeNs c = clampTime(t);
  if (c != t)
    trace_.diagnostics.add(WarningKind::TimeOutOfRange, 1,
                           std::string(what) + " at " + std::to_string(t) + " ns, beyond ±2^62 ns: clamped");
  return c;
}

void TraceBuilder::clampSlice(SliceInput& in) {
  in.start = clampPoint(in.start, "a slice's start");
  if (in.dur < 0) in.dur = 0;
  if (in.dur > kMaxTimeNs - in.start) {  // no overflow: start >= -kMaxTimeNs
    trace_.diagnostics.add(WarningKind::TimeOutOfRange, 1,
                           "a slice of " + std::to_string(in.dur) + " ns ends beyond 2^62 ns: its duration is cut");
    in.dur = kMaxTimeNs - in.start;
  }
}

uint32_t TraceBuilder::appendRow(Track& t, const SliceInput& input, const ArgsWriter& args) {
  SliceInput in = input;
  clampSlice(in);
  SliceColumns& s = t.slices;
  const auto row = static_cast<uint32_t>(s.size());
  SliceKind kind = kindOf(in.cat);
  if (kind == SliceKind::CpuOp && isRecordFunctionName(in.name)) kind = SliceKind::UserAnnotation;
  s.start.push_back(in.start);
  s.dur.push_back(in.dur);
  s.name.push_back(in.name);
  s.cat.push_back(in.cat);
  s.kind.push_back(kind);
  s.flags.push_back(in.flags);
  s.correlation.push_back(in.correlation);
  s.externalId.push_back(in.externalId);
  if (lazyArgs_) {
    s.argsAt.push_back(args.fileOffset());
  } else if (s.argsBlob.size() + args.byteSize() < SliceColumns::kNoArgs) {
    s.argsOffset.push_back(static_cast<uint32_t>(args.appendTo(s.argsBlob)));
  } else {
    s.argsOffset.push_back(SliceColumns::kNoArgs);
    trace_.diagnostics.add(WarningKind::ArgsDropped, 1, "a track holds more than 4 GiB of args");
  }
  if (isGpuKind(kind)) {
    if (t.device == kNoId) t.device = in.device;
    if (t.stream == kNoId) t.stream = in.stream;
  }
  return row;
}

uint32_t TraceBuilder::addSlice(uint32_t track, const SliceInput& in, const ArgsWriter& args) {
  return appendRow(trace_.tracks[track], in, args);
}

void TraceBuilder::beginSlice(uint32_t track, const SliceInput& in, const ArgsWriter& args) {
  SliceInput open = in;
  open.flags |= kFlagFromBeginEnd;
  open.dur = 0;
  openSlices_[track].push_back(appendRow(trace_.tracks[track], open, args));
}

bool TraceBuilder::endSlice(uint32_t track, TimeNs ts, uint64_t at) {
  ts = clampPoint(ts, "an end");
  auto& open = openSlices_[track];
  if (open.empty()) {
    return deferEnd({track, 0, 0, false, ts, at});
  }
  const uint32_t row = open.back();
  open.pop_back();
  closeBegin(track, row, ts);
  return true;
}

bool TraceBuilder::deferEnd(const DeferredEnd& e) {
  if (!deferEnds_) return false;
  if (deferredEnds_.size() < kMaxDeferredEnds) deferredEnds_.push_back(e);
  else tooManyDeferred_ = true;
  return true;
}

void TraceBuilder::closeBegin(uint32_t track, uint32_t row, TimeNs ts) {
  SliceColumns& s = trace_.tracks[track].slices;
  if (ts < s.start[row]) {
    s.flags[row] |= kFlagClampedDur;
    s.dur[row] = 0;
  } else {
    s.dur[row] = ts - s.start[row];
  }
}

uint32_t TraceBuilder::asyncTrack(uint32_t process, StringId cat, StringId id, AsyncScope scope) {
  const Key key = asyncKey(scope, process, cat, id);
  if (trace_.tracks.size() >= kMaxTracks && !trackByKey_.count(key)) {
    lastTrack_ = ~0u;
    return mergedTrack(process);
  }
  auto [it, inserted] = trackByKey_.try_emplace(key, static_cast<uint32_t>(trace_.tracks.size()));
  if (inserted) {
    Track t;
    t.kind = TrackKind::Async;
    t.process = process;
    t.tid.isString = true;
    t.tid.str = id;
    t.scope = scope;
    t.name = cat;
    trace_.tracks.push_back(std::move(t));
    openSlices_.emplace_back();
    lastTrack_ = ~0u;  // the cache holds thread tracks only
  }
  return it->second;
}

void TraceBuilder::asyncBegin(uint32_t process, StringId cat, StringId id, const SliceInput& in, const ArgsWriter& args,
                              uint32_t lane, AsyncScope scope) {
  const uint32_t track = asyncTrack(process, cat, id, scope);
  SliceInput open = in;
  open.dur = 0;
  const uint32_t row = appendRow(trace_.tracks[track], open, args);
  // Lanes on async tracks only (a full trace's merged track pairs on one stack).
  (trace_.tracks[track].kind == TrackKind::Async ? openOf(track, lane) : openSlices_[track]).push_back(row);
  trace_.tracks[track].slices.kind.back() = SliceKind::Async;
}

bool TraceBuilder::asyncEnd(uint32_t process, StringId cat, StringId id, StringId name, TimeNs ts, uint32_t lane,
                            uint64_t at, AsyncScope scope) {
  ts = clampPoint(ts, "an async end");
  const uint32_t track = asyncTrack(process, cat, id, scope);
  auto& open = trace_.tracks[track].kind == TrackKind::Async ? openOf(track, lane) : openSlices_[track];
  if (open.empty()) {
    return deferEnd({track, lane, name, true, ts, at});
  }
  if (!closeAsync(track, open, name, ts) && deferEnds_) namelessCloses_.push_back({track, lane, name});
  return true;
}

// The innermost open slice of the end's name, else the innermost one.
bool TraceBuilder::closeAsync(uint32_t track, std::vector<uint32_t>& open, StringId name, TimeNs ts) {
  SliceColumns& s = trace_.tracks[track].slices;
  auto it = open.end();
  for (auto j = open.end(); j != open.begin();) {
    --j;
    if (s.name[*j] == name) {
      it = j;
      break;
    }
  }
  const bool byName = it != open.end();
  if (!byName) it = open.end() - 1;
  const uint32_t row = *it;
  open.erase(it);
  s.dur[row] = ts >= s.start[row] ? ts - s.start[row] : 0;
  return byName;
}

void TraceBuilder::addInstant(const Instant& instant) {
  trace_.instants.push_back(instant);
  trace_.instants.back().ts = clampPoint(instant.ts, "an instant");
}

void TraceBuilder::addFlowPoint(const FlowPoint& p) {
  trace_.unboundFlows.push_back(p);
  trace_.unboundFlows.back().ts = clampPoint(p.ts, "a flow point");
}

CounterSeries& TraceBuilder::counterSeries(uint32_t process, StringId name) {
  const Key key{(static_cast<uint64_t>(process) << 32) | (kCounterTag * 2), name};
  auto [it, inserted] = counterByKey_.try_emplace(key, static_cast<uint32_t>(trace_.counters.size()));
  if (inserted) {
    CounterSeries c;
    c.process = process;
    c.name = name;
    trace_.counters.push_back(std::move(c));
  }
  return trace_.counters[it->second];
}

void TraceBuilder::addCounter(uint32_t process, StringId seriesName, TimeNs ts, double value) {
  CounterSeries& c = counterSeries(process, seriesName);
  c.ts.push_back(clampPoint(ts, "a counter sample"));
  c.value.push_back(value);
}

void TraceBuilder::finish() {
  Trace& tr = trace_;
  TimeNs lo = INT64_MAX, hi = INT64_MIN;
  auto see = [&](TimeNs a, TimeNs b) {
    lo = std::min(lo, a);
    hi = std::max(hi, b);
  };

  // A lane's open slices are its track's (unterminated alike).
  for (auto& [key, rows] : laneOpen_)
    openSlices_[key.first].insert(openSlices_[key.first].end(), rows.begin(), rows.end());
  laneOpen_.clear();
  for (uint32_t ti = 0; ti < tr.tracks.size(); ++ti) {
    Track& t = tr.tracks[ti];
    SliceColumns& s = t.slices;
    TimeNs trackEnd = INT64_MIN;
    for (size_t i = 0; i < s.size(); ++i) trackEnd = std::max(trackEnd, s.end(i));
    // Unterminated B / b slices end where their track's last activity ends.
    uint64_t unterminated = 0;
    for (uint32_t row : openSlices_[ti]) {
      s.dur[row] = std::max<TimeNs>(0, trackEnd - s.start[row]);
      s.flags[row] |= kFlagUnterminated;
      ++unterminated;
    }
    if (unterminated)
      tr.diagnostics.add(WarningKind::UnterminatedBegin, unterminated,
                         std::string(tr.str(s.name[openSlices_[ti].front()])) + " on " + tr.trackLabel(ti));
    openSlices_[ti].clear();

    if (t.kind == TrackKind::Thread) {
      for (size_t i = 0; i < s.size(); ++i)
        if (isGpuKind(s.kind[i])) {
          t.kind = TrackKind::GpuStream;
          if (!t.name && tr.str(s.cat[i]) == "cuda_profiler_range") t.name = tr.strings.intern("CUPTI range profiler");
          break;
        }
    }

    // Sort by (start asc, dur desc, arrival). Already-sorted tracks (the common case:
    // Kineto writes each thread in order) cost one linear check. The others are most
    // often a few sorted runs (a thread's ops, then its runtime calls written after them:
    // one break in a million rows on the generated 1 GB trace), merged rather than sorted:
    // arrival breaks the ties, so the order is a strict total one and the merges give
    // what a stable sort gives.
    bool sorted = true;
    for (size_t i = 1; i < s.size() && sorted; ++i)
      sorted = s.start[i - 1] < s.start[i] || (s.start[i - 1] == s.start[i] && s.dur[i - 1] >= s.dur[i]);
    if (!sorted) {
      std::vector<uint32_t> perm(s.size());
      std::iota(perm.begin(), perm.end(), 0u);
      sortRuns(perm, [&](uint32_t a, uint32_t b) {
        if (s.start[a] != s.start[b]) return s.start[a] < s.start[b];
        if (s.dur[a] != s.dur[b]) return s.dur[a] > s.dur[b];
        return a < b;
      });
      s.permute(perm);
    }
    s.depth.assign(s.size(), 0);
    s.parent.assign(s.size(), -1);
    s.shrinkToFit();
    if (s.size()) see(s.start.front(), trackEnd);
  }
  // Kept args by args offset (file order already: one pass and the parts alike).
  const auto byOffset = [](const Trace::KeptArgs& a, const Trace::KeptArgs& b) { return a.argsAt < b.argsAt; };
  if (!std::is_sorted(tr.keptArgs.begin(), tr.keptArgs.end(), byOffset))
    std::sort(tr.keptArgs.begin(), tr.keptArgs.end(), byOffset);
  tr.keptArgs.shrink_to_fit();
  // The first category met that names a backend (the lowest id: the hash map's order
  // would depend on how it was filled, and a parallel load fills it otherwise).
  StringId backend = ~0u;
  for (const auto& [cat, kind] : kindByCat_)
    if (cat < backend && deviceKindOf(tr.str(cat))) backend = cat;
  if (backend != ~0u) tr.meta.deviceKind = deviceKindOf(tr.str(backend));
  for (const Instant& i : tr.instants) see(i.ts, i.ts);
  for (const CounterSeries& c : tr.counters)
    if (!c.ts.empty()) {
      // Counter samples are usually in order; min/max keeps it right when not.
      auto [mn, mx] = std::minmax_element(c.ts.begin(), c.ts.end());
      see(*mn, *mx);
    }
  if (lo <= hi) {
    tr.minTs = lo;
    tr.maxTs = hi;
  }
}

}  // namespace opscope
