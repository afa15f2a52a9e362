#include "io/chrome_json_loader.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "io/args_text.h"
#include "io/file_args.h"
#include "io/input_limits.h"
#include "io/json_scanner.h"
#include "io/number_text.h"
#include "model/trace_builder.h"

namespace opscope {

namespace {

constexpr size_t kWindowBytes = 4u << 20;
// Headroom in front of a prefetched window for the unfinished event carried over from
// the previous one (events are a few hundred bytes; larger units fall back to one
// growing window).
constexpr size_t kCarryBytes = 1u << 20;

// '\n' bytes in [b, e): 16 bytes a step (pretty-printed traces have a newline every
// few dozen bytes, where a memchr loop spends its time in calls).
uint64_t countNewlines(const char* b, const char* e) {
  uint64_t n = 0;
#ifdef __SSE2__
  const __m128i nl = _mm_set1_epi8('\n');
  for (; e - b >= 16; b += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b));
    // No popcnt in the x86-64 baseline (it would be a libgcc call); one or two
    // newlines per 16 bytes at most, so clearing bits is cheaper.
    for (unsigned m = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl))); m; m &= m - 1) ++n;
  }
#endif
  for (; b < e; ++b) n += *b == '\n';
  return n;
}

// "-123" style integers of at most 18 digits (the common case), parsed inline;
// anything else goes through the general converters.
// Window storage: not zeroed when allocated (every byte is written by a read before it
// is parsed; zeroing the windows cost 9 % of loading a 100 MB file), and on huge pages
// (PodColumn maps large sizes with MADV_HUGEPAGE): first touches of 4 KiB pages are
// slow on these VMs.
class RawBuffer {
 public:
  explicit RawBuffer(size_t n = 0) { resize(n); }
  char* data() { return bytes_.data(); }
  size_t size() const { return bytes_.size(); }
  // Keeps the first min(n, size()) bytes.
  void resize(size_t n) { bytes_.resizeForOverwrite(n); }
  void swap(RawBuffer& other) noexcept { bytes_.swap(other.bytes_); }

 private:
  PodColumn<char> bytes_;
};

// One helper thread that fills a buffer from the source on request, reused for every
// window (a thread per window cost a spawn each, 250 of them per GB).
class ReadAhead {
 public:
  explicit ReadAhead(ByteSource& src) : src_(src), thread_([this] { loop(); }) {}
  ~ReadAhead() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  // Reads up to cap bytes into dst (until the source ends) in the background.
  void start(char* dst, size_t cap) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      dst_ = dst;
      cap_ = cap;
      busy_ = true;
    }
    cv_.notify_all();
  }
  // Waits for the read started last; returns its byte count (0 at the end).
  size_t wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [this] { return !busy_; });
    return got_;
  }
  bool busy() {
    std::lock_guard<std::mutex> lock(mutex_);
    return busy_;
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      cv_.wait(lock, [this] { return busy_ || stop_; });
      if (stop_) return;
      char* dst = dst_;
      const size_t cap = cap_;
      lock.unlock();
      size_t got = 0;
      while (got < cap) {
        const size_t n = src_.read(dst + got, cap - got);
        if (n == 0) break;
        got += n;
      }
      lock.lock();
      got_ = got;
      busy_ = false;
      cv_.notify_all();
    }
  }
  ByteSource& src_;
  std::mutex mutex_;
  std::condition_variable cv_;
  char* dst_ = nullptr;
  size_t cap_ = 0, got_ = 0;
  bool busy_ = false, stop_ = false;
  std::thread thread_;  // last: starts once the state above exists
};

struct RawIdText {
  bool present = false;
  bool isString = false;
  std::string_view text;
};

// One event's fields as text views into the window (or scratch).
struct RawEvent {
  const char* at = nullptr;
  std::string_view ph, name, cat, ts, dur, bp, scope;
  bool hasPh = false, hasName = false, hasTs = false, hasDur = false;
  bool tsIsString = false, durIsString = false, nameNotString = false;
  RawIdText pid, tid, id;
  std::vector<RawArg> args;
  const char* argsAt = nullptr;  // the args object's '{', when there is one
  uint64_t controlCharsBefore = 0;

  void reset(const char* start, uint64_t controlChars) {
    at = start;
    controlCharsBefore = controlChars;
    ph = name = cat = ts = dur = bp = scope = {};
    hasPh = hasName = hasTs = hasDur = false;
    tsIsString = durIsString = nameNotString = false;
    pid = tid = id = {};
    args.clear();
    argsAt = nullptr;
  }
};

