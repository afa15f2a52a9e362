#include "analysis/trace_diff.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

#include "io/args_text.h"

namespace opscope {

namespace {

struct Acc {
  size_t count = 0;
  TimeNs total = 0;
};

bool isGpuWork(SliceKind k) { return k == SliceKind::Kernel || k == SliceKind::Memcpy || k == SliceKind::Memset; }

// What the host does that a diff compares: ops, record_function annotations (but not the
// ProfilerStep#N markers, whose numbers differ between any two iterations) and runtime /
// driver calls (a change in cudaMemcpy or cudaStreamSynchronize calls is a finding).
bool isHostWork(const Trace& trace, const SliceColumns& s, size_t i) {
  switch (s.kind[i]) {
    case SliceKind::CpuOp:
    case SliceKind::Runtime:
    case SliceKind::Driver:
      return true;
    case SliceKind::UserAnnotation:
      return !isProfilerStepName(trace.str(s.name[i]));
    default:
      return false;
  }
}

bool inside(const std::optional<TimeWindow>& w, TimeNs t) { return !w || (t >= w->start && t < w->end); }

struct Side {
  std::map<std::pair<std::string, std::string>, Acc> ops;
  std::map<std::string, Acc> gpu;
  std::set<std::string> calls;  // runtime and driver calls among ops
  std::vector<TimeNs> iterationWall;
  TraceDiff::Unlaunched withoutLaunch;
};

Side measure(const Trace& trace, const std::optional<TimeWindow>& window) {
  Side side;
  std::unordered_map<StringId, Acc> gpu;
  std::set<StringId> calls;
  // Host work by (name, shape), shapes interned: index 0 is "no shape recorded" (and an
  // op whose args cannot be read back, as Trace::args gives nothing then). Only ops and
  // annotations record shapes (runtime and driver calls are many, a launch per kernel, and
  // have none): they are counted once their "Input Dims" are read, in one pass over the
  // file (Trace::argsOfEach), not an open and a read each: two million of them on 1 GB.
  std::map<std::pair<StringId, uint32_t>, Acc> ops;
  std::vector<EventRef> withShape;
  const auto& g2l = trace.links.gpuToLaunch;
  size_t link = 0;  // walks gpuToLaunch alongside the GPU tracks (both by packed ref)
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    const Track& track = trace.tracks[t];
    const SliceColumns& s = track.slices;
    if (track.kind == TrackKind::Thread) {
      const size_t first = window ? s.lowerBound(window->start) : 0;
      const size_t last = window ? s.lowerBound(window->end) : s.size();
      for (size_t i = first; i < last; ++i) {
        if (!isHostWork(trace, s, i)) continue;
        const EventRef op{t, static_cast<uint32_t>(i)};
        bool nested = false;
        for (auto p = trace.parent(op); p && !nested; p = trace.parent(*p)) nested = trace.nameId(*p) == s.name[i];
        if (nested) continue;
        if (s.kind[i] == SliceKind::CpuOp || s.kind[i] == SliceKind::UserAnnotation) {
          withShape.push_back(op);
          continue;
        }
        if (s.kind[i] == SliceKind::Runtime || s.kind[i] == SliceKind::Driver) calls.insert(s.name[i]);
        Acc& acc = ops[{s.name[i], 0}];
        ++acc.count;
        addTo(acc.total, s.dur[i]);
      }
      continue;
    }
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (!isGpuWork(s.kind[i])) continue;
      const uint64_t ref = EventRef{t, i}.packed();
      while (link < g2l.size() && g2l[link].first < ref) ++link;
      const bool launched = link < g2l.size() && g2l[link].first == ref;
      if (!launched) {
        ++side.withoutLaunch.count;
        addTo(side.withoutLaunch.total, s.dur[i]);
        if (window) continue;  // in no iteration
      }
      if (launched && !inside(window, trace.start(EventRef::unpack(g2l[link].second)))) continue;
      Acc& acc = gpu[s.name[i]];
      ++acc.count;
      addTo(acc.total, s.dur[i]);
    }
  }
  std::vector<std::string> shapes{std::string()};
  std::unordered_map<std::string, uint32_t> shapeIds{{std::string(), 0}};
  // The shape of args (the last "Input Dims"), interned.
  const auto shapeOf = [&](const std::vector<NamedArg>& args) {
    uint32_t shape = 0;
    for (const NamedArg& a : args) {
      if (a.key != "Input Dims") continue;
      const auto [it, added] = shapeIds.try_emplace(a.text, static_cast<uint32_t>(shapes.size()));
      if (added) shapes.push_back(a.text);
      shape = it->second;
    }
    return shape;
  };
  const auto count = [&](EventRef op, uint32_t shape) {
    Acc& acc = ops[{trace.nameId(op), shape}];
    ++acc.count;
    addTo(acc.total, trace.dur(op));
  };
  // Ops whose shape args the loader kept (LoadOptions::keepOpShapes) take them from
  // there, each kept text read once; the others' are read from the file.
  std::vector<EventRef> fromFile;
  constexpr uint32_t kUnread = UINT32_MAX;
  std::vector<uint32_t> shapeOfText(trace.keptArgs.empty() ? 0 : trace.keptArgTexts.size(), kUnread);
  for (EventRef op : withShape) {
    const Trace::KeptArgs* kept = trace.keptArgsOf(op);
    if (!kept) {
      fromFile.push_back(op);
      continue;
    }
    uint32_t& shape = shapeOfText[kept->text];
    if (shape == kUnread) shape = shapeOf(keptArgsOfText(trace.keptArgTexts.get(kept->text)));
    count(op, shape);
  }
  const LazyArgs::KeyFilter keep = [](size_t, std::string_view key) { return key == "Input Dims"; };
  trace.argsOfEach(
      fromFile, [&](size_t k, std::vector<NamedArg>&& args) { count(fromFile[k], shapeOf(args)); }, nullptr, &keep);
  for (auto& [key, acc] : ops) side.ops[{std::string(trace.str(key.first)), shapes[key.second]}] = acc;
  for (const auto& [name, acc] : gpu) side.gpu[std::string(trace.str(name))] = acc;
  for (StringId c : calls) side.calls.emplace(trace.str(c));
  const std::vector<TimeNs> ends = iterationWallEnds(trace, trace.iterations);
  for (size_t i = 0; i < trace.iterations.size() && i < ends.size(); ++i)
    if (inside(window, trace.iterations[i].start)) side.iterationWall.push_back(ends[i] - trace.iterations[i].start);
  return side;
}

