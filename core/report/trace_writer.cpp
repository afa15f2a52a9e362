#include "report/trace_writer.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "text/json_text.h"

namespace opscope {

namespace {

// Not args.h's jsonQuote / namedArgJson (text for people and reports): a file must be
// valid UTF-8 for Perfetto (jsonText replaces bad bytes), and a double must stay a double
// when read back ("50.0", where namedArgJson's shortest text "50" would reload as an int).
// Text of printable ASCII but quotes and backslashes (most names and args) is its own
// JSON text; anything else goes through nlohmann.
void appendQuoted(std::string& out, std::string_view s) {
  if (std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\'; })) {
    (out += '"').append(s) += '"';
    return;
  }
  out += jsonText(nlohmann::json(std::string(s)));
}
std::string quote(std::string_view s) {
  std::string out;
  appendQuoted(out, s);
  return out;
}

// ns -> µs text, exact: 1234567 -> "1234.567", -5 -> "-0.005".
void appendUs(std::string& out, TimeNs ns) {
  const bool neg = ns < 0;
  const uint64_t a = neg ? static_cast<uint64_t>(-(ns + 1)) + 1 : static_cast<uint64_t>(ns);
  if (neg) out += '-';
  out += std::to_string(a / 1000);
  const unsigned frac = static_cast<unsigned>(a % 1000);
  out += '.';
  out += static_cast<char>('0' + frac / 100);
  out += static_cast<char>('0' + frac / 10 % 10);
  out += static_cast<char>('0' + frac % 10);
}
std::string usText(TimeNs ns) {
  std::string out;
  appendUs(out, ns);
  return out;
}

std::string rawId(const Trace& t, const RawId& id) {
  return id.isString ? quote(t.str(id.str)) : std::to_string(id.num);
}

std::string argValue(const NamedArg& a) {
  switch (a.type) {
    case ArgType::Null:
      return "null";
    case ArgType::False:
      return "false";
    case ArgType::True:
      return "true";
    case ArgType::Int:
      return std::to_string(a.i);
    case ArgType::Double:
      return jsonText(nlohmann::json(a.d));
    case ArgType::String:
      return quote(a.text);
    case ArgType::Json:
      return a.text;
  }
  return "null";
}

class Writer {
 public:
  Writer(const Trace& t, const TraceWriteOptions& o, const TextSink& write) : t_(t), o_(o), write_(write) {
    if (o.criticalPath) critical_ = o.criticalPath->events;  // sorted packed refs
  }

  void run() {
    assignPids();
    out_ = "{\n";
    header();
    out_ += "\"traceEvents\": [\n";
    metadata();
    slices();
    counters();
    instants();
    memory();
    flows();
    criticalFlows();
    if (!first_) out_ += "\n";
    out_ += "]}\n";
    write_(out_);
  }

 private:
  // The text goes out a megabyte at a time: a 1 GB trace writes more than 1 GB back,
  // which as one string doubled the process's memory.
  void event(const std::string& body) {
    if (!first_) out_ += ",\n";
    first_ = false;
    out_ += body;
    flushIfLarge();
  }
  void flushIfLarge() {
    if (out_.size() < (size_t{1} << 20)) return;
    write_(out_);
    out_.clear();
  }