class Loader {
 public:
  Loader(ByteSource& src, const LoadOptions& opts) : src_(src), opts_(opts) {
    trace_ = std::make_unique<Trace>();
    builder_ = std::make_unique<TraceBuilder>(*trace_);
    buf_.resize(kCarryBytes + kWindowBytes + kPadding);
    data_ = buf_.data();
    keyCorrelation_ = trace_->strings.intern("correlation");
    keyExternalId_ = trace_->strings.intern("External id");
    keyExternalIdLegacy_ = trace_->strings.intern("external id");
    keyStream_ = trace_->strings.intern("stream");
    keyDevice_ = trace_->strings.intern("device");
    keyDeviceLegacy_ = trace_->strings.intern("Device");
    // Plain regular files keep args in the file: read back by offset when asked.
    lazyArgs_ = !opts.eagerArgs && !src.randomAccessPath().empty();
    builder_->setLazyArgs(lazyArgs_);
    if (lazyArgs_)
      trace_->lazyArgs = std::make_shared<FileArgs>(src.randomAccessPath(), src.totalSize(), src.fileMtimeNs());
  }

  LoadResult run();
  uint64_t peakWindow() const { return peakWindow_; }

 private:
  enum class State { Start, ObjectFirstKey, ObjectNextKey, TopValue, EventsFirst, EventsNext, SkipTopValue, Done };

  // A top-level value the model does not use, skipped as it streams by (Perfetto's
  // "systemTraceEvents" can be hundreds of MB of text); the first bytes are kept for
  // TraceMetadata::other.
  struct TopValueSkip {
    std::string key;
    std::vector<char> closers;
    bool started = false, inString = false, escaped = false, scalar = false;
    std::string head;  // up to kKeptTopValueBytes + 1 bytes
    uint64_t bytes = 0;
  };
  static constexpr size_t kKeptTopValueBytes = 4096;
  // Consumes from sc_.p; true once the value ended (sc_.p just past it).
  bool skipTopValue(TopValueSkip& k);

  // ---- window management
  bool refill(const char* keepFrom);
  // Uncompressed input is double-buffered: while one window is parsed, a helper thread
  // reads the next bytes into the other (the kernel's copy runs on the second core;
  // gzip input has its own inflating thread instead).
  void startPrefetch();
  uint64_t offsetOf(const char* at) const { return base_ + static_cast<uint64_t>(at - data_); }
  uint64_t lineOf(const char* at) const {
    const char* b = data_;
    return linesBefore_ + 1 + countNewlines(b, at);
  }
  uint64_t columnOf(const char* at) const {
    const char* b = data_;
    const char* q = at;
    while (q > b && q[-1] != '\n') --q;
    return static_cast<uint64_t>(at - q) + 1;
  }
  std::string where(const char* at) const {
    std::string s = "byte " + std::to_string(offsetOf(at));
    if (src_.isGzip()) s += " of the decompressed stream";
    s += " (line " + std::to_string(lineOf(at)) + ", column " + std::to_string(columnOf(at)) + ")";
    return s;
  }
  void warn(WarningKind kind, const char* at, std::string_view example) {
    auto& d = trace_->diagnostics;
    if (d.count(kind) == 0) d.warn(kind, offsetOf(at), lineOf(at), example);
    else d.warn(kind, 0, 0, example);
  }

  // ---- parsing
  void parseEvent(RawEvent& ev);
  void parseArgs(RawEvent& ev);
  RawIdText parseIdValue();
  // The text of a number (the usual case for ts/dur) or of any other value.
  std::string_view numberOrValue(char first) {
    return first == '-' || (first >= '0' && first <= '9') ? sc_.number() : sc_.skipValue();
  }
  void topLevelValue(std::string_view key);

  // ---- interpretation
  void commit(RawEvent& ev);
  bool timeField(const RawEvent& ev, std::string_view text, bool wasString, const char* field, TimeNs& out);
  RawId rawId(const RawIdText& t, const RawEvent& ev, const char* field);
  bool argId(const RawArg& a, const RawEvent& ev, int64_t& out);
  void encodeArgs(RawEvent& ev, SliceInput& in);
  void addMemoryEvent(const RawEvent& ev, TimeNs ts, const RawId& pid);
  void liftId(const RawArg& a, const RawEvent& ev, int64_t& out);
  void metadataEvent(const RawEvent& ev, uint32_t process, const RawId& pid, const RawId& tid);
  StringId internId(const RawIdText& t);

