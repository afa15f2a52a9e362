#include "et/et_link.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <unordered_map>

#include "hierarchy/iterations.h"
#include "hierarchy/queries.h"
#include "text/json_stream.h"
#include "text/json_text.h"

namespace opscope {

namespace {

using Json = nlohmann::ordered_json;

struct HostOp {
  EventRef ref;
  std::optional<int64_t> rfId, externalId;
};

bool isHostOpKind(SliceKind k) { return k == SliceKind::CpuOp || k == SliceKind::UserAnnotation; }

// µs as Kineto writes them; whole µs stay exact although absolute timestamps exceed
// the 2^53 ns a double holds exactly.
double us(TimeNs ns) { return static_cast<double>(ns / 1000) + static_cast<double>(ns % 1000) / 1e3; }

const char* gpuCategory(SliceKind k) {
  switch (k) {
    case SliceKind::Memcpy:
      return "gpu_memcpy";
    case SliceKind::Memset:
      return "gpu_memset";
    default:
      return "kernel";
  }
}

}  // namespace

const char* etLinkIssueKindName(EtLinkIssue::Kind k) {
  switch (k) {
    case EtLinkIssue::Kind::EtNode:
      return "ET node";
    case EtLinkIssue::Kind::KinetoOp:
      return "Kineto op";
    case EtLinkIssue::Kind::GpuEvent:
      return "GPU event";
  }
  return "";
}

std::string EtLink::summaryLine() const {
  uint64_t unmatchedKineto = 0;
  for (const EtLinkIssue& i : issues)
    if (i.kind == EtLinkIssue::Kind::KinetoOp) ++unmatchedKineto;
  char line[400];
  std::snprintf(line, sizeof line,
                "linked %llu of %llu ET ops and %llu of %llu GPU events (%s; %s); %llu Kineto ops not in the ET",
                static_cast<unsigned long long>(linkedOps), static_cast<unsigned long long>(etOps),
                static_cast<unsigned long long>(linkedGpuEvents), static_cast<unsigned long long>(gpuEvents),
                method.c_str(), segment.c_str(), static_cast<unsigned long long>(unmatchedKineto));
  return line;
}

EtLink linkExecutionTrace(const ExecutionTrace& et, const Trace& trace, const EtLinkOptions& options) {
  EtLink link;
  // ET ops in execution order (ids grow as ops start).
  std::vector<const EtNode*> etOps;
  for (const EtNode& n : et.nodes)
    if (!n.isGpu && !n.isAnnotation()) etOps.push_back(&n);
  std::sort(etOps.begin(), etOps.end(), [](const EtNode* a, const EtNode* b) { return a->id < b->id; });
  link.etOps = etOps.size();

  // Kineto host ops in time order, parents before their children.
  // ProfilerStep#N annotations are kept apart: they bound the iterations that order
  // matching searches, and older ETs have no node for them, but a recent ET records
  // each as a node with the same rf_id as the Kineto annotation, so ids link them.
  // Their two ids read in one pass over the file (Trace::argsOfEach), not one read an op:
  // the refs of ops, then of steps; the sink files each by that index.
  std::vector<HostOp> ops, steps;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    if (trace.tracks[t].kind != TrackKind::Thread) continue;
    const SliceColumns& s = trace.tracks[t].slices;
    for (uint32_t i = 0; i < s.size(); ++i)
      if (isHostOpKind(s.kind[i]))
        (isProfilerStepName(trace.str(s.name[i])) ? steps : ops).push_back({{t, i}, std::nullopt, std::nullopt});
  }
  {
    std::vector<EventRef> refs;
    refs.reserve(ops.size() + steps.size());
    for (const std::vector<HostOp>* list : {&ops, &steps})
      for (const HostOp& op : *list) refs.push_back(op.ref);
    const LazyArgs::KeyFilter ids = [](size_t, std::string_view key) {
      return key == "Record function id" || key == "External id";
    };
    trace.argsOfEach(
        refs,
        [&](size_t k, std::vector<NamedArg>&& args) {
          HostOp& op = k < ops.size() ? ops[k] : steps[k - ops.size()];
          op.rfId = intArg(args, "Record function id");
          op.externalId = intArg(args, "External id");
        },
        nullptr, &ids);
  }
  std::stable_sort(ops.begin(), ops.end(), [&](const HostOp& a, const HostOp& b) {
    const TimeNs sa = trace.start(a.ref), sb = trace.start(b.ref);
    return sa != sb ? sa < sb : trace.dur(a.ref) > trace.dur(b.ref);
  });
  if (ops.empty()) link.notes.push_back("the Kineto trace has no cpu_op or user_annotation events to link with");