  void header() {
    const TraceMetadata& m = t_.meta;
    if (m.schemaVersion) out_ += "\"schemaVersion\": " + std::to_string(*m.schemaVersion) + ",\n";
    if (!m.distributedInfo.empty()) out_ += "\"distributedInfo\": " + m.distributedInfo + ",\n";
    if (!m.devices.empty()) {
      nlohmann::ordered_json devices = nlohmann::ordered_json::array();
      for (const DeviceProperties& d : m.devices) {
        nlohmann::ordered_json j = {{"id", d.id}, {"name", d.name}};
        if (d.totalGlobalMem) j["totalGlobalMem"] = *d.totalGlobalMem;
        if (d.computeMajor) j["computeMajor"] = *d.computeMajor;
        if (d.computeMinor) j["computeMinor"] = *d.computeMinor;
        if (d.numSms) j["numSms"] = *d.numSms;
        if (d.warpSize) j["warpSize"] = *d.warpSize;
        if (d.maxThreadsPerBlock) j["maxThreadsPerBlock"] = *d.maxThreadsPerBlock;
        if (d.maxThreadsPerMultiprocessor) j["maxThreadsPerMultiprocessor"] = *d.maxThreadsPerMultiprocessor;
        if (d.regsPerBlock) j["regsPerBlock"] = *d.regsPerBlock;
        if (d.regsPerMultiprocessor) j["regsPerMultiprocessor"] = *d.regsPerMultiprocessor;
        if (d.sharedMemPerBlock) j["sharedMemPerBlock"] = *d.sharedMemPerBlock;
        if (d.sharedMemPerMultiprocessor) j["sharedMemPerMultiprocessor"] = *d.sharedMemPerMultiprocessor;
        if (d.sharedMemPerBlockOptin) j["sharedMemPerBlockOptin"] = *d.sharedMemPerBlockOptin;
        devices.push_back(std::move(j));
      }
      out_ += "\"deviceProperties\": " + jsonText(devices) + ",\n";
    }
    if (!m.traceName.empty()) out_ += "\"traceName\": " + quote(m.traceName) + ",\n";
    if (m.baseTimeNanoseconds) out_ += "\"baseTimeNanoseconds\": " + std::to_string(*m.baseTimeNanoseconds) + ",\n";
    // What the devices are when not GPUs and no category says it (a PlaidML log's CPU).
    if (m.deviceKind != "GPU") out_ += "\"deviceKind\": " + quote(m.deviceKind) + ",\n";
    out_ += "\"displayTimeUnit\": \"ms\",\n";
  }

  // A merged session's ranks share pids (every rank's GPU 0 is pid 0, its ProfilerStep
  // spans pid "Spans"): each rank's processes move to a pid range of their own, N ×
  // kRankPidStride + pid (Linux pids stay below 2^22; rank 0 keeps its numbers), names
  // get " (rank N)". A pid already in its rank's range (a file this writer wrote, read
  // back) stays; one that fits no range (negative, 2^22 or more, ranks past 511) gets a
  // number of its own from 2^31 up, so no two processes ever share one.
  static constexpr int64_t kRankPidStride = int64_t{1} << 22;
  static constexpr int64_t kRanksInRange = 512;  // 512 × 2^22 = 2^31: pids stay 32-bit
  std::vector<std::string> pids_;                // by process, computed once

  void assignPids() {
    int64_t spare = int64_t{1} << 31;
    pids_.resize(t_.processes.size());
    for (size_t i = 0; i < t_.processes.size(); ++i) {
      const Process& p = t_.processes[i];
      const int64_t r = p.rank;
      if (r == kNoId || r < 0) {
        pids_[i] = rawId(t_, p.pid);
      } else if (p.pid.isString) {
        const std::string name(t_.str(p.pid.str)), mark = " (rank " + std::to_string(r) + ")";
        pids_[i] = quote(name.ends_with(mark) ? name : name + mark);
      } else if (r < kRanksInRange && p.pid.num >= r * kRankPidStride && p.pid.num < (r + 1) * kRankPidStride) {
        pids_[i] = std::to_string(p.pid.num);  // already in its rank's range
      } else if (r < kRanksInRange && p.pid.num >= 0 && p.pid.num < kRankPidStride) {
        pids_[i] = std::to_string(p.pid.num + r * kRankPidStride);
      } else {
        pids_[i] = std::to_string(spare++);
      }
    }
  }
  const std::string& pidOf(uint32_t process) const { return pids_[process]; }