  ByteSource& src_;
  const LoadOptions& opts_;
  bool lazyArgs_ = false;
  std::unique_ptr<Trace> trace_;
  std::unique_ptr<TraceBuilder> builder_;
  RawBuffer buf_;                         // the window's storage
  char* data_ = nullptr;                  // the window: in buf_, after up to kCarryBytes of headroom
  size_t len_ = 0;                        // valid bytes at data_
  uint64_t base_ = 0;                     // stream offset of data_[0]
  RawBuffer spare_;                       // the other window, being filled by the prefetch
  std::unique_ptr<ReadAhead> readAhead_;  // declared after spare_: joined before it is freed
  bool prefetch_ = false;
  uint64_t linesBefore_ = 0;
  bool eof_ = false;
  bool cancelled_ = false;
  JsonScanner sc_;
  ArgsWriter argsWriter_;
  std::string jsonScratch_;  // compactJson's copy of an indented array or object
  StringId keyCorrelation_, keyExternalId_, keyExternalIdLegacy_, keyStream_, keyDevice_, keyDeviceLegacy_;
  bool sawTraceEvents_ = false;
  bool arrayForm_ = false;
  bool unitTooLarge_ = false;  // one unit passed kMaxJsonValueBytes
  uint64_t peakWindow_ = 0;
  TopValueSkip topSkip_;
  std::string pendingKey_;  // the top-level key whose value comes next
  bool sawKineto_ = false, sawLegacy_ = false;
  std::vector<std::string> topKeys_;
};

void Loader::startPrefetch() {
  if (eof_ || cancelled_ || src_.isGzip()) return;
  if (!prefetch_) {
    spare_.resize(buf_.size());
    readAhead_ = std::make_unique<ReadAhead>(src_);
    prefetch_ = true;
  }
  readAhead_->start(spare_.data() + kCarryBytes, spare_.size() - kCarryBytes - kPadding);
}

bool Loader::refill(const char* keepFrom) {
  if (eof_) return false;
  const size_t keep = static_cast<size_t>(data_ + len_ - keepFrom);
  if (keep >= kMaxJsonValueBytes) {
    unitTooLarge_ = true;
    return false;
  }
  const size_t drop = len_ - keep;
  // Count lines in what leaves the window so error lines stay right.
  linesBefore_ += countNewlines(data_, keepFrom);
  base_ += drop;
  if (prefetch_) {
    const size_t n = readAhead_->wait();
    if (keep <= kCarryBytes) {
      // The unfinished unit goes into the headroom just before the prefetched bytes.
      char* next = spare_.data() + kCarryBytes;
      std::memcpy(next - keep, keepFrom, keep);
      buf_.swap(spare_);  // storage changes owner, not place: next stays valid
      data_ = next - keep;
      len_ = keep + n;
      if (n == 0) eof_ = true;
      else startPrefetch();
    } else {
      // A unit larger than the headroom (rare): carry on in one growing window, unbuffered.
      RawBuffer big(keep + n + kWindowBytes + kPadding);
      std::memcpy(big.data(), keepFrom, keep);
      std::memcpy(big.data() + keep, spare_.data() + kCarryBytes, n);
      buf_.swap(big);
      data_ = buf_.data();
      len_ = keep + n;
      prefetch_ = false;
      if (n == 0) eof_ = true;
    }
  } else {
    std::memmove(buf_.data(), keepFrom, keep);
    data_ = buf_.data();
    len_ = keep;
  }
  if (!prefetch_ && !eof_) {
    constexpr size_t kLargest = kMaxJsonValueBytes + kPadding;
    if (len_ + kPadding + (1u << 16) > buf_.size() && buf_.size() < kLargest) {
      // One unit (an event or a top-level value) is larger than the window: grow it,
      // up to exactly the ceiling (a unit that fills that is refused at the next refill).
      buf_.resize(std::min(buf_.size() * 2, kLargest));
      data_ = buf_.data();
    }
    while (len_ < buf_.size() - kPadding) {
      const size_t n = src_.read(data_ + len_, buf_.size() - kPadding - len_);
      if (n == 0) {
        eof_ = true;
        break;
      }
      len_ += n;
    }
  }
  std::memset(data_ + len_, 0, kPadding);
  peakWindow_ = std::max<uint64_t>(peakWindow_, buf_.size() + spare_.size());
  if (opts_.progress) {
    // While a prefetch runs the source belongs to its thread: uncompressed input's
    // offset is the window's end.
    const uint64_t done = prefetch_ ? base_ + len_ : src_.consumed();
    LoadProgress pr{done, src_.totalSize(), trace_->eventsRead};
    if (!opts_.progress(pr)) cancelled_ = true;
  }
  return !cancelled_ && (len_ > keep);
}

