#include "analysis/memory_bandwidth.h"

#include <algorithm>
#include <map>

namespace opscope {

namespace {

constexpr std::string_view kOrder[] = {"HtoD", "DtoH", "DtoD", "PtoP", "Memset"};

size_t orderOf(std::string_view kind) {
  for (size_t i = 0; i < std::size(kOrder); ++i)
    if (kOrder[i] == kind) return i;
  return std::size(kOrder);
}

bool isEndpoint(char c) { return c == 'H' || c == 'D' || c == 'A' || c == 'P'; }

struct CopyArgs {
  std::optional<uint64_t> bytes;
  std::optional<double> gbs;  // Kineto's "memory bandwidth (GB/s)": bytes over the exact ns duration
};

// The keys copyArgsOf reads.
bool isCopyArgKey(std::string_view key) { return key == "bytes" || key == "memory bandwidth (GB/s)"; }

CopyArgs copyArgsOf(const std::vector<NamedArg>& args) {
  CopyArgs out;
  for (const NamedArg& a : args) {
    const double v = a.type == ArgType::Int ? static_cast<double>(a.i) : a.type == ArgType::Double ? a.d : -1;
    if (!(v >= 0 && v < 1.8e19)) continue;
    if (a.key == "bytes") out.bytes = static_cast<uint64_t>(v);
    else if (a.key == "memory bandwidth (GB/s)") out.gbs = v;
  }
  return out;
}

// A copy's rate: Kineto's own figure where it wrote one (from the duration before its µs
// rounding in the JSON, so a 2 µs copy is not off by up to 25 %), else bytes/duration.
std::optional<double> rateOf(const CopyArgs& a, TimeNs dur) {
  if (a.gbs && *a.gbs > 0) return a.gbs;
  if (a.bytes && dur > 0) return static_cast<double>(*a.bytes) / static_cast<double>(dur);
  return std::nullopt;
}

void add(CopyTotals& t, const CopyArgs& args, TimeNs dur) {
  const std::optional<uint64_t>& bytes = args.bytes;
  ++t.count;
  addTo(t.time, dur);
  if (!bytes) {
    ++t.withoutBytes;
    return;
  }
  if (__builtin_add_overflow(t.bytes, *bytes, &t.bytes)) t.bytes = UINT64_MAX;  // hostile files saturate
  addTo(t.timeWithBytes, dur);
  const auto rate = rateOf(args, dur);
  if (!rate) return;
  const double gbs = *rate;
  t.gbsMin = t.ratedCopies == 0 ? gbs : std::min(t.gbsMin, gbs);
  t.gbsMax = t.ratedCopies == 0 ? gbs : std::max(t.gbsMax, gbs);
  t.gbsMeanOfCopies += (gbs - t.gbsMeanOfCopies) / static_cast<double>(++t.ratedCopies);
}

struct Edge {
  TimeNs ts;
  double delta;
};

// The step series of a set of (start, +gbs) / (end, -gbs) edges: sorted, merged at equal
// times, the running sum rounded to 0 where float error leaves a residue.
std::vector<BandwidthStep> stepsOf(std::vector<Edge> edges, double& peak) {
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.ts < b.ts; });
  std::vector<BandwidthStep> out;
  double level = 0;
  int open = 0;
  for (size_t i = 0; i < edges.size();) {
    const TimeNs ts = edges[i].ts;
    for (; i < edges.size() && edges[i].ts == ts; ++i) {
      level += edges[i].delta;
      open += edges[i].delta > 0 ? 1 : -1;
    }
    if (open == 0) level = 0;  // no copy running: exactly 0, whatever the float sum left
    peak = std::max(peak, level);
    if (!out.empty() && out.back().gbs == level) continue;
    out.push_back({ts, level});
  }
  return out;
}

struct Copy {
  EventRef ref;
  std::string kind;
  bool pageable = false, pinned = false;
};