  void metadata() {
    for (uint32_t p = 0; p < t_.processes.size(); ++p) {
      const Process& proc = t_.processes[p];
      const std::string pid = pidOf(p);
      // A merged session's processes also carry their rank in their name (" (rank 3)"):
      // Perfetto ignores process_labels, and every rank's process may be "python".
      // The JSON loader takes the mark off again (applyRankLabels).
      if (proc.name) {
        std::string name(t_.str(proc.name));
        if (proc.rank != kNoId) {
          const std::string mark = " (rank " + std::to_string(proc.rank) + ")";
          if (!name.ends_with(mark)) name += mark;
        }
        event("{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": " + pid +
              ", \"tid\": 0, \"args\": {\"name\": " + quote(name) + "}}");
      }
      // A merged session's rank goes into the labels ("rank 3"), which every viewer shows.
      std::string labels(proc.labels ? t_.str(proc.labels) : std::string_view());
      if (proc.rank != kNoId) labels = "rank " + std::to_string(proc.rank) + (labels.empty() ? "" : ", " + labels);
      if (!labels.empty())
        event("{\"ph\": \"M\", \"name\": \"process_labels\", \"pid\": " + pid +
              ", \"tid\": 0, \"args\": {\"labels\": " + quote(labels) + "}}");
      if (proc.hasSortIndex)
        event("{\"ph\": \"M\", \"name\": \"process_sort_index\", \"pid\": " + pid +
              ", \"tid\": 0, \"args\": {\"sort_index\": " + std::to_string(proc.sortIndex) + "}}");
    }
    for (const Track& tr : t_.tracks) {
      if (tr.kind == TrackKind::Async) continue;
      const std::string ids = "\"pid\": " + pidOf(tr.process) + ", \"tid\": " + rawId(t_, tr.tid);
      // A GPU stream's name too ("stream 7", Kineto's own): a viewer shows a bare tid without it.
      if (tr.name)
        event("{\"ph\": \"M\", \"name\": \"thread_name\", " + ids + ", \"args\": {\"name\": " + quote(t_.str(tr.name)) +
              "}}");
      if (tr.hasSortIndex)
        event("{\"ph\": \"M\", \"name\": \"thread_sort_index\", " + ids +
              ", \"args\": {\"sort_index\": " + std::to_string(tr.sortIndex) + "}}");
    }
  }

  bool isCritical(EventRef r) const { return std::binary_search(critical_.begin(), critical_.end(), r.packed()); }

  // An event's args object appended to out_, keys quoted once each.
  void appendArgs(EventRef r, const std::vector<NamedArg>& args) {
    const bool critical = isCritical(r);
    // A correlation id the loader gave and no arg holds (a PlaidML log's launch and its
    // kernel) is written as Kineto's "correlation", which links them again when read.
    const int64_t correlation = t_.tracks[r.track].slices.correlation[r.index];
    bool writeCorrelation = correlation != kNoId;
    out_ += '{';
    bool any = false;
    for (const NamedArg& arg : args) {
      if (arg.key == "correlation") writeCorrelation = false;
      if (arg.key == "critical" && critical) continue;
      if (any) out_ += ", ";
      auto [key, fresh] = quotedKeys_.try_emplace(arg.key);
      if (fresh) key->second = quote(arg.key);
      (out_ += key->second) += ": ";
      if (arg.type == ArgType::String) appendQuoted(out_, arg.text);
      else out_ += argValue(arg);
      any = true;
    }
    if (writeCorrelation) {
      out_ += any ? ", \"correlation\": " : "\"correlation\": ";
      out_ += std::to_string(correlation);
      any = true;
    }
    if (critical) out_ += any ? ", \"critical\": 1" : "\"critical\": 1";
    out_ += '}';
  }

  // A name or category, quoted once.
  const std::string& quoted(StringId id) {
    auto [it, fresh] = quoted_.try_emplace(id);
    if (fresh) it->second = quote(t_.str(id));
    return it->second;
  }

  // Every slice with its args, read for all at once (Trace::argsOfEach: from a plain file
  // in one pass over it instead of an open and a read a slice, which took 15 s for the
  // 2.35 M slices of 1 GB). The slices whose args are in memory come in track order, then
  // those read from the file in the file's order (a file this writer wrote, read back,
  // is written again in the same order).
  void slices() {
    std::vector<EventRef> all;
    all.reserve(t_.sliceCount());
    std::vector<std::string> tids(t_.tracks.size());
    localIds();
    for (uint32_t ti = 0; ti < t_.tracks.size(); ++ti) {
      tids[ti] = rawId(t_, t_.tracks[ti].tid);
      if (t_.tracks[ti].kind == TrackKind::Async) {
        asyncLanes(ti, all);
        continue;
      }
      for (uint32_t i = 0; i < t_.tracks[ti].slices.size(); ++i) all.push_back({ti, i});
    }
    t_.argsOfEach(all, [&](size_t k, std::vector<NamedArg>&& args) { slice(all[k], args, tids[all[k].track]); });
  }