TimeNs perIteration(TimeNs total, size_t iterations) {
  if (iterations <= 1) return total;
  return static_cast<TimeNs>(std::llround(static_cast<double>(total) / static_cast<double>(iterations)));
}

template <typename Key, typename Name>
std::vector<DiffRow> join(const std::map<Key, Acc>& a, const std::map<Key, Acc>& b, size_t itersA, size_t itersB,
                          Name name) {
  std::vector<DiffRow> rows;
  auto add = [&](const Key& k, const Acc* x, const Acc* y) {
    DiffRow r;
    name(k, r);
    if (x) r.countA = x->count, r.totalA = perIteration(x->total, itersA);
    if (y) r.countB = y->count, r.totalB = perIteration(y->total, itersB);
    rows.push_back(std::move(r));
  };
  for (const auto& [k, x] : a) {
    const auto it = b.find(k);
    add(k, &x, it == b.end() ? nullptr : &it->second);
  }
  for (const auto& [k, y] : b)
    if (!a.count(k)) add(k, nullptr, &y);
  return rows;
}

void sortRows(std::vector<DiffRow>& rows) {
  std::sort(rows.begin(), rows.end(), [](const DiffRow& x, const DiffRow& y) {
    const TimeNs dx = x.delta() < 0 ? -x.delta() : x.delta(), dy = y.delta() < 0 ? -y.delta() : y.delta();
    if (dx != dy) return dx > dy;
    return std::tie(x.name, x.shape) < std::tie(y.name, y.shape);
  });
}

// Rows on one side only whose key (empty: not matchable) agrees with rows on the other
// side only become one row per key, named by label(key, namesA, namesB).
template <typename Key, typename Label>
void pairUnmatched(std::vector<DiffRow>& rows, DiffRow::Match match, Key key, Label label) {
  std::map<std::string, std::vector<size_t>> onlyA, onlyB;
  for (size_t i = 0; i < rows.size(); ++i) {
    const DiffRow& r = rows[i];
    if (r.countA > 0 && r.countB > 0) continue;
    std::string k = key(r);
    if (k.empty()) continue;
    (r.countB == 0 ? onlyA : onlyB)[std::move(k)].push_back(i);
  }
  std::vector<bool> gone(rows.size(), false);
  std::vector<DiffRow> merged;
  for (const auto& [k, as] : onlyA) {
    const auto it = onlyB.find(k);
    if (it == onlyB.end()) continue;
    DiffRow m;
    m.match = match;
    m.shape = rows[as.front()].shape;
    for (size_t i : as) {
      m.countA += rows[i].countA;
      addTo(m.totalA, rows[i].totalA);
      m.namesA.push_back(rows[i].name);
      gone[i] = true;
    }
    for (size_t i : it->second) {
      m.countB += rows[i].countB;
      addTo(m.totalB, rows[i].totalB);
      m.namesB.push_back(rows[i].name);
      gone[i] = true;
    }
    m.name = label(k, m.namesA, m.namesB);
    merged.push_back(std::move(m));
  }
  if (merged.empty()) return;
  std::vector<DiffRow> out;
  out.reserve(rows.size());
  for (size_t i = 0; i < rows.size(); ++i)
    if (!gone[i]) out.push_back(std::move(rows[i]));
  for (DiffRow& m : merged) out.push_back(std::move(m));
  rows = std::move(out);
}

}  // namespace