// Every memcpy and memset starting in [start, end), in track then row order, with its
// args: read in one pass over the file (Trace::argsOfEach, only the two keys copyArgsOf
// reads) before the first visit, not one read per copy (a data-loading trace has 10^5).
template <class Visit>
void forEachCopy(const Trace& trace, TimeNs start, TimeNs end, Visit visit) {
  std::vector<Copy> copies;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    const SliceColumns& s = trace.tracks[t].slices;
    for (uint32_t i = static_cast<uint32_t>(s.lowerBound(start)); i < s.size() && s.start[i] < end; ++i) {
      if (s.kind[i] != SliceKind::Memcpy && s.kind[i] != SliceKind::Memset) continue;
      const std::string_view name = trace.str(s.name[i]);
      Copy c{{t, i}, copyKindOf(name, s.kind[i])};
      if (c.kind.empty()) c.kind = s.kind[i] == SliceKind::Memset ? "Memset" : "Other";
      c.pageable = name.find("Pageable") != std::string_view::npos;
      c.pinned = name.find("Pinned") != std::string_view::npos;
      copies.push_back(std::move(c));
    }
  }
  std::vector<EventRef> refs;
  refs.reserve(copies.size());
  for (const Copy& c : copies) refs.push_back(c.ref);
  std::vector<CopyArgs> args(copies.size());
  const LazyArgs::KeyFilter keys = [](size_t, std::string_view key) { return isCopyArgKey(key); };
  trace.argsOfEach(
      refs, [&](size_t k, std::vector<NamedArg>&& a) { args[k] = copyArgsOf(a); }, nullptr, &keys);
  for (size_t k = 0; k < copies.size(); ++k) visit(copies[k], args[k]);
}

}  // namespace

std::string copyKindOf(std::string_view name, SliceKind kind) {
  if (kind == SliceKind::Memset || name.starts_with("Memset")) return "Memset";
  // The first "XtoY" token with X, Y in {H, D, A, P}: "Memcpy HtoD (…)", "Memcpy PtoP".
  for (size_t i = 0; i + 4 <= name.size(); ++i) {
    if (name[i + 1] == 't' && name[i + 2] == 'o' && isEndpoint(name[i]) && isEndpoint(name[i + 3]) &&
        (i == 0 || name[i - 1] == ' ') && (i + 4 == name.size() || name[i + 4] == ' ' || name[i + 4] == '('))
      return std::string(name.substr(i, 4));
  }
  return {};
}

MemoryBandwidthReport memoryBandwidth(const Trace& trace, std::optional<TimeWindow> window) {
  MemoryBandwidthReport r;
  r.start = window ? window->start : trace.minTs;
  r.end = window ? window->end : trace.maxTs + 1;
  std::map<std::string, CopyKindBandwidth> kinds;
  std::map<std::string, std::vector<Edge>> edges;
  forEachCopy(trace, r.start, r.end, [&](const Copy& c, const CopyArgs& args) {
    const TimeNs dur = trace.dur(c.ref);
    CopyKindBandwidth& k = kinds[c.kind];
    k.kind = c.kind;
    add(k.all, args, dur);
    if (c.pageable) add(k.pageable, args, dur);
    if (c.pinned) add(k.pinned, args, dur);
    if (const auto gbs = rateOf(args, dur); gbs && dur > 0) {
      auto& e = edges[c.kind];
      e.push_back({trace.start(c.ref), *gbs});
      e.push_back({trace.end(c.ref), -*gbs});
    }
  });
  for (auto& [name, k] : kinds) {
    k.steps = stepsOf(std::move(edges[name]), k.peakGBs);
    r.kinds.push_back(std::move(k));
  }
  std::stable_sort(r.kinds.begin(), r.kinds.end(), [](const CopyKindBandwidth& a, const CopyKindBandwidth& b) {
    return orderOf(a.kind) < orderOf(b.kind);
  });
  return r;
}

void addMemoryBandwidthCounters(Trace& trace) {
  std::map<std::pair<uint32_t, std::string>, std::vector<Edge>> edges;  // (process, kind)
  forEachCopy(trace, trace.minTs, trace.maxTs + 1, [&](const Copy& c, const CopyArgs& args) {
    const TimeNs dur = trace.dur(c.ref);
    const auto gbs = rateOf(args, dur);
    if (!gbs || dur <= 0) return;
    auto& e = edges[{trace.tracks[c.ref.track].process, c.kind}];
    e.push_back({trace.start(c.ref), *gbs});
    e.push_back({trace.end(c.ref), -*gbs});
  });
  for (auto& [key, e] : edges) {
    double peak = 0;
    const auto steps = stepsOf(std::move(e), peak);
    if (steps.empty() || peak <= 0) continue;
    CounterSeries c;
    c.process = key.first;
    c.name = trace.strings.intern(key.second + std::string(kMemoryBandwidthCounterSuffix));
    if (hasCounter(trace, c.process, c.name)) continue;  // a trace opscope wrote back holds it
    for (const BandwidthStep& s : steps) {
      c.ts.push_back(s.ts);
      c.value.push_back(s.gbs);
    }
    trace.counters.push_back(std::move(c));
  }
}

}  // namespace opscope
