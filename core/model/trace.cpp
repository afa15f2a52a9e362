#include "model/trace.h"

#include <algorithm>

namespace opscope {

const char* sliceKindName(SliceKind k) {
  switch (k) {
    case SliceKind::Other:
      return "other";
    case SliceKind::CpuOp:
      return "cpu_op";
    case SliceKind::UserAnnotation:
      return "user_annotation";
    case SliceKind::GpuUserAnnotation:
      return "gpu_user_annotation";
    case SliceKind::PythonFunction:
      return "python_function";
    case SliceKind::Runtime:
      return "runtime";
    case SliceKind::Driver:
      return "driver";
    case SliceKind::Kernel:
      return "kernel";
    case SliceKind::Memcpy:
      return "memcpy";
    case SliceKind::Memset:
      return "memset";
    case SliceKind::Sync:
      return "sync";
    case SliceKind::TraceSpan:
      return "trace";
    case SliceKind::Async:
      return "async";
  }
  return "?";
}

std::optional<EventRef> Trace::parent(EventRef r) const {
  const int32_t p = tracks[r.track].slices.parent[r.index];
  if (p < 0) return std::nullopt;
  return EventRef{r.track, static_cast<uint32_t>(p)};
}

std::vector<NamedArg> Trace::args(EventRef r, std::string* error) const {
  const SliceColumns& s = tracks[r.track].slices;
  if (r.index < s.argsAt.size()) {
    const uint64_t at = s.argsAt[r.index];
    const LazyArgs* source = tracks[r.track].lazyArgs ? tracks[r.track].lazyArgs.get() : lazyArgs.get();
    if (at == SliceColumns::kNoArgsAt || !source) return {};
    return source->read(at, error);
  }
  if (r.index >= s.argsOffset.size()) return {};
  const uint32_t offset = s.argsOffset[r.index];
  if (offset == SliceColumns::kNoArgs) return {};
  std::vector<NamedArg> out;
  for (const Arg& a : decodeArgs({s.argsBlob.data(), s.argsBlob.size()}, offset)) out.push_back(toNamedArg(a, strings));
  return out;
}

const Trace::KeptArgs* Trace::keptArgsOf(EventRef r) const {
  const SliceColumns& s = tracks[r.track].slices;
  if (keptArgs.empty() || tracks[r.track].lazyArgs || r.index >= s.argsAt.size()) return nullptr;
  const uint64_t at = s.argsAt[r.index];
  if (at == SliceColumns::kNoArgsAt) return nullptr;
  const auto it = std::lower_bound(keptArgs.begin(), keptArgs.end(), at,
                                   [](const KeptArgs& a, uint64_t v) { return a.argsAt < v; });
  return it != keptArgs.end() && it->argsAt == at ? it : nullptr;
}

void Trace::argsOfEach(std::span<const EventRef> events, const LazyArgs::Sink& sink, std::string* error,
                       const LazyArgs::KeyFilter* keep) const {
  // Lazy objects grouped by their source (the trace's or a track's own), then one
  // readMany per source; encoded args decoded as met.
  std::vector<std::pair<const LazyArgs*, size_t>> lazy;
  for (size_t i = 0; i < events.size(); ++i) {
    const EventRef r = events[i];
    const SliceColumns& s = tracks[r.track].slices;
    if (r.index < s.argsAt.size()) {
      const LazyArgs* source = tracks[r.track].lazyArgs ? tracks[r.track].lazyArgs.get() : lazyArgs.get();
      if (s.argsAt[r.index] != SliceColumns::kNoArgsAt && source) {
        lazy.emplace_back(source, i);
        continue;
      }
    }
    std::vector<NamedArg> a = args(r);
    if (keep) std::erase_if(a, [&](const NamedArg& n) { return !(*keep)(i, n.key); });
    sink(i, std::move(a));
  }
  std::stable_sort(lazy.begin(), lazy.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t from = 0; from < lazy.size();) {
    size_t to = from;
    while (to < lazy.size() && lazy[to].first == lazy[from].first) ++to;
    std::vector<uint64_t> offsets;
    offsets.reserve(to - from);
    for (size_t k = from; k < to; ++k) {
      const EventRef r = events[lazy[k].second];
      offsets.push_back(tracks[r.track].slices.argsAt[r.index]);
    }
    std::vector<bool> done(to - from, false);
    std::string e;
    const LazyArgs::KeyFilter byEvent = [&](size_t k, std::string_view key) {
      return (*keep)(lazy[from + k].second, key);
    };
    const bool ok = lazy[from].first->readMany(
        offsets,
        [&](size_t k, std::vector<NamedArg>&& a) {
          done[k] = true;
          sink(lazy[from + k].second, std::move(a));
        },
        &e, keep ? &byEvent : nullptr);
    if (!ok) {
      if (error && error->empty()) *error = e;
      for (size_t k = 0; k < done.size(); ++k)
        if (!done[k]) sink(lazy[from + k].second, {});
    }
    from = to;
  }
}

uint64_t Trace::sliceCount() const {
  uint64_t n = 0;
  for (const auto& t : tracks) n += t.slices.size();
  return n;
}

size_t Trace::memoryBytes() const {
  size_t n = strings.memoryBytes();
  for (const auto& t : tracks) n += t.slices.memoryBytes();
  for (const auto& c : counters) n += c.ts.capacity() * 8 + c.value.capacity() * 8;
  n += instants.capacity() * sizeof(Instant) + flows.memoryBytes();
  n += links.gpuToLaunch.memoryBytes() + links.launchToGpu.memoryBytes();
  n += keptArgs.memoryBytes() + keptArgTexts.memoryBytes();
  return n;
}

std::string Trace::rawIdText(const RawId& id) const {
  return id.isString ? std::string(str(id.str)) : std::to_string(id.num);
}

std::string Trace::processLabel(uint32_t process) const {
  const Process& p = processes[process];
  std::string label = p.name ? std::string(str(p.name)) : std::string("process");
  label += " (" + rawIdText(p.pid) + ")";
  return p.rank != kNoId ? "rank " + std::to_string(p.rank) + " \xC2\xB7 " + label : label;
}

std::string Trace::trackLabel(uint32_t track) const {
  const Track& t = tracks[track];
  // Multi-rank sessions: every track says whose it is, wherever its label appears.
  const int64_t rank = processes[t.process].rank;
  std::string s = rank != kNoId ? "rank " + std::to_string(rank) + " \xC2\xB7 " : std::string();
  if (t.kind == TrackKind::GpuStream) {
    const int64_t device =
        t.device != kNoId ? t.device : (processes[t.process].pid.isString ? 0 : processes[t.process].pid.num);
    s += meta.deviceKind + " " + std::to_string(device) + " \xC2\xB7 ";
    // A stream id when the events name one, else the track's own name (CUPTI's range
    // profiler, an exporter's queue), else its tid.
    if (t.queueNumber != kNoId) s += "queue " + std::to_string(t.queueNumber);
    else if (t.stream != kNoId) s += "stream " + std::to_string(t.stream);
    else if (t.name) s += std::string(str(t.name));
    else s += "stream " + rawIdText(t.tid);
    return s;
  }
  if (t.kind == TrackKind::Async) {
    const std::string name(str(t.name)), id = rawIdText(t.tid);
    return s + (name == id ? name + " (async)" : name + " (async " + id + ")");
  }
  const std::string tid = rawIdText(t.tid);
  if (t.holds && !t.name) return s + "thread " + tid + " (unnamed: " + std::string(str(t.holds)) + ")";
  if (t.name) {
    // Kineto names threads "thread 4515 (python3.8)" already: do not repeat the id.
    const std::string_view name = str(t.name);
    if (name.find(tid) != std::string_view::npos) return s + std::string(name);
    return s + "thread " + tid + " (" + std::string(name) + ")";
  }
  return s + "thread " + tid;
}

bool hasCounter(const Trace& trace, uint32_t process, StringId name) {
  // Written back by an opscope before 2026-11-27, a series came back as "<name>.value"
  // (the JSON loader named a lone "value" arg's series by event and key then).
  const std::string written = std::string(trace.str(name)) + ".value";
  for (const CounterSeries& c : trace.counters)
    if (c.process == process && (c.name == name || trace.str(c.name) == written)) return true;
  return false;
}

}  // namespace opscope
