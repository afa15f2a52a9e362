#include "io/plaidml_activities.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <map>
#include <unordered_map>

#include "eventlog.pb.h"
#include "eventlog_2017.pb.h"
#include "io/input_limits.h"
#include "model/ids.h"

namespace opscope::plaidml {

namespace {

constexpr uint32_t kMagic = 0x4C747645;

// Varint-length-prefixed records from the stream, one at a time.
class RecordStream {
 public:
  explicit RecordStream(ByteSource& src)
      : src_(src), buf_(static_cast<size_t>(std::clamp<uint64_t>(src.totalSize(), 64, 64u << 10)), '\0') {}

  // The next record; false at the end of the input, or at a cut or an impossible length
  // (problem set, one line with the byte offset).
  bool next(std::string& record, uint64_t& at, std::string& problem) {
    at = offset();
    uint64_t length = 0;
    for (int i = 0;; ++i) {
      unsigned char c;
      if (!get(c)) {
        if (i > 0) problem = "the input ends inside the length of the record at byte " + std::to_string(at);
        return false;
      }
      if (i == 9 && c > 1) {
        problem = "the record at byte " + std::to_string(at) + " has a length beyond 64 bits";
        return false;
      }
      length |= static_cast<uint64_t>(c & 0x7F) << (7 * i);
      if (!(c & 0x80)) break;
    }
    if (length > kMaxJsonValueBytes) {
      problem = "the record at byte " + std::to_string(at) + " announces " + std::to_string(length) +
                " bytes, past the " + std::to_string(kMaxJsonValueBytes >> 20) + " MiB ceiling for one record";
      return false;
    }
    // Grown as bytes arrive: a cut or hostile length costs no zeroed megabytes.
    record.clear();
    size_t got = 0;
    while (got < length) {
      const size_t step = std::min<size_t>(static_cast<size_t>(length) - got, 64u << 10);
      record.resize(got + step);
      const size_t n = read(record.data() + got, step);
      got += n;
      if (n < step) break;
    }
    record.resize(got);
    if (got < length) {
      problem = "the record at byte " + std::to_string(at) + " announces " + std::to_string(length) +
                " bytes but the input ends after " + std::to_string(got) +
                (src_.truncated() ? " (gzip stream cut short)" : "");
      return false;
    }
    return true;
  }
  uint64_t offset() const { return base_ + pos_; }

