#include "io/chrome_event_parser.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "io/device_properties_json.h"
#include "io/number_text.h"

namespace opscope {

namespace {

// N of process labels "rank N" or "rank N, …" (exactly: digits, then the end or ", ").
std::optional<int64_t> rankLabelPrefix(std::string_view labels) {
  constexpr std::string_view kPrefix = "rank ";
  if (labels.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  size_t end = kPrefix.size();
  int64_t rank = 0;
  while (end < labels.size() && end < kPrefix.size() + 9 && labels[end] >= '0' && labels[end] <= '9')
    rank = rank * 10 + (labels[end++] - '0');
  if (end == kPrefix.size()) return std::nullopt;
  if (end != labels.size() && labels.substr(end, 2) != ", ") return std::nullopt;
  return rank;
}

}  // namespace

void applyRankLabels(Trace& trace) {
  std::vector<int64_t> ranks;
  for (const Process& p : trace.processes) {
    const auto rank = p.labels ? rankLabelPrefix(trace.str(p.labels)) : std::nullopt;
    if (!rank) return;  // a process without one: an ordinary trace, its labels kept as they are
    ranks.push_back(*rank);
  }
  for (size_t i = 0; i < trace.processes.size(); ++i) {
    Process& p = trace.processes[i];
    const std::string labels(trace.str(p.labels));
    const size_t comma = labels.find(',');
    p.rank = ranks[i];
    p.labels = comma == std::string::npos ? 0 : trace.strings.intern(labels.substr(comma + 2));
    // The writer's " (rank N)" after the process's name (for viewers that ignore labels).
    const std::string mark = " (rank " + std::to_string(p.rank) + ")";
    if (const std::string name(p.name ? trace.str(p.name) : std::string_view()); name.ends_with(mark))
      p.name = trace.strings.intern(std::string_view(name).substr(0, name.size() - mark.size()));
  }
}

ChromeEventParser::ChromeEventParser(Trace& trace, TraceBuilder& builder, const JsonReadWindow& window, bool lazyArgs,
                                     bool keepOpShapes, bool keepKernelLaunches)
    : trace_(trace),
      builder_(builder),
      window_(window),
      lazyArgs_(lazyArgs),
      keepOpShapes_(keepOpShapes && lazyArgs),
      keepKernelLaunches_(keepKernelLaunches && lazyArgs) {
  keyCorrelation_ = trace_.strings.intern("correlation");
  keyExternalId_ = trace_.strings.intern("External id");
  keyExternalIdLegacy_ = trace_.strings.intern("external id");
  keyStream_ = trace_.strings.intern("stream");
  keyDevice_ = trace_.strings.intern("device");
  keyDeviceLegacy_ = trace_.strings.intern("Device");
}

void ChromeEventParser::warn(WarningKind kind, const char* at, std::string_view example) {
  auto& d = trace_.diagnostics;
  if (d.count(kind) == 0) d.warn(kind, window_.offsetOf(at), window_.lineOf(at), example);
  else d.warn(kind, 0, 0, example);
}

const char* ChromeEventParser::format() const {
  return sawKineto_ || trace_.meta.schemaVersion ? "kineto-json" : sawLegacy_ ? "legacy-pytorch-json" : "chrome-json";
}

void ChromeEventParser::topLevelValue(std::string_view key, std::string_view raw) {
  TraceMetadata& m = trace_.meta;
  auto asString = [&]() -> std::string {
    if (raw.size() >= 2 && raw.front() == '"') {
      try {
        return nlohmann::json::parse(raw).get<std::string>();
      } catch (...) {
      }
    }
    return std::string(raw);
  };
  auto asInt = [&](std::optional<int64_t>& out) {
    int64_t v;
    if (integerText(raw, v) == NumberStatus::Ok) out = v;
  };
  if (key == "schemaVersion") {
    asInt(m.schemaVersion);
    m.schemaVersionText = std::string(raw);
  } else if (key == "deviceProperties") {
    m.devices = parseDeviceProperties(raw);
  } else if (key == "distributedInfo") {
    m.distributedInfo = std::string(raw);
    try {
      const auto j = nlohmann::json::parse(raw);
      if (j.contains("rank") && j["rank"].is_number_integer()) m.rank = j["rank"].get<int64_t>();
      if (j.contains("world_size") && j["world_size"].is_number_integer()) m.worldSize = j["world_size"].get<int64_t>();
    } catch (...) {
      warn(WarningKind::BadMetadata, raw.data(), "distributedInfo is not valid JSON");
    }
  } else if (key == "traceName") {
    m.traceName = asString();
  } else if (key == "baseTimeNanoseconds") {
    asInt(m.baseTimeNanoseconds);
  } else if (key == "displayTimeUnit") {
    m.displayTimeUnit = asString();
  } else if (key == "deviceKind") {
    // opscope's own key (report/trace_writer.h): a device other than a GPU ("CPU device").
    const std::string kind = raw.starts_with('"') ? asString() : std::string();
    if (!kind.empty() && kind.size() <= 64) m.deviceKind = kind;
    else warn(WarningKind::BadMetadata, raw.data(), "deviceKind is not a short string");
  } else if (key == "record_shapes") {
    m.recordShapes = std::string(raw);
  } else if (raw.size() <= 4096) {
    m.other.emplace_back(std::string(key), std::string(raw));
  }
}

bool ChromeEventParser::timeField(const RawEvent& ev, std::string_view text, bool wasString, const char* field,
                                  TimeNs& out) {
  if (wasString)
    warn(WarningKind::WrongType, ev.at,
         std::string(field) + " is a string: \"" + std::string(text.substr(0, 40)) + "\"");
  switch (microsTextToNs(text, out)) {
    case NumberStatus::Ok:
      return true;
    case NumberStatus::OutOfRange:
      // A time, not an id: counted as one (it said "id out of range" for a ts of 1e300).
      warn(WarningKind::TimeOutOfRange, ev.at,
           std::string(field) + " beyond int64 ns, event left out: " + std::string(text.substr(0, 40)));
      return false;
    case NumberStatus::Invalid:
      warn(WarningKind::WrongType, ev.at, std::string(field) + " is not a number: " + std::string(text.substr(0, 40)));
      return false;
  }
  return false;
}

RawId ChromeEventParser::rawId(const RawIdText& t, const RawEvent& ev, const char* field) {
  RawId id;
  if (!t.present) {
    warn(WarningKind::MissingField, ev.at, std::string("event without ") + field);
    return id;  // 0
  }
  if (!t.isString && plainInteger(t.text, id.num)) return id;
  // "25738" and 25738 are one thread: Chrome's viewer keys threads by the id's text and
  // Perfetto coerces numeric strings, and Kineto of 2021 wrote its slices' tids as
  // strings but its flow starts and [memory] instants as numbers (every flow dangled, no
  // allocation had an op). Only the canonical spelling: "007" is not 7 to either.
  if (t.isString && canonicalInteger(t.text) && plainInteger(t.text, id.num)) return id;
  if (!t.isString) {
    switch (integerText(t.text, id.num)) {
      case NumberStatus::Ok:
        return id;
      case NumberStatus::OutOfRange:
        warn(WarningKind::IdOutOfRange, ev.at,
             std::string(field) + " beyond int64: " + std::string(t.text.substr(0, 40)));
        break;
      case NumberStatus::Invalid:
        break;  // e.g. 1.5: kept as its text
    }
  }
  id.isString = true;
  id.str = trace_.strings.intern(t.text);
  return id;
}

StringId ChromeEventParser::internId(const RawIdText& t) { return t.present ? trace_.strings.intern(t.text) : 0; }

// A plain id or an id2 "global" names one track across processes; id2 "local", an id
// of another form, or no id at all (each process's nameless track), one per process.
AsyncScope ChromeEventParser::asyncScope(const RawIdText& t) {
  return t.present && t.scope == 0 ? AsyncScope::Trace : AsyncScope::Process;
}

StringId ChromeEventParser::asyncIdAndLane(const RawIdText& raw, uint32_t& lane) {
  lane = 0;
  RawIdText t = raw;
  if (raw.hasAsync) t.text = raw.async, t.isString = raw.asyncIsString;
  if (!t.present || !t.isString) return internId(t);
  // "<id> (lane N)", N >= 2: lane N-1 of <id>'s track, as opscope's writer lays out
  // async slices that overlap without nesting.
  std::string_view text = t.text;
  constexpr std::string_view kMark = kAsyncLaneMark;
  if (text.size() < kMark.size() + 2 || text.back() != ')') return internId(t);
  const size_t at = text.rfind(kMark);
  if (at == std::string_view::npos || at == 0) return internId(t);
  const std::string_view digits = text.substr(at + kMark.size(), text.size() - 1 - at - kMark.size());
  uint32_t n = 0;
  if (digits.empty() || digits.size() > 6 || digits[0] == '0') return internId(t);
  for (char c : digits) {
    if (c < '0' || c > '9') return internId(t);
    n = n * 10 + static_cast<uint32_t>(c - '0');
  }
  if (n < 2) return internId(t);
  lane = n - 1;
  return trace_.strings.intern(text.substr(0, at));
}

bool ChromeEventParser::argId(const RawArg& a, const RawEvent& ev, int64_t& out) {
  if (a.type != 'n' && a.type != 's') return false;
  if (a.type == 's') warn(WarningKind::WrongType, ev.at, std::string(a.key) + " is a string");
  switch (integerText(a.value, out)) {
    case NumberStatus::Ok:
      return true;
    case NumberStatus::OutOfRange:
      warn(WarningKind::IdOutOfRange, ev.at,
           std::string(a.key) + " beyond int64: " + std::string(a.value.substr(0, 40)));
      return false;
    case NumberStatus::Invalid:
      if (a.type == 'n') warn(WarningKind::WrongType, ev.at, std::string(a.key) + " is not an integer");
      return false;
  }
  return false;
}

// Lifts the args the model indexes into columns (correlation, External id, stream,
// device, in Kineto and legacy spellings) and encodes the rest, or, for lazy traces,
// only notes where the args object starts in the file.
// A "[memory]" instant becomes a MemoryEvent rather than an instant marker: thousands
// per step would bury the timeline, and the memory analysis needs its numbers. An event
// whose Bytes is missing or not an integer carries nothing usable and is counted.
void ChromeEventParser::addMemoryEvent(const RawEvent& ev, TimeNs ts, const RawId& pid) {
  MemoryEvent m;
  m.ts = ts;
  bool haveBytes = false;
  for (const RawArg& a : ev.args) {
    int64_t v = 0;
    if (a.type != 'n' || integerText(a.value, v) != NumberStatus::Ok) continue;
    if (a.key == "Bytes") m.bytes = v, haveBytes = true;
    else if (a.key == "Addr") m.addr = static_cast<uint64_t>(v);
    else if (a.key == "Total Allocated") m.totalAllocated = v;
    else if (a.key == "Total Reserved") m.totalReserved = v;
    else if (a.key == "Device Id") m.device = static_cast<int32_t>(std::clamp<int64_t>(v, -1, 1 << 20));
    else if (a.key == "Device Type") m.deviceType = static_cast<uint8_t>(std::clamp<int64_t>(v, 0, 255));
  }
  if (!haveBytes) {
    warn(WarningKind::BadMetadata, ev.at, "[memory] event without an integer Bytes");
    return;
  }
  m.track = builder_.threadTrack(pid, rawId(ev.tid, ev, "tid"));
  trace_.memoryEvents.push_back(m);
}

void ChromeEventParser::noteDialect(StringId catId, std::string_view cat) {
  if (catId < catDialect_.size() && catDialect_[catId] != kDialectUnknown) {
    if (catDialect_[catId] == kDialectLegacy) sawLegacy_ = true;
    else if (catDialect_[catId] == kDialectKineto) sawKineto_ = true;
    return;
  }
  uint8_t d = kDialectNone;
  if (builder_.kindOf(catId) != SliceKind::Other) {
    const bool legacy = cat == "Operator" || cat == "Runtime" || cat == "Kernel" || cat == "Memcpy" || cat == "Memset";
    d = legacy ? kDialectLegacy : kDialectKineto;
    (legacy ? sawLegacy_ : sawKineto_) = true;
  }
  if (catId < kDialectMemo) {
    if (catId >= catDialect_.size()) catDialect_.resize(catId + 1, kDialectUnknown);
    catDialect_[catId] = d;
  }
}

void ChromeEventParser::encodeArgs(RawEvent& ev, SliceInput& in) {
  argsWriter_.clear();
  if (lazyArgs_) {
    if (ev.argsAt) argsWriter_.setFileOffset(window_.offsetOf(ev.argsAt));
    if ((keepOpShapes_ || keepKernelLaunches_) && ev.argsAt) {
      const SliceKind kind = builder_.kindOf(in.cat);
      const bool op = keepOpShapes_ && isOpKind(kind), kernel = keepKernelLaunches_ && kind == SliceKind::Kernel;
      if (op || kernel) {
        keptArgsText(ev.args, op ? KeptArgKeys::OpShapes : KeptArgKeys::KernelLaunch, keptScratch_);
        trace_.keptArgs.push_back({window_.offsetOf(ev.argsAt), trace_.keptArgTexts.intern(keptScratch_)});
      }
    }
    for (const RawArg& a : ev.args) {
      // Keys compared as text: interning every key is what lazy mode saves. By length
      // first: most keys ("Input Dims", "Ev Idx", ...) are none of these and cost one
      // comparison of lengths.
      const std::string_view k = a.key;
      if (k.size() == 11) {
        if (k == "correlation") liftId(a, ev, in.correlation);
        else if (k == "External id" || k == "external id") liftId(a, ev, in.externalId);
      } else if (k.size() == 6) {
        int64_t* out = k == "stream" ? &in.stream : k == "device" || k == "Device" ? &in.device : nullptr;
        int64_t iv = 0;
        if (out) *out = a.type == 'n' && plainInteger(a.value, iv) ? iv : kNoId;
      }
    }
    return;
  }
  StringPool& pool = trace_.strings;
  for (const RawArg& a : ev.args) {
    const StringId key = pool.intern(a.key);
    int64_t iv = 0;
    bool haveInt = false;
    switch (a.type) {
      case 's':
        argsWriter_.addString(key, pool.intern(a.value));
        break;
      case 'r':
        argsWriter_.addJson(key, compactJsonId(a.value));
        break;
      case 't':
      case 'f':
        argsWriter_.addBool(key, a.type == 't');
        break;
      case 'z':
        argsWriter_.addNull(key);
        break;
      default: {
        double dv;
        switch (classifyNumber(a.value, iv, dv)) {
          case NumberForm::Int:
            haveInt = true;
            argsWriter_.addInt(key, iv);
            break;
          case NumberForm::Double:
            argsWriter_.addDouble(key, dv);
            break;
          case NumberForm::Text:
            argsWriter_.addJson(key, pool.intern(a.value));
            break;  // a huge integer
        }
      }
    }
    if (key == keyCorrelation_ || key == keyExternalId_ || key == keyExternalIdLegacy_) {
      int64_t& out = key == keyCorrelation_ ? in.correlation : in.externalId;
      if (haveInt) out = iv;
      else liftId(a, ev, out);
    } else if (key == keyStream_ || key == keyDevice_ || key == keyDeviceLegacy_) {
      // ROCm launches write "stream": "0x0"; only the GPU events' numbers name tracks.
      (key == keyStream_ ? in.stream : in.device) = haveInt ? iv : kNoId;
    }
  }
}

// The ids handed out are those of interning every compacted text in turn: a text met
// before answers the id its first meeting got, and a new one is interned when met.
StringId ChromeEventParser::compactJsonId(std::string_view raw) {
  StringPool& pool = trace_.strings;
  if (rawJsonBytes_ >= kRawJsonCacheBytes) return pool.intern(compactJson(raw, jsonScratch_));
  const StringId r = rawJson_.intern(raw);
  if (r < compactJsonIds_.size()) return compactJsonIds_[r];
  rawJsonBytes_ += raw.size() + kRawJsonEntryBytes;
  compactJsonIds_.push_back(pool.intern(compactJson(raw, jsonScratch_)));
  return compactJsonIds_.back();
}

// An id arg that is not a plain integer: strings, huge or fractional ids are converted
// where they can be, and warned about.
void ChromeEventParser::liftId(const RawArg& a, const RawEvent& ev, int64_t& out) {
  int64_t iv = 0;
  if (a.type == 'n' && plainInteger(a.value, iv)) {
    out = iv;
    return;
  }
  argId(a, ev, out);
}

void ChromeEventParser::metadataEvent(const RawEvent& ev, uint32_t process, const RawId& pid, const RawId& tid) {
  const std::string_view n = ev.name;
  auto argOf = [&](std::string_view key) -> const RawArg* {
    for (const RawArg& a : ev.args)
      if (a.key == key) return &a;
    return nullptr;
  };
  // A rejected sort index leaves the earlier one (the number's parse may have written a
  // prefix of "1.5" or "7x" before it failed).
  auto sortIndex = [&](int64_t& out) {
    const RawArg* a = argOf("sort_index");
    int64_t v = 0;
    if (!a || !argId(*a, ev, v)) {
      warn(WarningKind::BadMetadata, ev.at, std::string(n) + " without an integer sort_index");
      return false;
    }
    out = v;
    return true;
  };
  Process& proc = trace_.processes[process];
  if (n == "process_name") {
    const RawArg* a = argOf("name");
    if (a && a->type == 's') {
      proc.name = trace_.strings.intern(a->value);
      builder_.noteProcessMetadata(process, TraceBuilder::kMetaName);
    } else {
      warn(WarningKind::BadMetadata, ev.at, "process_name without a string name");
    }
  } else if (n == "process_labels") {
    const RawArg* a = argOf("labels");
    if (a && a->type == 's') {
      proc.labels = trace_.strings.intern(a->value);
      builder_.noteProcessMetadata(process, TraceBuilder::kMetaLabels);
    }
  } else if (n == "process_sort_index") {
    if (sortIndex(proc.sortIndex)) {
      proc.hasSortIndex = true;
      builder_.noteProcessMetadata(process, TraceBuilder::kMetaSortIndex);
    }
  } else if (n == "thread_name" || n == "thread_sort_index") {
    const uint32_t track = builder_.threadTrack(pid, tid);
    Track& t = trace_.tracks[track];
    if (n == "thread_name") {
      const RawArg* a = argOf("name");
      if (a && a->type == 's') {
        t.name = trace_.strings.intern(a->value);
        builder_.noteTrackMetadata(track, TraceBuilder::kMetaName);
      } else {
        warn(WarningKind::BadMetadata, ev.at, "thread_name without a string name");
      }
    } else if (sortIndex(t.sortIndex)) {
      t.hasSortIndex = true;
      builder_.noteTrackMetadata(track, TraceBuilder::kMetaSortIndex);
    }
  }
}

void ChromeEventParser::event(RawEvent& ev) {
  if (!ev.hasPh) {
    warn(WarningKind::MissingField, ev.at, "event without ph");
    return;
  }
  const char ph = ev.ph.size() == 1 ? ev.ph[0] : '?';
  // Escaped line breaks and tabs are text (a kernel's source in an arg), not a defect,
  // except in a name, which is one line wherever it shows.
  const uint64_t controls = ev.controlCharsAfter - ev.controlCharsBefore;
  if (controls) {
    const uint64_t breaks = ev.escapedBreaksAfter - ev.escapedBreaksBefore;
    const bool inName =
        std::any_of(ev.name.begin(), ev.name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
    if (inName || controls > breaks)
      warn(WarningKind::ControlCharacter, ev.at,
           inName ? "control character in a name" : "control character in a string");
  }
  const RawId pid = rawId(ev.pid, ev, "pid");
  const uint32_t process = builder_.process(pid);

  if (ph == 'M') {
    const RawId tid = ev.tid.present ? rawId(ev.tid, ev, "tid") : RawId{};
    metadataEvent(ev, process, pid, tid);
    return;
  }
  if (!ev.hasTs) {
    warn(WarningKind::MissingField, ev.at, std::string("'") + std::string(ev.ph) + "' event without ts");
    return;
  }
  TimeNs ts;
  if (!timeField(ev, ev.ts, ev.tsIsString, "ts", ts)) return;
  if (ev.nameNotString) warn(WarningKind::WrongType, ev.at, "name is not a string");

  SliceInput in;
  in.start = ts;
  in.name = trace_.strings.intern(ev.name);
  in.cat = trace_.strings.intern(ev.cat);
  if (!ev.cat.empty()) noteDialect(in.cat, ev.cat);

  switch (ph) {
    case 'X': {
      if (!ev.hasDur) {
        warn(WarningKind::MissingField, ev.at, "X event without dur");
        in.flags |= kFlagClampedDur;
      } else if (!timeField(ev, ev.dur, ev.durIsString, "dur", in.dur)) {
        return;
      }
      if (in.dur < 0) {
        warn(WarningKind::NegativeDuration, ev.at, std::string(ev.name.substr(0, 80)) + ": dur " + std::string(ev.dur));
        in.dur = 0;
        in.flags |= kFlagClampedDur;
      }
      encodeArgs(ev, in);
      builder_.addSlice(builder_.threadTrack(pid, rawId(ev.tid, ev, "tid")), in, argsWriter_);
      return;
    }
    case 'B':
      encodeArgs(ev, in);
      builder_.beginSlice(builder_.threadTrack(pid, rawId(ev.tid, ev, "tid")), in, argsWriter_);
      return;
    case 'E':
      if (!builder_.endSlice(builder_.threadTrack(pid, rawId(ev.tid, ev, "tid")), ts, window_.offsetOf(ev.at)))
        warn(WarningKind::UnmatchedEnd, ev.at, TraceBuilder::kNoOpenBegin);
      return;
    case 'i':
    case 'I':
    case 'R': {
      if (ev.name == "[memory]") {
        addMemoryEvent(ev, ts, pid);
        return;
      }
      Instant inst;
      inst.ts = ts;
      inst.name = in.name;
      inst.cat = in.cat;
      inst.process = process;
      if (ev.scope == "g") {
        inst.scope = InstantScope::Global;
      } else if (ev.scope == "p") {
        inst.scope = InstantScope::Process;
      } else {
        inst.scope = InstantScope::Thread;
        inst.track = builder_.threadTrack(pid, rawId(ev.tid, ev, "tid"));
      }
      builder_.addInstant(inst);
      return;
    }
    case 'C': {
      // Each numeric arg is one series: "<name>.<key>" (Chrome draws them stacked), but a
      // lone arg called "value" (how Chrome's own counters and opscope's written series
      // hold one number) names no series of its own: "<name>".
      std::string series;
      const bool lone = ev.args.size() == 1 && ev.args[0].key == "value";
      for (const RawArg& a : ev.args) {
        double v;
        if (a.type != 'n' || doubleText(a.value, v) != NumberStatus::Ok) continue;
        series.assign(ev.name);
        if (ev.id.present) series.append(" ").append(ev.id.text);
        if (!lone) series.append(".").append(a.key);
        builder_.addCounter(process, trace_.strings.intern(series), ts, v);
      }
      return;
    }
    case 's':
    case 't':
    case 'f': {
      if (!ev.id.present) {
        warn(WarningKind::MissingField, ev.at, "flow event without id");
        return;
      }
      FlowPoint fp;
      fp.track = builder_.threadTrack(pid, rawId(ev.tid, ev, "tid"));
      fp.ts = ts;
      fp.cat = in.cat;
      fp.name = in.name;
      int64_t numeric;
      if (!ev.id.isString && integerText(ev.id.text, numeric) == NumberStatus::Ok && numeric >= 0)
        fp.id = static_cast<uint64_t>(numeric);
      else fp.id = kStringFlowId | internId(ev.id);
      fp.phase = ph;
      fp.bindEnclosing = ph != 'f' || ev.bp == "e";
      builder_.addFlowPoint(fp);
      return;
    }
    case 'b':
    case 'S': {
      encodeArgs(ev, in);
      uint32_t lane;
      const StringId id = asyncIdAndLane(ev.id, lane);
      builder_.asyncBegin(process, in.cat, id, in, argsWriter_, lane, asyncScope(ev.id));
      return;
    }
    case 'e':
    case 'F': {
      uint32_t lane;
      const StringId id = asyncIdAndLane(ev.id, lane);
      if (!builder_.asyncEnd(process, in.cat, id, in.name, ts, lane, window_.offsetOf(ev.at), asyncScope(ev.id)))
        warn(WarningKind::UnmatchedEnd, ev.at, TraceBuilder::kNoOpenAsyncBegin);
      return;
    }
    case 'n':
    case 'T': {
      Instant inst;
      inst.ts = ts;
      inst.name = in.name;
      inst.cat = in.cat;
      inst.process = process;
      inst.scope = InstantScope::Process;
      builder_.addInstant(inst);
      return;
    }
    default:
      warn(WarningKind::UnknownPhase, ev.at, "phase '" + std::string(ev.ph.substr(0, 8)) + "' skipped");
  }
}

}  // namespace opscope
