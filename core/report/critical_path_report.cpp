#include "report/critical_path_report.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <unordered_map>

#include "report/analysis_report.h"
#include "report/report_numbers.h"
#include "report/summary_report.h"
#include "text/duration_text.h"
#include "text/json_stream.h"
#include "text/json_text.h"

namespace opscope {

namespace {

using ojson = nlohmann::ordered_json;

const char* windowKindName(CriticalPathWindow::Kind k) {
  switch (k) {
    case CriticalPathWindow::Kind::Trace:
      return "trace";
    case CriticalPathWindow::Kind::Iteration:
      return "iteration";
    case CriticalPathWindow::Kind::Annotation:
      return "annotation";
  }
  return "?";
}

double pct(TimeNs part, TimeNs whole) {
  return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

}  // namespace

std::vector<CriticalPathEntry> criticalPathEntries(const CriticalPath& path, const Trace& trace, bool gpu) {
  const auto wanted = [&](SliceKind k) { return gpu ? isGpuKind(k) : k == SliceKind::CpuOp; };
  std::map<std::string, CriticalPathEntry, std::less<>> byName;
  for (uint64_t p : path.events) {
    const EventRef r = EventRef::unpack(p);
    if (!wanted(trace.kind(r))) continue;
    CriticalPathEntry& e = byName[std::string(trace.name(r))];
    e.name = trace.name(r);
    ++e.count;
  }
  for (const CriticalPathSegment& s : path.segments) {
    if (s.event == kNoRef) continue;
    const EventRef r = EventRef::unpack(s.event);
    if (!wanted(trace.kind(r))) continue;
    auto it = byName.find(trace.name(r));
    if (it != byName.end()) addTo(it->second.time, s.end - s.start);
  }
  std::vector<CriticalPathEntry> out;
  for (auto& [name, e] : byName) out.push_back(std::move(e));
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.time > b.time; });
  return out;
}

std::vector<std::string> criticalPathWarnings(const CriticalPath& path) {
  std::vector<std::string> w;
  if (!path.traceHasSyncEvents) {
    // Only a PyTorch profiler trace can be recorded again with sync events; Nsight's come from
    // its SYNCHRONIZATION table (--cuda-event-trace / default CUDA tracing), others have none.
    const bool kineto =
        path.traceFormat.find("kineto") != std::string::npos || path.traceFormat.find("pytorch") != std::string::npos;
    std::string s = kineto ? "the trace has no cuda_sync events (PyTorch >= 2.1 with "
                             "experimental_config(enable_cuda_sync_events=True) records them)"
                           : "the trace records no synchronisation events";
    if (path.inferredWaits > 0)
      s += ": " + std::to_string(path.inferredWaits) +
           (path.inferredWaits == 1 ? " blocking call (synchronize, synchronous copies) was"
                                    : " blocking calls (synchronize, synchronous copies) were") +
           " tied to the GPU work that ended while " + (path.inferredWaits == 1 ? "it" : "they") +
           " blocked; waits between streams are not known";
    else s += ": host waits for the GPU are not linked to the work they wait for";
    w.push_back(std::move(s));
  }
  if (path.window.kind == CriticalPathWindow::Kind::Iteration && !path.events.empty() && path.start >= path.window.end)
    w.push_back("the path starts " + reportDuration(path.start - path.window.end) +
                " after the step's host side ended: the GPU ran behind the host, and only its work is on the path");
  if (path.clampedNegativeWeights)
    w.push_back(std::to_string(path.clampedNegativeWeights) +
                (path.clampedNegativeWeights == 1 ? " edge ran" : " edges ran") +
                " backwards in time (a child ending after its parent by clock rounding) and count as 0");
  return w;
}