 private:
  bool get(unsigned char& c) {
    if (pos_ == len_ && !refill()) return false;
    c = static_cast<unsigned char>(buf_[pos_++]);
    return true;
  }
  size_t read(char* dst, size_t n) {
    size_t done = 0;
    while (done < n) {
      if (pos_ == len_ && !refill()) break;
      const size_t k = std::min(n - done, len_ - pos_);
      std::memcpy(dst + done, buf_.data() + pos_, k);
      pos_ += k;
      done += k;
    }
    return done;
  }
  bool refill() {
    base_ += len_;
    pos_ = len_ = 0;
    len_ = src_.read(buf_.data(), buf_.size());
    return len_ > 0;
  }
  ByteSource& src_;
  std::string buf_;
  size_t pos_ = 0, len_ = 0;
  uint64_t base_ = 0;
};

std::optional<int64_t> durationNs(const Duration& d) {
  int64_t ns;
  if (__builtin_mul_overflow(d.seconds(), int64_t{1'000'000'000}, &ns) ||
      __builtin_add_overflow(ns, int64_t{d.nanos()}, &ns))
    return std::nullopt;
  return ns;
}

std::string hex(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

bool allZero(std::string_view bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](char c) { return c == 0; });
}

// What one event says about its activity, in generation-neutral keys (a key is the
// generation's identifier as bytes; empty: absent).
struct EventFacts {
  std::string key, id, parent, clock, clockId, domain, runKernel, buildDevice;
  std::string verb;
  std::optional<int64_t> start, end;
  bool badTime = false;
  std::vector<Metadata> metadata;
};

constexpr std::string_view kRunInfo = "vertexai.tile.hal.opencl.proto.RunInfo";
constexpr std::string_view kBuildInfo = "vertexai.tile.hal.opencl.proto.BuildInfo";

class Decoder {
 public:
  Decoder(ActivityLog& log, Diagnostics& diag) : log_(log), diag_(diag) {}

  void record(const std::string& bytes, uint64_t at) {
    if (!decided_) decide(bytes);
    if (log_.generation == Generation::Current) current(bytes, at);
    else v2017(bytes, at);
  }

  void finish() {
    // Identifiers to indices; unknown ones count once per kind.
    uint64_t missingParents = 0;
    for (size_t i = 0; i < pending_.size(); ++i) {
      Activity& a = log_.activities[i];
      const Pending& p = pending_[i];
      if (!p.parent.empty()) {
        const auto it = index_.find(p.parent);
        if (it == index_.end() || it->second == i) ++missingParents;
        else a.parent = static_cast<int32_t>(it->second);
      }
      auto resolve = [&](const std::string& key) {
        const auto it = index_.find(key);
        return key.empty() || it == index_.end() ? -1 : static_cast<int32_t>(it->second);
      };
      a.domain = resolve(p.domain);
      a.runKernel = resolve(p.runKernel);
      a.buildDevice = resolve(p.buildDevice);
    }
    if (missingParents)
      diag_.add(WarningKind::MissingField, missingParents,
                "activities whose parent is not in the log are shown as roots");
  }

 private:
  struct Pending {
    std::string parent, domain, runKernel, buildDevice;
  };

  // A 2017 log identifies activities by 16-byte UUIDs; an encoded ActivityID is never 16
  // bytes long (a tag and a varint index: 2 to 11 bytes; with a stream UUID: 18 or more).
  void decide(const std::string& bytes) {
    v2017::Record r;
    if (!r.ParseFromString(bytes) || r.event_size() == 0) return;  // decide on a later record
    for (const v2017::Event& e : r.event())
      if (!e.instance_uuid().empty()) {
        log_.generation = e.instance_uuid().size() == 16 ? Generation::V2017 : Generation::Current;
        decided_ = true;
        return;
      }
  }

  static std::string streamKey(uint32_t stream, uint64_t index, char kind) {
    std::string k(1, kind);
    k.append(reinterpret_cast<const char*>(&stream), sizeof stream);
    k.append(reinterpret_cast<const char*>(&index), sizeof index);
    return k;
  }
  uint32_t streamOf(const std::string& uuid) {
    const auto [it, fresh] = streams_.emplace(uuid, static_cast<uint32_t>(streams_.size()));
    return it->second;
  }
  // An ActivityID in the current generation: its stream is its own UUID when written,
  // else the stream of the event it appears in; index 0 is the stream's root (none).
  std::string activityKey(const ActivityID& id, uint32_t eventStream) {
    if (id.index() == 0) return {};
    return streamKey(id.stream_uuid().empty() ? eventStream : streamOf(id.stream_uuid()), id.index(), 'a');
  }

  void current(const std::string& bytes, uint64_t at) {
    Record r;
    if (!r.ParseFromString(bytes)) {
      diag_.warn(WarningKind::NotAnEvent, at, 0, "the record at byte " + std::to_string(at) + " does not decode");
      return;
    }
    if (r.has_magic() && r.magic().value() != kMagic)
      diag_.warn(WarningKind::BadMetadata, at, 0,
                 "the record at byte " + std::to_string(at) + " has a magic other than 'EvtL'");
    for (const Event& e : r.event()) {
      ++log_.events;
      if (!e.has_activity_id() || e.activity_id().index() == 0) {
        diag_.warn(WarningKind::MissingField, at, 0,
                   "an event without an activity id (record at byte " + std::to_string(at) + ")");
        continue;
      }
      // The stream UUID is written on a stream's first event; later events without one
      // belong to the stream last named (PlaidML's own reader does the same).
      if (!e.activity_id().stream_uuid().empty() || !haveStream_) {
        stream_ = streamOf(e.activity_id().stream_uuid());
        haveStream_ = true;
      }
      EventFacts f;
      f.key = streamKey(stream_, e.activity_id().index(), 'a');
      f.id = std::to_string(stream_) + ":" + std::to_string(e.activity_id().index());
      if (e.has_parent_id()) f.parent = activityKey(e.parent_id(), stream_);
      if (e.has_clock_id()) {
        f.clock = streamKey(stream_, e.clock_id().index(), 'c');
        f.clockId = std::to_string(stream_) + ":" + std::to_string(e.clock_id().index());
      }
      defaultClock_ = streamKey(stream_, 0, 'c');
      defaultClockId_ = std::to_string(stream_) + ":0";
      if (e.has_domain_id()) f.domain = activityKey(e.domain_id(), stream_);
      f.verb = e.verb();
      times(e.has_start_time() ? &e.start_time() : nullptr, e.has_end_time() ? &e.end_time() : nullptr, f);
      for (const Any& m : e.metadata()) {
        Metadata md{typeName(m.type_url()), m.value()};
        if (md.type == kRunInfo) {
          RunInfo ri;
          if (ri.ParseFromString(md.value) && ri.has_kernel_id()) f.runKernel = activityKey(ri.kernel_id(), stream_);
        } else if (md.type == kBuildInfo) {
          BuildInfo bi;
          if (bi.ParseFromString(md.value) && bi.has_device_id()) f.buildDevice = activityKey(bi.device_id(), stream_);
        }
        f.metadata.push_back(std::move(md));
      }
      merge(std::move(f), at);
    }
  }

  void v2017(const std::string& bytes, uint64_t at) {
    v2017::Record r;
    if (!r.ParseFromString(bytes)) {
      diag_.warn(WarningKind::NotAnEvent, at, 0, "the record at byte " + std::to_string(at) + " does not decode");
      return;
    }
    auto uuidKey = [](const std::string& uuid) { return uuid.empty() || allZero(uuid) ? std::string() : "u" + uuid; };
    for (const v2017::Event& e : r.event()) {
      ++log_.events;
      if (e.instance_uuid().empty()) {
        diag_.warn(WarningKind::MissingField, at, 0,
                   "an event without an instance_uuid (record at byte " + std::to_string(at) + ")");
        continue;
      }
      EventFacts f;
      f.key = "u" + e.instance_uuid();
      f.id = hex(e.instance_uuid());
      f.parent = uuidKey(e.parent_instance_uuid());
      if (!e.clock_uuid().empty()) {
        f.clock = "c" + e.clock_uuid();
        f.clockId = hex(e.clock_uuid());
      }
      f.domain = uuidKey(e.domain_uuid());
      f.verb = e.verb();
      times(e.has_start_time() ? &e.start_time() : nullptr, e.has_end_time() ? &e.end_time() : nullptr, f);
      for (const Any& m : e.metadata()) {
        Metadata md{typeName(m.type_url()), m.value()};
        if (md.type == kRunInfo) {
          v2017::RunInfo ri;
          if (ri.ParseFromString(md.value)) f.runKernel = uuidKey(ri.kernel_uuid());
        } else if (md.type == kBuildInfo) {
          v2017::BuildInfo bi;
          if (bi.ParseFromString(md.value)) f.buildDevice = uuidKey(bi.device_uuid());
        }
        f.metadata.push_back(std::move(md));
      }
      merge(std::move(f), at);
    }
  }

  void times(const Duration* start, const Duration* end, EventFacts& f) {
    if (start) {
      f.start = durationNs(*start);
      f.badTime |= !f.start;
    }
    if (end) {
      f.end = durationNs(*end);
      f.badTime |= !f.end;
    }
  }

  uint32_t clockIndex(const std::string& key, const std::string& id) {
    const auto [it, fresh] = clocks_.emplace(key, static_cast<uint32_t>(log_.clocks.size()));
    if (fresh) {
      log_.clocks.emplace_back();
      log_.clocks.back().id = id;
    }
    return it->second;
  }

  // Events of one activity merge: a later verb, parent, clock or time replaces an
  // earlier one (a split activity's completion carries only its end time).
  void merge(EventFacts f, uint64_t at) {
    if (f.badTime)
      diag_.warn(WarningKind::WrongType, at, 0,
                 "a time beyond int64 nanoseconds (record at byte " + std::to_string(at) + ")");
    const auto [it, fresh] = index_.emplace(f.key, static_cast<uint32_t>(log_.activities.size()));
    if (fresh) {
      log_.activities.emplace_back();
      pending_.emplace_back();
      log_.activities.back().id = f.id;
      log_.activities.back().clock =
          f.clock.empty() ? clockIndex(defaultClock_, defaultClockId_) : clockIndex(f.clock, f.clockId);
    }
    Activity& a = log_.activities[it->second];
    Pending& p = pending_[it->second];
    if (!f.verb.empty()) a.verb = std::move(f.verb);
    if (!f.parent.empty()) p.parent = std::move(f.parent);
    if (!f.domain.empty()) p.domain = std::move(f.domain);
    if (!f.runKernel.empty()) p.runKernel = std::move(f.runKernel);
    if (!f.buildDevice.empty()) p.buildDevice = std::move(f.buildDevice);
    if (!f.clock.empty() && !fresh) a.clock = clockIndex(f.clock, f.clockId);
    if (f.start) a.start = f.start;
    if (f.end) a.end = f.end;
    for (Metadata& m : f.metadata) a.metadata.push_back(std::move(m));
  }

  ActivityLog& log_;
  Diagnostics& diag_;
  bool decided_ = false;
  bool haveStream_ = false;
  uint32_t stream_ = 0;
  std::string defaultClock_ = "c", defaultClockId_ = "default";
  std::unordered_map<std::string, uint32_t> streams_, index_, clocks_;
  std::vector<Pending> pending_;
};

// Shifts clocks so that every child activity on another clock than its parent starts
// no earlier than the parent, by the least amount: PlaidML's own alignment. Edges go
// from a parent's clock to a child's, weighted by the largest (parent start - child
// start) over such pairs; each connected group is walked from its first clock, and
// shifted so that no epoch is negative. Clocks assumed to run at the same speed.
void align(ActivityLog& log) {
  std::map<std::pair<uint32_t, uint32_t>, int64_t> delta;
  for (const Activity& a : log.activities) {
    if (a.parent < 0 || !a.start) continue;
    const Activity& p = log.activities[static_cast<size_t>(a.parent)];
    if (p.clock == a.clock || !p.start) continue;
    const int64_t d = satSub(*p.start, *a.start);
    if (d < 0) continue;
    auto [it, fresh] = delta.emplace(std::make_pair(p.clock, a.clock), d);
    if (!fresh) it->second = std::max(it->second, d);
  }
  const size_t n = log.clocks.size();
  std::vector<std::vector<std::pair<uint32_t, int64_t>>> next(n);  // signed: successors +, predecessors -
  for (const auto& [edge, d] : delta) {
    next[edge.first].push_back({edge.second, d});
    next[edge.second].push_back({edge.first, -d});  // d >= 0: no overflow
  }
  std::vector<bool> seen(n, false);
  for (uint32_t root = 0; root < n; ++root) {
    if (seen[root]) continue;
    std::vector<uint32_t> group{root};
    seen[root] = true;
    log.clocks[root].epoch = 0;
    int64_t lowest = 0;
    for (size_t k = 0; k < group.size(); ++k) {
      const uint32_t c = group[k];
      for (const auto& [other, d] : next[c]) {
        if (seen[other]) continue;
        seen[other] = true;
        log.clocks[other].epoch = satAdd(log.clocks[c].epoch, d);
        lowest = std::min(lowest, log.clocks[other].epoch);
        group.push_back(other);
      }
    }
    if (lowest < 0)
      for (uint32_t c : group) log.clocks[c].epoch = satSub(log.clocks[c].epoch, lowest);
  }
  for (Activity& a : log.activities) {
    const int64_t epoch = log.clocks[a.clock].epoch;
    a.alignedStart = satAdd(epoch, a.start.value_or(0));
    a.alignedEnd = satAdd(epoch, a.end.value_or(0));
  }
}

}  // namespace

std::string typeName(std::string_view url) {
  const size_t slash = url.rfind('/');
  return std::string(slash == std::string_view::npos ? url : url.substr(slash + 1));
}

bool readActivityLog(ByteSource& src, ActivityLog& log, Diagnostics& diag, std::string& error) {
  RecordStream records(src);
  Decoder decoder(log, diag);
  std::string record, problem;
  uint64_t at = 0;
  while (records.next(record, at, problem)) {
    ++log.records;
    decoder.record(record, at);
  }
  log.bytes = records.offset();
  if (!src.error().empty()) {
    error = src.error();
    return false;
  }
  if (!problem.empty()) diag.warn(WarningKind::Truncated, at, 0, problem);
  if (log.activities.empty()) {
    error = "no readable activity in " + std::to_string(log.records) + " record" + (log.records == 1 ? "" : "s") +
            (problem.empty() ? std::string() : " (" + problem + ")");
    return false;
  }
  decoder.finish();
  // An activity that never ended lasts to the end of its clock's last event.
  for (const Activity& a : log.activities) {
    Clock& c = log.clocks[a.clock];
    ++c.activities;
    if (a.end) c.lastEnd = std::max(c.lastEnd, *a.end);
  }
  uint64_t unfinished = 0;
  for (Activity& a : log.activities)
    if (a.start && !a.end) {
      const int64_t last = log.clocks[a.clock].lastEnd;
      a.end = last >= *a.start ? last : *a.start;
      a.endInferred = true;
      ++unfinished;
    }
  if (unfinished)
    diag.add(WarningKind::Unfinished, unfinished, "activities that never ended last to their clock's last event");
  align(log);
  return true;
}

}  // namespace opscope::plaidml