  auto pair = [&](const EtNode* n, EventRef ref) {
    link.opOfNode[n->id] = ref;
    link.nodeOfOp[ref.packed()] = n->id;
  };

  // 1. By id, when a key pairs names that agree.
  size_t withRf = 0;
  for (const EtNode* n : etOps)
    if (n->rfId) ++withRf;
  struct Key {
    const char* name;
    std::optional<int64_t> HostOp::*field;
  };
  const Key keys[] = {{"rf_id = Kineto \"Record function id\"", &HostOp::rfId},
                      {"rf_id = Kineto \"External id\"", &HostOp::externalId}};
  bool linkedById = false;
  for (const Key& key : keys) {
    if (withRf == 0) break;
    std::unordered_map<int64_t, const HostOp*> byKey;
    for (const std::vector<HostOp>* from : {&ops, &steps})
      for (const HostOp& op : *from)
        if (op.*key.field) byKey.emplace(*(op.*key.field), &op);
    if (byKey.empty()) continue;
    size_t agree = 0, found = 0;
    for (const EtNode* n : etOps)
      if (n->rfId)
        if (auto it = byKey.find(*n->rfId); it != byKey.end()) {
          ++found;
          agree += trace.name(it->second->ref) == n->name;
        }
    // Under 90 % of the pairs naming the same op: the numbers coincide, they do not link.
    // (ET nodes whose id is missing from Kineto ran outside the profiled window.)
    if (found == 0 || agree * 10 < found * 9) continue;
    link.method = std::string("by id: ") + key.name;
    for (const EtNode* n : etOps) {
      if (!n->rfId) {
        link.issues.push_back({EtLinkIssue::Kind::EtNode, n->name, n->id, std::nullopt, {}, "no rf_id in the ET node"});
        continue;
      }
      const auto it = byKey.find(*n->rfId);
      if (it == byKey.end()) {
        link.issues.push_back({EtLinkIssue::Kind::EtNode,
                               n->name,
                               n->id,
                               std::nullopt,
                               {},
                               "no Kineto op with id %lld (outside the profiled window?)",
                               *n->rfId});
        continue;
      }
      const EventRef ref = it->second->ref;
      if (trace.name(ref) != n->name) {
        link.issues.push_back(
            {EtLinkIssue::Kind::EtNode, n->name, n->id, ref,
             "Kineto op with id " + std::to_string(*n->rfId) + " is named \"" + std::string(trace.name(ref)) + "\""});
        continue;
      }
      pair(n, ref);
    }
    link.segment = "whole trace";
    linkedById = true;
    break;
  }