RawIdText Loader::parseIdValue() {
  RawIdText out;
  out.present = true;
  const char c = sc_.peek();
  if (c == '"') {
    out.isString = true;
    out.text = sc_.string();
  } else if (c == '{' || c == '[') {
    out.isString = true;
    out.text = sc_.skipValue();  // id2 {"local": ...} and similar: the raw text is the id
  } else if (c == 't' || c == 'f' || c == 'n') {
    sc_.literal();
    out.present = false;
  } else {
    out.text = sc_.number();
  }
  return out;
}

void Loader::parseArgs(RawEvent& ev) {
  if (sc_.peek() == '{') ev.argsAt = sc_.p;
  scanArgsObject(sc_, ev.args);
}

void Loader::parseEvent(RawEvent& ev) {
  ev.reset(sc_.p, sc_.controlChars);
  sc_.resetScratch();
  ++sc_.p;  // '{'
  if (sc_.peek() == '}') {
    ++sc_.p;
    return;
  }
  for (;;) {
    if (sc_.peek() != '"') sc_.fail(sc_.p, "expected '\"' to start a key in an event");
    const std::string_view k = sc_.string();
    sc_.expect(':', "expected ':' after a key in an event");
    const char c = sc_.peek();
    bool handled = true;
    switch (k.size()) {
      case 1:
        if (k[0] == 's' && c == '"') ev.scope = sc_.string();
        else handled = false;
        break;
      case 2:
        if (k == "ph" && c == '"') {
          ev.ph = sc_.string();
          ev.hasPh = true;
        } else if (k == "ts") {
          ev.hasTs = true;
          if (c == '"') {
            ev.ts = sc_.string();
            ev.tsIsString = true;
          } else {
            ev.ts = numberOrValue(c);
          }
        } else if (k == "id") {
          ev.id = parseIdValue();
        } else if (k == "bp" && c == '"') {
          ev.bp = sc_.string();
        } else {
          handled = false;
        }
        break;
      case 3:
        if (k == "cat" && c == '"') {
          ev.cat = sc_.string();
        } else if (k == "dur") {
          ev.hasDur = true;
          if (c == '"') {
            ev.dur = sc_.string();
            ev.durIsString = true;
          } else {
            ev.dur = numberOrValue(c);
          }
        } else if (k == "pid") {
          ev.pid = parseIdValue();
        } else if (k == "tid") {
          ev.tid = parseIdValue();
        } else if (k == "id2") {
          ev.id = parseIdValue();
        } else {
          handled = false;
        }
        break;
      case 4:
        if (k == "name") {
          ev.hasName = true;
          if (c == '"') {
            ev.name = sc_.string();
          } else {
            ev.name = sc_.skipValue();
            ev.nameNotString = true;
          }
        } else if (k == "args") {
          parseArgs(ev);
        } else {
          handled = false;
        }
        break;
      default:
        handled = false;
    }
    if (!handled) sc_.skipValue();
    const char d = sc_.peek();
    ++sc_.p;
    if (d == '}') return;
    if (d != ',') sc_.fail(sc_.p - 1, "expected ',' or '}' after an event field");
  }
}

void Loader::topLevelValue(std::string_view key) {
  const std::string_view raw = sc_.skipValue();
  TraceMetadata& m = trace_->meta;
  topKeys_.emplace_back(key);
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
    m.deviceProperties = std::string(raw);
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
  } else if (key == "record_shapes") {
    m.recordShapes = std::string(raw);
  } else if (raw.size() <= 4096) {
    m.other.emplace_back(std::string(key), std::string(raw));
  }
}