  // An async track's slices as b/e pairs on its id, which a viewer nests: Perfetto on
  // (name, process, id), chrome://tracing on (category, id). Slices that overlap without
  // nesting (PlaidML's queue, whose events the loader gathers on one id) would be cut or
  // dropped there, so they go in lanes: each slice to the first lane where it nests in
  // what is still open (strictly inside: an equal end would close the pair out of order),
  // lane 0 on the track's id, lane k on "<id> (lane k+1)" (kAsyncLaneMark), which the
  // JSON loader folds back onto the id's track. Written by start, the longer first, so a
  // parent's b comes first.
  void asyncLanes(uint32_t ti, std::vector<EventRef>& all) {
    const SliceColumns& s = t_.tracks[ti].slices;
    std::vector<uint32_t> order(s.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return s.start[a] != s.start[b] ? s.start[a] < s.start[b] : s.dur[a] > s.dur[b];
    });
    std::vector<std::vector<TimeNs>> open;  // per lane: the ends of the slices still open
    std::vector<uint32_t> lane(s.size(), 0);
    for (uint32_t i : order) {
      const TimeNs start = s.start[i], end = s.end(i);
      uint32_t k = 0;
      for (;; ++k) {
        if (k == open.size()) open.emplace_back();
        std::vector<TimeNs>& ends = open[k];
        while (!ends.empty() && ends.back() <= start) ends.pop_back();
        if (ends.empty() || ends.back() > end) break;
      }
      open[k].push_back(end);
      lane[i] = k;
      all.push_back({ti, i});
    }
    if (open.size() > 1) lanes_[ti] = std::move(lane);
  }

  // A plain "id" is read back as one track across processes (AsyncScope::Trace) and an
  // id2 "local" as one per process, so of the async tracks that share a (category, id)
  // one keeps the plain id and the others go on id2 "local" in their process. The plain
  // one: the trace-wide track (a merged session's ranks have one each: the one whose
  // process also has a per-process track of the pair, else the first), or the lone
  // per-process track. Two ranks that each have both a trace-wide and a per-process track
  // of one pair in one process cannot all be spelled apart: those two read back as one.
  void localIds() {
    std::map<std::pair<StringId, StringId>, std::vector<uint32_t>> tracksOf;
    for (uint32_t ti = 0; ti < t_.tracks.size(); ++ti)
      if (t_.tracks[ti].kind == TrackKind::Async) tracksOf[{t_.tracks[ti].name, t_.tracks[ti].tid.str}].push_back(ti);
    for (const auto& [key, tracks] : tracksOf) {
      if (tracks.size() < 2) continue;
      std::set<uint32_t> perProcess;  // processes with a per-process track of the pair
      for (uint32_t ti : tracks)
        if (t_.tracks[ti].scope == AsyncScope::Process) perProcess.insert(t_.tracks[ti].process);
      uint32_t plain = ~0u;
      for (uint32_t ti : tracks) {
        if (t_.tracks[ti].scope != AsyncScope::Trace) continue;
        if (plain == ~0u || (perProcess.count(t_.tracks[ti].process) && !perProcess.count(t_.tracks[plain].process)))
          plain = ti;
      }
      for (uint32_t ti : tracks)
        if (ti != plain) localId_.insert(ti);
    }
  }

  // The id a slice's b/e pair is written on: its track's, or its lane's.
  std::string asyncId(EventRef r, const std::string& trackId) const {
    const auto it = lanes_.find(r.track);
    if (it == lanes_.end() || it->second[r.index] == 0) return trackId;
    const RawId& id = t_.tracks[r.track].tid;
    const std::string text = id.isString ? std::string(t_.str(id.str)) : std::to_string(id.num);
    return quote(text + std::string(kAsyncLaneMark) + std::to_string(it->second[r.index] + 1) + ")");
  }