std::string kernelBaseName(std::string_view name) {
  std::string_view n = name;
  if (n.starts_with("void ")) n.remove_prefix(5);
  std::string out;
  out.reserve(n.size());
  int angle = 0;
  for (size_t i = 0; i < n.size(); ++i) {
    const char c = n[i];
    if (c == '(' && angle == 0) {
      // "(anonymous namespace)::" is part of the name, not a parameter list.
      constexpr std::string_view anon = "(anonymous namespace)";
      if (n.substr(i).starts_with(anon)) {
        out += anon;
        i += anon.size() - 1;
        continue;
      }
      break;
    }
    if (c == '<' && !(out.ends_with("operator") || out.ends_with("operator<"))) {
      ++angle;
      continue;
    }
    if (c == '>' && angle > 0) {
      --angle;
      continue;
    }
    if (angle == 0) out += c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out.empty() ? std::string(name) : out;
}

std::string vendorNeutralCallName(std::string_view name) {
  std::string_view n = name;
  if (n.starts_with("cuda")) n.remove_prefix(4);
  else if (n.starts_with("hip")) n.remove_prefix(3);
  else if (n.starts_with("cu") && n.size() > 2 && n[2] >= 'A' && n[2] <= 'Z') n.remove_prefix(2);
  else return {};
  if (n.empty() || n[0] < 'A' || n[0] > 'Z') return {};
  for (std::string_view module : {"ExtModule", "Module"})
    if (n.starts_with(module) && n.substr(module.size()).starts_with("Launch")) n.remove_prefix(module.size());
  return std::string(n);
}

std::string joinedNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

const char* matchName(DiffRow::Match m) {
  switch (m) {
    case DiffRow::Match::kBaseName:
      return "base name";
    case DiffRow::Match::kRuntimeCall:
      return "runtime call";
    case DiffRow::Match::kName:
      break;
  }
  return "name";
}

TraceDiff diffTraces(const Trace& a, const Trace& b, const DiffOptions& options) {
  const Side sa = measure(a, options.windowA);
  const Side sb = measure(b, options.windowB);
  const size_t itersA = options.perIteration ? sa.iterationWall.size() : 1;
  const size_t itersB = options.perIteration ? sb.iterationWall.size() : 1;
  TraceDiff d;
  d.ops = join(sa.ops, sb.ops, itersA, itersB, [](const std::pair<std::string, std::string>& k, DiffRow& r) {
    r.name = k.first;
    r.shape = k.second;
  });
  d.kernels = join(sa.gpu, sb.gpu, itersA, itersB, [](const std::string& k, DiffRow& r) { r.name = k; });
  // What the exact names left on one side only, matched again.
  pairUnmatched(
      d.kernels, DiffRow::Match::kBaseName,
      [](const DiffRow& r) {
        // Copies keep their kind: "Memcpy HtoD (Pinned -> Device)" against "(Pageable ->
        // Device)" is a finding, not one row.
        if (r.name.starts_with("Memcpy") || r.name.starts_with("Memset")) return std::string();
        return kernelBaseName(r.name);
      },
      [](const std::string& base, const auto&, const auto&) { return base; });
  pairUnmatched(
      d.ops, DiffRow::Match::kRuntimeCall,
      [&](const DiffRow& r) {
        if (!sa.calls.count(r.name) && !sb.calls.count(r.name)) return std::string();
        const std::string neutral = vendorNeutralCallName(r.name);
        return neutral.empty() ? neutral : neutral + '\x1f' + r.shape;
      },
      [](const std::string&, const std::vector<std::string>& a, const std::vector<std::string>& b) {
        return joinedNames(a) + " / " + joinedNames(b);
      });
  sortRows(d.ops);
  sortRows(d.kernels);
  d.withoutLaunchA = sa.withoutLaunch;
  d.withoutLaunchB = sb.withoutLaunch;
  d.iterationWallA = sa.iterationWall;
  d.iterationWallB = sb.iterationWall;
  return d;
}

}  // namespace opscope