  // 2. In order, in the iteration closest in op count, with shift detection.
  std::vector<const HostOp*> segment;
  if (!linkedById && !ops.empty()) {
    link.method = withRf == 0 ? "in order (the ET has no rf_id)" : "in order (no Kineto id pairs the ET's rf_id)";
    // Order alone pairs two runs' ops only by chance: the ET's process must be one whose
    // ops the Kineto trace holds (a trace recorded by another process was linked in order
    // without a word).
    std::set<int64_t> kinetoPids;
    for (const HostOp& op : ops) {
      const RawId& pid = trace.processes[trace.tracks[op.ref.track].process].pid;
      if (!pid.isString) kinetoPids.insert(pid.num);
    }
    const auto etPid = et.top.find("pid");
    if (etPid != et.top.end() && etPid->is_number_integer() && !kinetoPids.empty() &&
        !kinetoPids.count(etPid->get<int64_t>())) {
      std::string theirs;
      for (int64_t p : kinetoPids) theirs += (theirs.empty() ? "" : ", ") + std::to_string(p);
      const std::string what = "the execution trace was recorded by process " + std::to_string(etPid->get<int64_t>()) +
                               ", the Kineto trace's ops by process " + theirs + ", and no id pairs their ops";
      if (!options.forceOrderAcrossProcesses) {
        link.refused = what + ": pairing them in order would join two runs (--force pairs them anyway)";
        return link;
      }
      link.notes.push_back(what + ": paired in order because --force asked to");
      link.method += ", forced across processes";
    }
    std::vector<TimeWindow> windows;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
      if (trace.tracks[t].kind != TrackKind::Thread) continue;
      const SliceColumns& s = trace.tracks[t].slices;
      for (uint32_t i = 0; i < s.size(); ++i)
        if (!options.annotation.empty() && trace.str(s.name[i]).find(options.annotation) != std::string_view::npos)
          windows.push_back({s.start[i], s.end(i)});
    }
    std::sort(windows.begin(), windows.end(),
              [](const TimeWindow& a, const TimeWindow& b) { return a.start < b.start; });
    link.segment = "whole trace";
    if (!windows.empty()) {
      size_t best = 0, bestDiff = SIZE_MAX, bestCount = 0;
      for (size_t w = 0; w < windows.size(); ++w) {
        size_t count = 0;
        for (const HostOp& op : ops)
          if (trace.start(op.ref) >= windows[w].start && trace.start(op.ref) < windows[w].end) ++count;
        const size_t diff = count > etOps.size() ? count - etOps.size() : etOps.size() - count;
        if (diff < bestDiff) {
          best = w;
          bestDiff = diff;
          bestCount = count;
        }
      }
      link.segment = "iteration " + std::to_string(best) + " of " + std::to_string(windows.size()) + " by \"" +
                     options.annotation + "\" (" + std::to_string(bestCount) + " ops, the ET " +
                     std::to_string(etOps.size()) + ")";
      for (const HostOp& op : ops)
        if (trace.start(op.ref) >= windows[best].start && trace.start(op.ref) < windows[best].end)
          segment.push_back(&op);
    } else {
      for (const HostOp& op : ops) segment.push_back(&op);
    }
    // The shift: 10 consecutive names from index 5 of the ET found at index 5 + shift.
    size_t shift = 0;
    constexpr size_t kStart = 5, kPattern = 10, kMaxShift = 1000;
    for (size_t s = 0; s < kMaxShift && kStart + kPattern + s <= segment.size() && kStart + kPattern <= etOps.size();
         ++s) {
      bool match = true;
      for (size_t k = 0; k < kPattern && match; ++k)
        match = etOps[kStart + k]->name == trace.name(segment[kStart + k + s]->ref);
      if (match) {
        shift = s;
        break;
      }
    }
    if (shift) link.method += ", shift " + std::to_string(shift);
    std::vector<bool> used(segment.size(), false);
    constexpr size_t kMaxDistance = 20;
    static const std::string withinPattern =
        "no Kineto op of that name within " + std::to_string(kMaxDistance) + " places of position %lld";
    for (size_t i = 0; i < etOps.size(); ++i) {
      const size_t at = i + shift;
      bool found = false;
      for (size_t d = 0; d <= kMaxDistance && !found; ++d) {
        for (const size_t j : {at + d, at >= d ? at - d : SIZE_MAX}) {
          if (j >= segment.size() || used[j] || trace.name(segment[j]->ref) != etOps[i]->name) continue;
          used[j] = true;
          pair(etOps[i], segment[j]->ref);
          found = true;
          break;
        }
      }
      if (!found)
        link.issues.push_back({EtLinkIssue::Kind::EtNode,
                               etOps[i]->name,
                               etOps[i]->id,
                               std::nullopt,
                               {},
                               withinPattern.c_str(),
                               static_cast<int64_t>(at)});
    }
  }
  link.linkedOps = link.opOfNode.size();
  // Kineto ops left over (in the segment for order matching, anywhere for ids).
  if (linkedById) {
    for (const HostOp& op : ops)
      if (!link.nodeOfOp.count(op.ref.packed()))
        link.issues.push_back({EtLinkIssue::Kind::KinetoOp,
                               std::string(trace.name(op.ref)),
                               -1,
                               op.ref,
                               {},
                               "not in the execution trace"});
  } else {
    for (const HostOp* op : segment)
      if (!link.nodeOfOp.count(op->ref.packed()))
        link.issues.push_back({EtLinkIssue::Kind::KinetoOp,
                               std::string(trace.name(op->ref)),
                               -1,
                               op->ref,
                               {},
                               "not in the execution trace"});
  }

  // GPU events to the innermost linked op around their launch.
  std::unordered_map<int64_t, EventRef> opOfExternalId;
  for (const HostOp& op : ops)
    if (op.externalId && isOpKind(trace.kind(op.ref))) opOfExternalId.emplace(*op.externalId, op.ref);
  auto linkedAncestor = [&](EventRef ref) -> std::optional<int64_t> {
    std::optional<EventRef> cur = ref;
    while (cur) {
      if (auto it = link.nodeOfOp.find(cur->packed()); it != link.nodeOfOp.end()) return it->second;
      cur = trace.parent(*cur);
    }
    return std::nullopt;
  };
  // The External id of every GPU event without a launch (all of them in a HIP trace
  // without correlation ids), read in one pass over the file (Trace::argsOfEach):
  // unlaunched sorted by packed ref, externalIdOf[k] its.
  std::vector<EventRef> unlaunched;
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    if (trace.tracks[t].kind != TrackKind::GpuStream) continue;
    const SliceColumns& s = trace.tracks[t].slices;
    for (uint32_t i = 0; i < s.size(); ++i)
      if (isGpuKind(s.kind[i]) && !launchOf(trace, EventRef{t, i})) unlaunched.push_back({t, i});
  }
  std::vector<std::optional<int64_t>> externalIdOf(unlaunched.size());
  const LazyArgs::KeyFilter externalIdKey = [](size_t, std::string_view key) { return key == "External id"; };
  trace.argsOfEach(
      unlaunched, [&](size_t k, std::vector<NamedArg>&& args) { externalIdOf[k] = intArg(args, "External id"); },
      nullptr, &externalIdKey);
  const auto externalIdOfUnlaunched = [&](EventRef g) {
    const auto it = std::lower_bound(unlaunched.begin(), unlaunched.end(), g,
                                     [](EventRef a, EventRef b) { return a.packed() < b.packed(); });
    return externalIdOf[static_cast<size_t>(it - unlaunched.begin())];
  };
  for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
    if (trace.tracks[t].kind != TrackKind::GpuStream) continue;
    const SliceColumns& s = trace.tracks[t].slices;
    for (uint32_t i = 0; i < s.size(); ++i) {
      if (!isGpuKind(s.kind[i])) continue;
      const EventRef g{t, i};
      ++link.gpuEvents;
      std::optional<int64_t> node;
      std::string reason;
      if (auto launch = launchOf(trace, g)) {
        node = linkedAncestor(*launch);
        if (!node) reason = "its launch (" + std::string(trace.name(*launch)) + ") is in no linked op";
      } else if (auto ext = externalIdOfUnlaunched(g); ext && opOfExternalId.count(*ext)) {
        node = linkedAncestor(opOfExternalId.at(*ext));
        if (!node) reason = "the op with its External id " + std::to_string(*ext) + " is not linked";
      } else {
        reason =
            "no launch with its correlation id and no op with its External id (HIP launches without correlation ids?)";
      }
      if (!node) {
        if (!linkedById && !segment.empty() &&
            (s.start[i] < trace.start(segment.front()->ref) ||
             s.start[i] > trace.end(segment.back()->ref) + 10'000'000))
          continue;  // another iteration's work: not ours to report
        link.issues.push_back({EtLinkIssue::Kind::GpuEvent, std::string(trace.str(s.name[i])), -1, g, reason});
        continue;
      }
      link.gpuOfNode[*node].push_back(g);
      ++link.linkedGpuEvents;
    }
  }
  if (link.gpuEvents == 0)
    link.notes.push_back("the Kineto trace has no GPU events (only host ops): nothing to attach");
  for (auto& [id, events] : link.gpuOfNode)
    std::sort(events.begin(), events.end(), [&](EventRef a, EventRef b) { return trace.start(a) < trace.start(b); });
  return link;
}