LoadResult Loader::run() {
  LoadResult result;
  State state = State::Start;
  RawEvent ev;
  refill(data_);
  startPrefetch();
  if (cancelled_) {
    result.status = LoadStatus::Cancelled;
    result.error = "loading cancelled";
    return result;
  }
  if (len_ == 0) {
    result.status = src_.error().empty() ? LoadStatus::InvalidInput : LoadStatus::IoError;
    result.error = src_.error().empty() ? "empty file: no JSON in it" : src_.error();
    return result;
  }
  const char* committed = data_;
  sc_.reset(committed, data_ + len_);
  bool truncated = false;
  for (;;) {
    try {
      switch (state) {
        case State::Start: {
          // UTF-8 byte order mark.
          if (len_ >= 3 && std::memcmp(sc_.p, "\xEF\xBB\xBF", 3) == 0) sc_.p += 3;
          const char c = sc_.peek();
          if (c == '[') {
            ++sc_.p;
            state = State::EventsFirst;
            sawTraceEvents_ = true;
            arrayForm_ = true;
          } else if (c == '{') {
            ++sc_.p;
            state = State::ObjectFirstKey;
          } else {
            const std::string what =
                describeMagic(reinterpret_cast<const unsigned char*>(sc_.p), static_cast<size_t>(sc_.end - sc_.p));
            char hex[64];
            const auto* u = reinterpret_cast<const unsigned char*>(sc_.p);
            std::snprintf(hex, sizeof hex, "%02X %02X %02X %02X", u[0], u[1], u[2], u[3]);
            result.status = LoadStatus::InvalidInput;
            result.error = "not a JSON trace: " + (what.empty() ? std::string("expected '{' or '[' at ") +
                                                                      where(sc_.p) + ", found bytes " + hex
                                                                : "the file is " + what);
            return result;
          }
          break;
        }
        case State::ObjectFirstKey:
        case State::ObjectNextKey: {
          // Progress is committed after every ',' and ':' so whitespace around them is
          // dropped as it is read (see the NeedMore handler).
          const char c = sc_.peek();
          if (c == '}') {
            ++sc_.p;
            state = State::Done;
            break;
          }
          if (state == State::ObjectNextKey) {
            if (c != ',') sc_.fail(sc_.p, "expected ',' or '}' after a top-level value");
            ++sc_.p;
            state = State::ObjectFirstKey;
            break;
          }
          if (c != '"') sc_.fail(sc_.p, "expected '\"' to start a top-level key");
          pendingKey_.assign(sc_.string());
          sc_.expect(':', "expected ':' after a top-level key");
          state = State::TopValue;
          break;
        }
        case State::TopValue: {
          const std::string& key = pendingKey_;
          if (key == "traceEvents") {
            if (sc_.peek() != '[') sc_.fail(sc_.p, "expected '[' to start traceEvents");
            ++sc_.p;
            sawTraceEvents_ = true;
            state = State::EventsFirst;
          } else if (key == "schemaVersion" || key == "deviceProperties" || key == "distributedInfo" ||
                     key == "traceName" || key == "baseTimeNanoseconds" || key == "displayTimeUnit" ||
                     key == "record_shapes") {
            topLevelValue(key);
            state = State::ObjectNextKey;
          } else {
            sc_.skipWs();
            topSkip_ = TopValueSkip{};
            topSkip_.key = key;
            state = State::SkipTopValue;
          }
          break;
        }
        case State::SkipTopValue: {
          if (!skipTopValue(topSkip_)) {
            // Everything up to the window's end is consumed: nothing is carried over.
            committed = sc_.p;
            throw NeedMore{};
          }
          topKeys_.push_back(topSkip_.key);
          if (topSkip_.bytes <= kKeptTopValueBytes) trace_->meta.other.emplace_back(topSkip_.key, topSkip_.head);
          state = State::ObjectNextKey;
          break;
        }
        case State::EventsFirst:
        case State::EventsNext: {
          char c = sc_.peek();
          if (c == ']') {
            ++sc_.p;
            // Object form continues with more keys; array form is complete.
            state = arrayForm_ ? State::Done : State::ObjectNextKey;
            break;
          }
          if (state == State::EventsNext) {
            // After the comma, as at the start: ']' there is a trailing comma, as
            // hand-written traces often have. Committing here drops the whitespace
            // that follows instead of carrying it with the next event.
            if (c != ',') sc_.fail(sc_.p, "expected ',' or ']' after an event");
            ++sc_.p;
            state = State::EventsFirst;
            break;
          }
          if (c == '{') {
            parseEvent(ev);
            commit(ev);
          } else {
            const char* at = sc_.p;
            sc_.skipValue();
            warn(WarningKind::NotAnEvent, at, "an element of traceEvents is not an object");
          }
          ++trace_->eventsRead;
          state = State::EventsNext;
          break;
        }
        case State::Done: {
          // Anything after the top-level value is ignored (Chrome does the same).
          sc_.skipWs();
          goto finished;
        }
      }
      committed = sc_.p;
    } catch (const NeedMore&) {
      // Whitespace after the last complete unit is never carried into the next window:
      // a file of spaces between events takes no memory.
      while (committed < data_ + len_ &&
             (*committed == ' ' || *committed == '\n' || *committed == '\r' || *committed == '\t'))
        ++committed;
      const uint64_t unitAt = offsetOf(committed);
      const bool more = refill(committed);
      committed = data_;
      sc_.reset(committed, data_ + len_);
      if (unitTooLarge_) {
        if (readAhead_) readAhead_->wait();
        result.status = LoadStatus::InvalidInput;
        result.error =
            std::string(state == State::EventsFirst || state == State::EventsNext ? "the event" : "the value") +
            " at byte " + std::to_string(unitAt) + (src_.isGzip() ? " of the decompressed stream" : "") +
            " is larger than " + std::to_string(kMaxJsonValueBytes >> 20) + " MiB, the ceiling for one JSON value";
        return result;
      }
      if (cancelled_) {
        result.status = LoadStatus::Cancelled;
        result.error = "loading cancelled";
        return result;
      }
      if (!more) {
        if (state != State::Done) truncated = true;
        goto finished;
      }
    } catch (const SyntaxError& e) {
      result.status = LoadStatus::InvalidInput;
      std::string found;
      const auto ch = static_cast<unsigned char>(*e.at);
      if (ch >= 0x20 && ch < 0x7F) found = std::string(", found '") + static_cast<char>(ch) + "'";
      else {
        char hex[32];
        std::snprintf(hex, sizeof hex, ", found byte 0x%02X", ch);
        found = hex;
      }
      result.error = "malformed JSON at " + where(e.at) + ": " + e.expected + found;
      return result;
    }
  }
finished:
  if (readAhead_) readAhead_->wait();  // the source is ours again
  if (!src_.error().empty()) {
    result.status = LoadStatus::IoError;
    result.error = src_.error();
    return result;
  }
  if (truncated || src_.truncated()) {
    if (!sawTraceEvents_ && trace_->eventsRead == 0) {
      result.status = LoadStatus::InvalidInput;
      result.error = "input ends at byte " + std::to_string(base_ + len_) + " before any trace event";
      return result;
    }
    if (trace_->eventsRead == 0) {
      // Nothing to show: an empty trace would look like a successful load.
      result.status = LoadStatus::InvalidInput;
      result.error = "no complete event before the cut at byte " + std::to_string(base_ + len_) +
                     (src_.isGzip() ? " of the decompressed stream" : "") +
                     (src_.truncated() ? " (gzip stream cut short)" : "");
      return result;
    }
    trace_->diagnostics.warn(WarningKind::Truncated, base_ + len_, 0,
                             "input ends at byte " + std::to_string(base_ + len_) +
                                 (src_.truncated() ? " (gzip stream cut short)" : "") + " after " +
                                 std::to_string(trace_->eventsRead) + " events");
  }
  if (!sawTraceEvents_) {
    result.status = LoadStatus::InvalidInput;
    std::string keys;
    for (size_t i = 0; i < topKeys_.size() && i < 8; ++i) keys += (i ? ", " : "") + topKeys_[i];
    result.error = "not a Chrome/Kineto trace: the top-level object has no traceEvents array" +
                   (keys.empty() ? std::string() : " (keys: " + keys + ")");
    return result;
  }
  builder_->finish();
  TraceMetadata& m = trace_->meta;
  m.format = sawKineto_ || m.schemaVersion ? "kineto-json" : sawLegacy_ ? "legacy-pytorch-json" : "chrome-json";
  trace_->inputBytes = src_.totalSize();
  trace_->jsonBytes = base_ + len_;
  result.trace = std::move(trace_);
  return result;
}