  // Appended in place (no string an event): 2.35 M slices on 1 GB.
  void slice(EventRef r, const std::vector<NamedArg>& args, const std::string& tid) {
    const Track& tr = t_.tracks[r.track];
    const SliceColumns& s = tr.slices;
    const uint32_t i = r.index;
    const auto common = [&](const char* ph) {
      if (!first_) out_ += ",\n";
      first_ = false;
      (out_ += "{\"ph\": \"") += ph;
      (out_ += "\", \"name\": ") += quoted(s.name[i]);
      (out_ += ", \"cat\": ") += quoted(s.cat[i]);
      (out_ += ", \"pid\": ") += pidOf(tr.process);
    };
    if (tr.kind == TrackKind::Async) {
      // b/e pairs on their id (or lane's): the loader groups them by (category, id), or
      // by (process, category, id) on id2 "local" (localIds), again.
      const bool local = localId_.count(r.track) != 0;
      const std::string id = local ? "{\"local\": " + asyncId(r, tid) + "}" : asyncId(r, tid);
      const char* key = local ? ", \"tid\": 0, \"id2\": " : ", \"tid\": 0, \"id\": ";
      common("b");
      (out_ += key) += id;
      out_ += ", \"ts\": ";
      appendUs(out_, s.start[i]);
      out_ += ", \"args\": ";
      appendArgs(r, args);
      out_ += '}';
      common("e");
      (out_ += key) += id;
      out_ += ", \"ts\": ";
      appendUs(out_, s.end(i));
      out_ += '}';
    } else {
      common("X");
      (out_ += ", \"tid\": ") += tid;
      out_ += ", \"ts\": ";
      appendUs(out_, s.start[i]);
      out_ += ", \"dur\": ";
      appendUs(out_, s.dur[i]);
      out_ += ", \"args\": ";
      appendArgs(r, args);
      out_ += '}';
    }
    flushIfLarge();
  }

  void counters() {
    for (const CounterSeries& c : t_.counters) {
      // "<event>.<key>" as the loader named it; a series named otherwise keeps its name
      // and gets the key "value".
      const std::string_view full = t_.str(c.name);
      const size_t dot = full.rfind('.');
      const bool split = dot != std::string_view::npos && dot > 0 && dot + 1 < full.size();
      const std::string name = quote(split ? full.substr(0, dot) : full);
      const std::string key = quote(split ? full.substr(dot + 1) : std::string_view("value"));
      const std::string pid = pidOf(c.process);
      for (size_t i = 0; i < c.ts.size(); ++i)
        event("{\"ph\": \"C\", \"name\": " + name + ", \"pid\": " + pid + ", \"tid\": 0, \"ts\": " + usText(c.ts[i]) +
              ", \"args\": {" + key + ": " + jsonText(nlohmann::json(c.value[i])) + "}}");
    }
  }

  void instants() {
    for (const Instant& in : t_.instants) {
      const char* scope = in.scope == InstantScope::Global ? "g" : in.scope == InstantScope::Process ? "p" : "t";
      const std::string tid = in.scope == InstantScope::Thread ? rawId(t_, t_.tracks[in.track].tid) : "0";
      event("{\"ph\": \"i\", \"s\": \"" + std::string(scope) + "\", \"name\": " + quote(t_.str(in.name)) +
            ", \"cat\": " + quote(t_.str(in.cat)) + ", \"pid\": " + pidOf(in.process) + ", \"tid\": " + tid +
            ", \"ts\": " + usText(in.ts) + "}");
    }
  }

  void memory() {
    for (const MemoryEvent& m : t_.memoryEvents) {
      const Track& tr = t_.tracks[m.track];
      std::string args = "{\"Device Type\": " + std::to_string(m.deviceType) +
                         ", \"Device Id\": " + std::to_string(m.device) + ", \"Bytes\": " + std::to_string(m.bytes);
      if (m.addr) args += ", \"Addr\": " + std::to_string(m.addr);
      if (m.totalAllocated >= 0) args += ", \"Total Allocated\": " + std::to_string(m.totalAllocated);
      if (m.totalReserved >= 0) args += ", \"Total Reserved\": " + std::to_string(m.totalReserved);
      args += '}';
      event("{\"ph\": \"i\", \"s\": \"t\", \"name\": \"[memory]\", \"cat\": \"cpu_instant_event\", \"pid\": " +
            pidOf(tr.process) + ", \"tid\": " + rawId(t_, tr.tid) + ", \"ts\": " + usText(m.ts) +
            ", \"args\": " + args + "}");
    }
  }