void writeEtPlusJson(const ExecutionTrace& et, const Trace& trace, const EtLink& link, const TextSink& write) {
  // Per parent id, the op time of its linked children (a node that is its own parent is
  // not its child): a map of the linked nodes' parents, not a child list per node.
  std::unordered_map<int64_t, TimeNs> childTime;
  int64_t maxId = 0;
  size_t gpuNodes = 0;
  for (const EtNode& n : et.nodes) {
    maxId = std::max(maxId, n.id);
    if (n.parent != n.id)
      if (auto it = link.opOfNode.find(n.id); it != link.opOfNode.end())
        addTo(childTime[n.parent], trace.dur(it->second));
    if (auto it = link.gpuOfNode.find(n.id); it != link.gpuOfNode.end()) gpuNodes += it->second.size();
  }
  // The GPU events' launches' "correlation" args, read in one pass over the file before
  // writing (one read a GPU event was a million reads on a 1 GB trace): launches sorted
  // by packed ref, correlation[k] launch k's (the last integer one, as read before).
  std::vector<EventRef> launches;
  for (const auto& [id, events] : link.gpuOfNode)
    for (EventRef g : events)
      if (auto l = launchOf(trace, g)) launches.push_back(*l);
  const auto byRef = [](EventRef a, EventRef b) { return a.packed() < b.packed(); };
  std::sort(launches.begin(), launches.end(), byRef);
  launches.erase(std::unique(launches.begin(), launches.end()), launches.end());
  std::vector<std::optional<int64_t>> correlation(launches.size());
  const LazyArgs::KeyFilter correlationKey = [](size_t, std::string_view key) { return key == "correlation"; };
  trace.argsOfEach(
      launches,
      [&](size_t k, std::vector<NamedArg>&& args) {
        for (const NamedArg& a : args)
          if (a.key == "correlation" && a.type == ArgType::Int) correlation[k] = a.i;
      },
      nullptr, &correlationKey);
  JsonObjectWriter out(write);
  if (et.top.is_object())
    for (const auto& [key, value] : et.top.items()) out.value(key, value);
  // The nodes, then one node per linked GPU event: element(i) is asked for in order, so
  // the GPU part walks a cursor (node, event) instead of holding a list.
  size_t cpuNode = 0, eventOf = 0;
  int64_t nextId = maxId + 1;
  out.array("nodes", et.nodes.size() + gpuNodes, [&](size_t i) -> Json {
    if (i < et.nodes.size()) {
      const EtNode& n = et.nodes[i];
      Json j = n.json();
      if (auto it = link.opOfNode.find(n.id); it != link.opOfNode.end()) {
        const TimeNs dur = trace.dur(it->second);
        const auto c = childTime.find(n.id);
        const TimeNs children = c == childTime.end() ? 0 : c->second;
        j["ts"] = us(trace.start(it->second));
        j["dur"] = us(dur);
        j["inclusive_dur"] = us(dur);
        j["exclusive_dur"] = us(std::max<TimeNs>(0, dur - children));
      }
      return j;
    }
    for (;; ++cpuNode, eventOf = 0) {
      const auto it = link.gpuOfNode.find(et.nodes[cpuNode].id);
      if (it == link.gpuOfNode.end() || eventOf >= it->second.size()) continue;
      const EventRef g = it->second[eventOf++];
      const Track& track = trace.tracks[g.track];
      Json j;
      j["id"] = nextId++;
      j["parent"] = et.nodes[cpuNode].id;
      j["name"] = trace.name(g);
      j["cat"] = gpuCategory(trace.kind(g));
      j["ts"] = us(trace.start(g));
      j["dur"] = us(trace.dur(g));
      j["stream"] = track.stream;
      j["device"] = track.device;
      if (auto launch = launchOf(trace, g)) {
        const size_t k =
            static_cast<size_t>(std::lower_bound(launches.begin(), launches.end(), *launch, byRef) - launches.begin());
        if (correlation[k]) j["correlation"] = *correlation[k];
      }
      return j;
    }
  });
  out.close();
  write("\n");
}