bool Loader::skipTopValue(TopValueSkip& k) {
  const char* p = sc_.p;
  const char* const end = sc_.end;
  const char* const from = p;
  bool done = false;
  if (!k.started && p < end) {
    k.started = true;
    k.scalar = *p != '{' && *p != '[' && *p != '"';
  }
  for (; p < end && !done; ++p) {
    const char b = *p;
    if (k.scalar) {
      // A number or a literal ends at the first byte that cannot continue it.
      const bool part = (b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b == '-' ||
                        b == '+' || b == '.';
      if (!part) {
        if (p == from && k.bytes == 0) sc_.fail(p, "expected a value");
        done = true;
        break;
      }
      continue;
    }
    if (k.inString) {
      if (k.escaped) k.escaped = false;
      else if (b == '\\') k.escaped = true;
      else if (b == '"') {
        k.inString = false;
        done = k.closers.empty();
      }
      continue;
    }
    if (b == '"') {
      k.inString = true;
    } else if (b == '{' || b == '[') {
      if (k.closers.size() == static_cast<size_t>(kMaxJsonDepth))
        sc_.fail(p, "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
      k.closers.push_back(b == '{' ? '}' : ']');
    } else if (b == '}' || b == ']') {
      if (k.closers.empty() || k.closers.back() != b) sc_.fail(p, std::string("unexpected '") + b + "'");
      k.closers.pop_back();
      done = k.closers.empty();
    }
  }
  const size_t n = static_cast<size_t>(p - from);
  if (k.head.size() <= kKeptTopValueBytes) k.head.append(from, std::min(n, kKeptTopValueBytes + 1 - k.head.size()));
  k.bytes += n;
  sc_.p = p;
  return done;
}

bool Loader::timeField(const RawEvent& ev, std::string_view text, bool wasString, const char* field, TimeNs& out) {
  if (wasString)
    warn(WarningKind::WrongType, ev.at,
         std::string(field) + " is a string: \"" + std::string(text.substr(0, 40)) + "\"");
  switch (microsTextToNs(text, out)) {
    case NumberStatus::Ok:
      return true;
    case NumberStatus::OutOfRange:
      warn(WarningKind::IdOutOfRange, ev.at, std::string(field) + " out of range: " + std::string(text.substr(0, 40)));
      return false;
    case NumberStatus::Invalid:
      warn(WarningKind::WrongType, ev.at, std::string(field) + " is not a number: " + std::string(text.substr(0, 40)));
      return false;
  }
  return false;
}

RawId Loader::rawId(const RawIdText& t, const RawEvent& ev, const char* field) {
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
  id.str = trace_->strings.intern(t.text);
  return id;
}

StringId Loader::internId(const RawIdText& t) { return t.present ? trace_->strings.intern(t.text) : 0; }

bool Loader::argId(const RawArg& a, const RawEvent& ev, int64_t& out) {
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
void Loader::addMemoryEvent(const RawEvent& ev, TimeNs ts, const RawId& pid) {
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
  m.track = builder_->threadTrack(pid, rawId(ev.tid, ev, "tid"));
  trace_->memoryEvents.push_back(m);
}

void Loader::encodeArgs(RawEvent& ev, SliceInput& in) {
  argsWriter_.clear();
  if (lazyArgs_) {
    if (ev.argsAt) argsWriter_.setFileOffset(offsetOf(ev.argsAt));
    for (const RawArg& a : ev.args) {
      // Keys compared as text: interning every key is what lazy mode saves.
      const std::string_view k = a.key;
      if (k.size() < 6 || k.size() > 11) continue;
      if (k == "correlation" || k == "External id" || k == "external id") {
        liftId(a, ev, k == "correlation" ? in.correlation : in.externalId);
      } else if (k == "stream" || k == "device" || k == "Device") {
        int64_t iv = 0;
        (k == "stream" ? in.stream : in.device) = a.type == 'n' && plainInteger(a.value, iv) ? iv : kNoId;
      }
    }
    return;
  }
  StringPool& pool = trace_->strings;
  for (const RawArg& a : ev.args) {
    const StringId key = pool.intern(a.key);
    int64_t iv = 0;
    bool haveInt = false;
    switch (a.type) {
      case 's':
        argsWriter_.addString(key, pool.intern(a.value));
        break;
      case 'r':
        argsWriter_.addJson(key, pool.intern(compactJson(a.value, jsonScratch_)));
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

// An id arg that is not a plain integer: strings, huge or fractional ids are converted
// where they can be, and warned about.
void Loader::liftId(const RawArg& a, const RawEvent& ev, int64_t& out) {
  int64_t iv = 0;
  if (a.type == 'n' && plainInteger(a.value, iv)) {
    out = iv;
    return;
  }
  argId(a, ev, out);
}

void Loader::metadataEvent(const RawEvent& ev, uint32_t process, const RawId& pid, const RawId& tid) {
  const std::string_view n = ev.name;
  auto argOf = [&](std::string_view key) -> const RawArg* {
    for (const RawArg& a : ev.args)
      if (a.key == key) return &a;
    return nullptr;
  };
  auto sortIndex = [&](int64_t& out) {
    const RawArg* a = argOf("sort_index");
    if (!a || !argId(*a, ev, out)) {
      warn(WarningKind::BadMetadata, ev.at, std::string(n) + " without an integer sort_index");
      return false;
    }
    return true;
  };
  Process& proc = trace_->processes[process];
  if (n == "process_name") {
    const RawArg* a = argOf("name");
    if (a && a->type == 's') proc.name = trace_->strings.intern(a->value);
    else warn(WarningKind::BadMetadata, ev.at, "process_name without a string name");
  } else if (n == "process_labels") {
    const RawArg* a = argOf("labels");
    if (a && a->type == 's') proc.labels = trace_->strings.intern(a->value);
  } else if (n == "process_sort_index") {
    if (sortIndex(proc.sortIndex)) proc.hasSortIndex = true;
  } else if (n == "thread_name" || n == "thread_sort_index") {
    Track& t = trace_->tracks[builder_->threadTrack(pid, tid)];
    if (n == "thread_name") {
      const RawArg* a = argOf("name");
      if (a && a->type == 's') t.name = trace_->strings.intern(a->value);
      else warn(WarningKind::BadMetadata, ev.at, "thread_name without a string name");
    } else if (sortIndex(t.sortIndex)) {
      t.hasSortIndex = true;
    }
  }
}

void Loader::commit(RawEvent& ev) {
  if (!ev.hasPh) {
    warn(WarningKind::MissingField, ev.at, "event without ph");
    return;
  }
  const char ph = ev.ph.size() == 1 ? ev.ph[0] : '?';
  if (sc_.controlChars != ev.controlCharsBefore) {
    const bool inName =
        std::any_of(ev.name.begin(), ev.name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
    warn(WarningKind::ControlCharacter, ev.at,
         inName ? "control character in a name" : "control character in a string");
  }
  const RawId pid = rawId(ev.pid, ev, "pid");
  const uint32_t process = builder_->process(pid);

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
  in.name = trace_->strings.intern(ev.name);
  in.cat = trace_->strings.intern(ev.cat);
  if (!ev.cat.empty() && builder_->kindOf(in.cat) != SliceKind::Other) {
    const std::string_view c = ev.cat;
    if (c == "Operator" || c == "Runtime" || c == "Kernel" || c == "Memcpy" || c == "Memset") sawLegacy_ = true;
    else sawKineto_ = true;
  }

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
      builder_->addSlice(builder_->threadTrack(pid, rawId(ev.tid, ev, "tid")), in, argsWriter_);
      return;
    }
    case 'B':
      encodeArgs(ev, in);
      builder_->beginSlice(builder_->threadTrack(pid, rawId(ev.tid, ev, "tid")), in, argsWriter_);
      return;
    case 'E':
      if (!builder_->endSlice(builder_->threadTrack(pid, rawId(ev.tid, ev, "tid")), ts))
        warn(WarningKind::UnmatchedEnd, ev.at, "E event with no open B on its thread");
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
        inst.track = builder_->threadTrack(pid, rawId(ev.tid, ev, "tid"));
      }
      builder_->addInstant(inst);
      return;
    }
    case 'C': {
      // Each numeric arg is one series: "<name>.<key>" (Chrome draws them stacked).
      std::string series;
      for (const RawArg& a : ev.args) {
        double v;
        if (a.type != 'n' || doubleText(a.value, v) != NumberStatus::Ok) continue;
        series.assign(ev.name);
        if (ev.id.present) series.append(" ").append(ev.id.text);
        series.append(".").append(a.key);
        builder_->addCounter(process, trace_->strings.intern(series), ts, v);
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
      fp.track = builder_->threadTrack(pid, rawId(ev.tid, ev, "tid"));
      fp.ts = ts;
      fp.cat = in.cat;
      fp.name = in.name;
      int64_t numeric;
      if (!ev.id.isString && integerText(ev.id.text, numeric) == NumberStatus::Ok && numeric >= 0)
        fp.id = static_cast<uint64_t>(numeric);
      else fp.id = kStringFlowId | internId(ev.id);
      fp.phase = ph;
      fp.bindEnclosing = ph != 'f' || ev.bp == "e";
      builder_->addFlowPoint(fp);
      return;
    }
    case 'b':
    case 'S':
      encodeArgs(ev, in);
      builder_->asyncBegin(process, in.cat, internId(ev.id), in, argsWriter_);
      return;
    case 'e':
    case 'F':
      if (!builder_->asyncEnd(process, in.cat, internId(ev.id), in.name, ts))
        warn(WarningKind::UnmatchedEnd, ev.at, "async end with no open begin");
      return;
    case 'n':
    case 'T': {
      Instant inst;
      inst.ts = ts;
      inst.name = in.name;
      inst.cat = in.cat;
      inst.process = process;
      inst.scope = InstantScope::Process;
      builder_->addInstant(inst);
      return;
    }
    default:
      warn(WarningKind::UnknownPhase, ev.at, "phase '" + std::string(ev.ph.substr(0, 8)) + "' skipped");
  }
}

}  // namespace

LoadResult loadChromeJson(ByteSource& source, const LoadOptions& options) {
  Loader loader(source, options);
  LoadResult r = loader.run();
  r.peakWindowBytes = loader.peakWindow();
  return r;
}

}  // namespace opscope