  // One flow arrow from a slice to another: s on the first at its start, f (bound to
  // the enclosing slice, bp e) on the second at its start.
  void arrow(const std::string& cat, const std::string& name, EventRef from, EventRef to) {
    const uint64_t id = ++flowId_;
    const Track& a = t_.tracks[from.track];
    const Track& b = t_.tracks[to.track];
    event("{\"ph\": \"s\", \"name\": " + name + ", \"cat\": " + cat + ", \"id\": " + std::to_string(id) +
          ", \"pid\": " + pidOf(a.process) + ", \"tid\": " + rawId(t_, a.tid) + ", \"ts\": " + usText(t_.start(from)) +
          "}");
    event("{\"ph\": \"f\", \"bp\": \"e\", \"name\": " + name + ", \"cat\": " + cat + ", \"id\": " + std::to_string(id) +
          ", \"pid\": " + pidOf(b.process) + ", \"tid\": " + rawId(t_, b.tid) + ", \"ts\": " + usText(t_.start(to)) +
          "}");
  }

  // The file's arrows, but for launch arrows (ac2g): those are drawn from the launch
  // links, one per link, so a trace whose loader linked by correlation ids alone (Nsight
  // Systems, XPlane, PlaidML, HTA's trimmed traces) shows them in other viewers too, and
  // an ac2g arrow that bound to a neighbour (two kernels starting at one instant) is
  // drawn where its correlation id says.
  void flows() {
    const StringId ac2g = t_.strings.find("ac2g");
    std::vector<std::pair<uint64_t, uint64_t>> drawn;  // other arrows between a launch and its kernel
    for (const Flow& f : t_.flows) {
      if (f.from == kNoRef || f.to == kNoRef || f.cat == ac2g) continue;  // ac2g: kNotFound when absent
      const EventRef a = EventRef::unpack(f.from), b = EventRef::unpack(f.to);
      if (t_.tracks[a.track].kind == TrackKind::Async || t_.tracks[b.track].kind == TrackKind::Async) continue;
      arrow(quote(t_.str(f.cat)), quote(t_.str(f.name)), a, b);
      drawn.push_back({f.from, f.to});
    }
    // A link the file draws under another category (the legacy dialect's "async") is not
    // drawn twice.
    std::sort(drawn.begin(), drawn.end());
    for (const LaunchLinks::Pair& p : t_.links.launchToGpu) {
      if (std::binary_search(drawn.begin(), drawn.end(), std::pair{p.first, p.second})) continue;
      const EventRef launch = EventRef::unpack(p.first), gpu = EventRef::unpack(p.second);
      if (t_.tracks[launch.track].kind == TrackKind::Async || t_.tracks[gpu.track].kind == TrackKind::Async) continue;
      arrow("\"ac2g\"", "\"ac2g\"", launch, gpu);
    }
  }

  void criticalFlows() {
    if (!o_.criticalPath) return;
    uint64_t prev = kNoRef;
    for (const CriticalPathSegment& seg : o_.criticalPath->segments) {
      if (seg.event == kNoRef) continue;
      if (prev != kNoRef && prev != seg.event) {
        const EventRef a = EventRef::unpack(prev), b = EventRef::unpack(seg.event);
        if (t_.tracks[a.track].kind != TrackKind::Async && t_.tracks[b.track].kind != TrackKind::Async &&
            t_.start(b) >= t_.start(a))
          arrow("\"critical_path\"", "\"critical_path\"", a, b);
      }
      prev = seg.event;
    }
  }

  const Trace& t_;
  const TraceWriteOptions& o_;
  const TextSink& write_;
  std::vector<uint64_t> critical_;
  std::unordered_map<StringId, std::string> quoted_;
  std::unordered_map<std::string, std::string> quotedKeys_;
  std::unordered_set<uint32_t> localId_;                       // async tracks written on id2 "local" (localIds)
  std::unordered_map<uint32_t, std::vector<uint32_t>> lanes_;  // async track -> lane per row, when more than one
  std::string out_;
  bool first_ = true;
  uint64_t flowId_ = 0;
};

}  // namespace

void writeChromeTrace(const Trace& trace, const TraceWriteOptions& options, const TextSink& write) {
  Writer(trace, options, write).run();
}

std::string chromeTraceJson(const Trace& trace, const TraceWriteOptions& options) {
  std::string out;
  writeChromeTrace(trace, options, [&](std::string_view piece) { out += piece; });
  return out;
}

}  // namespace opscope