void writeCriticalPathJson(const CriticalPath& path, const Trace& trace, const std::string& file,
                           const TextSink& write) {
  const TimeNs origin = trace.minTs;
  JsonObjectWriter j(write, 0);
  j.value("file", file);
  const CriticalPathWindow& w = path.window;
  j.value("window", ojson{{"kind", windowKindName(w.kind)},
                          {"label", w.label},
                          {"iteration", w.iteration >= 0 ? ojson(w.iteration) : ojson(nullptr)},
                          {"start_us", nsToUs(w.start - origin)},
                          {"end_us", nsToUs(w.end - origin)}});
  j.value("iteration_us", nsToUs(w.wallEnd - w.start));
  j.value("length_us", nsToUs(path.length()));
  j.value("start_us", nsToUs(path.start - origin));
  j.value("end_us", nsToUs(path.end - origin));
  j.value("weighted_us", nsToUs(path.weight));
  ojson cats = ojson::object(), shares = ojson::object();
  for (size_t c = 0; c < kCpCategoryCount; ++c) {
    cats[cpCategoryName(static_cast<CpCategory>(c))] = nsToUs(path.byCategory[c]);
    shares[cpCategoryName(static_cast<CpCategory>(c))] = pct(path.byCategory[c], path.length());
  }
  j.value("by_category", cats);
  j.value("share_pct", shares);
  for (const bool gpu : {false, true}) {
    const std::vector<CriticalPathEntry> entries = criticalPathEntries(path, trace, gpu);
    j.array(gpu ? "kernels" : "ops", entries.size(), [&](size_t i) {
      const CriticalPathEntry& e = entries[i];
      return ojson{{"name", e.name}, {"count", e.count}, {"time_us", nsToUs(e.time)}};
    });
  }
  // A segment at a time, as text: the whole trace's path has one per op, call and
  // kernel on it (hundreds of thousands on 1 GB), which as one value held hundreds of MB
  // and as an ordered_json each took a second to write. Names and track labels are
  // escaped once each, numbers appended as jsonText writes them (no value built).
  const std::string in(j.elementIndent() + 2, ' ');
  // Each member's text up to its value, made once (appends of known length).
  const auto key = [&](const char* name, bool first = false) { return (first ? "{\n" : ",\n") + in + name; };
  const std::string ts = key("\"ts_us\": ", true), dur = key("\"dur_us\": "), category = key("\"category\": \""),
                    edge = key("\"edge\": \""), name = key("\"name\": "), track = key("\"track\": "),
                    close = "\n" + std::string(j.elementIndent(), ' ') + "}";
  std::unordered_map<StringId, std::string> names;
  std::unordered_map<uint32_t, std::string> tracks;
  j.arrayText("segments", path.segments.size(), [&](size_t i, std::string& o) {
    const CriticalPathSegment& s = path.segments[i];
    o += ts;
    appendJsonDouble(o, nsToUs(s.start - origin));
    o += dur;
    appendJsonDouble(o, nsToUs(s.end - s.start));
    o += category;
    o += cpCategoryName(s.category);
    o += '"';
    o += edge;
    o += cpEdgeTypeName(s.edge);
    o += '"';
    o += name;
    if (s.event != kNoRef) {
      const EventRef r = EventRef::unpack(s.event);
      auto [n, newName] = names.try_emplace(trace.nameId(r));
      if (newName) n->second = jsonText(ojson(std::string(trace.name(r))));
      o += n->second;
      o += track;
      auto [t, newTrack] = tracks.try_emplace(r.track);
      if (newTrack) t->second = jsonText(ojson(trace.trackLabel(r.track)));
      o += t->second;
    } else {
      o += "null";
      o += track;
      o += "null";
    }
    o += close;
  });
  j.value("graph", ojson{{"nodes", path.graphNodes},
                         {"edges", path.graphEdges},
                         {"path_nodes", path.pathNodes},
                         {"path_events", path.events.size()}});
  ojson warnings = ojson::array();
  for (const std::string& s : criticalPathWarnings(path)) warnings.push_back(s);
  j.value("warnings", warnings);
  j.close();
  write("\n");
}

std::string criticalPathJson(const CriticalPath& path, const Trace& trace, const std::string& file) {
  std::string out;
  writeCriticalPathJson(path, trace, file, [&](std::string_view piece) { out += piece; });
  return out;
}

std::string criticalPathCsv(const CriticalPath& path, const Trace& trace) {
  std::string out = "ts_us,dur_us,category,edge,name,track\n";
  for (const CriticalPathSegment& s : path.segments) {
    out += usText(s.start - trace.minTs) + "," + usText(s.end - s.start) + "," + cpCategoryName(s.category) + "," +
           cpEdgeTypeName(s.edge) + ",";
    if (s.event != kNoRef) {
      const EventRef r = EventRef::unpack(s.event);
      out += csvField(trace.name(r)) + "," + csvField(trace.trackLabel(r.track));
    } else {
      out += ",";
    }
    out += "\n";
  }
  return out;
}

std::string criticalPathText(const CriticalPath& path, const Trace& trace, const std::string& file, size_t top) {
  std::ostringstream out;
  const CriticalPathWindow& w = path.window;
  out << file << ": critical path of " << (w.kind == CriticalPathWindow::Kind::Trace ? "the whole trace" : w.label)
      << "\n";
  out << "  length " << reportDuration(path.length()) << " of " << reportDuration(w.wallEnd - w.start) << " ("
      << path.pathNodes << " nodes, " << path.events.size() << " events, " << path.segments.size() << " segments)\n\n";
  std::vector<size_t> order(kCpCategoryCount);
  for (size_t c = 0; c < kCpCategoryCount; ++c) order[c] = c;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return path.byCategory[a] > path.byCategory[b]; });
  out << "  where the time goes:\n";
  for (size_t c : order) {
    if (path.byCategory[c] == 0) continue;
    char line[160];
    std::snprintf(line, sizeof line, "    %-14s %12s  %5.1f %%\n", cpCategoryName(static_cast<CpCategory>(c)),
                  reportDuration(path.byCategory[c]).c_str(), pct(path.byCategory[c], path.length()));
    out << line;
  }
  for (const bool gpu : {false, true}) {
    const std::vector<CriticalPathEntry> entries = criticalPathEntries(path, trace, gpu);
    if (entries.empty()) continue;
    out << "\n  " << (gpu ? "GPU work" : "ops") << " on the path (time on it, count):\n";
    for (size_t i = 0; i < entries.size() && i < top; ++i)
      out << "    " << reportDuration(entries[i].time) << "  x" << entries[i].count << "  " << entries[i].name << "\n";
    if (entries.size() > top) out << "    ... " << entries.size() - top << " more\n";
  }
  for (const std::string& s : criticalPathWarnings(path)) out << "\nnote: " << s << "\n";
  return out.str();
}

}  // namespace opscope