std::string etPlusJson(const ExecutionTrace& et, const Trace& trace, const EtLink& link) {
  std::string text;
  writeEtPlusJson(et, trace, link, [&](std::string_view piece) { text += piece; });
  return text;
}

void writeEtLinkIssuesJson(const Trace& trace, const EtLink& link, const TextSink& write) {
  JsonObjectWriter j(write);
  j.value("summary", link.summaryLine());
  j.value("method", link.method);
  j.value("segment", link.segment);
  j.value("et_ops", link.etOps);
  j.value("linked_ops", link.linkedOps);
  j.value("gpu_events", link.gpuEvents);
  j.value("linked_gpu_events", link.linkedGpuEvents);
  j.value("notes", link.notes);
  j.array("unlinked", link.issues.size(), [&](size_t n) {
    const EtLinkIssue& i = link.issues[n];
    Json r;
    r["kind"] = etLinkIssueKindName(i.kind);
    r["name"] = i.name;
    if (i.etId >= 0) r["et_id"] = i.etId;
    if (i.ref) r["ts_us"] = us(trace.start(*i.ref));
    r["reason"] = i.reasonText();
    return r;
  });
  j.close();
  write("\n");
}

std::string etLinkIssuesJson(const Trace& trace, const EtLink& link) {
  std::string text;
  writeEtLinkIssuesJson(trace, link, [&](std::string_view piece) { text += piece; });
  return text;
}

std::string EtLinkIssue::reasonText() const {
  if (!pattern) return reason;
  char text[256];
  std::snprintf(text, sizeof text, pattern, static_cast<long long>(number));
  return text;
}

std::string etLinkReportText(const Trace& trace, const EtLink& link, size_t maxRows) {
  (void)trace;
  std::string out = link.summaryLine() + "\n";
  for (const std::string& n : link.notes) out += "note: " + n + "\n";
  if (link.issues.empty()) return out;
  out += "not linked:\n";
  size_t rows = 0;
  for (const EtLinkIssue& i : link.issues) {
    if (rows++ == maxRows) {
      out += "  ... and ";
      out += std::to_string(link.issues.size() - maxRows);
      out += " more (opscope link --report-json FILE lists them all)\n";
      break;
    }
    char line[160];
    std::snprintf(line, sizeof line, "  %-9s %8s  ", etLinkIssueKindName(i.kind),
                  i.etId >= 0 ? std::to_string(i.etId).c_str() : "");
    std::string name = i.name;
    if (name.size() > 60) {
      name.resize(59);
      name += "…";
    }
    out += line;
    out += name;
    out += ": ";
    out += i.reasonText();
    out += '\n';
  }
  return out;
}

}  // namespace opscope
