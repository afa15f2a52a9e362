#include "io/chrome_json_loader.h"

#include <cstdio>
#include <cstring>
#include <string>

#include "io/chrome_json_reader.h"
#include "io/input_limits.h"

// The Chrome loader in three parts, as Perfetto's JSON importer splits it: the read
// window (json_read_window.h) slides over the bytes, this tokenizer walks the top-level
// structure and cuts the traceEvents into raw events (chrome_raw_event.h) with a small
// state machine that survives window boundaries, and the event parser
// (chrome_event_parser.h) gives each its meaning in the model.
//
// Parallel loading (a plain regular file of at least two parts' worth of events): when
// the loader meets the first element of traceEvents it guesses cut points at event
// starts in the rest of the file (io/json_parts.h) and starts a reader per later part
// (io/chrome_json_parallel.cpp) on a thread, each with its own model; it parses the first part itself, up to the
// first cut. A part counts only when its parse ends exactly at the next cut (so every
// cut is proven an event start by the part before it). A later part keeps the ends it
// finds nothing open for; the merge closes with them the begins earlier parts left open.
// Then the parts' models are absorbed in file order (TraceBuilder::absorb), which
// yields the model one pass builds, id for id. Otherwise the parts are dropped and this
// loader reads on from its cut in one pass: a bad guess costs the parts' work, never a
// wrong model or a second read of the first part.

namespace opscope {

namespace chrome_json {

RawIdText Reader::parseIdValue(bool id2) {
  RawIdText out;
  out.present = true;
  out.fromId2 = id2;
  const char c = sc_.peek();
  if (c == '"') {
    out.isString = true;
    out.text = sc_.string();
  } else if (c == '{' || c == '[') {
    out.isString = true;
    const char* start = sc_.p;
    out.text = sc_.skipValue();  // an object or array: its raw text is the id, per process
    out.scope = 'l';
    if (id2 && c == '{') {
      const char* after = sc_.p;
      sc_.p = start;  // the object is whole in the window: skipValue read it
      try {
        readId2(out);
      } catch (const SyntaxError&) {
        // skipValue matches brackets only: a malformed object it let pass stays raw text
        // (the file loads as it did before id2 objects were read).
        out.hasAsync = false;
        out.scope = 'l';
      }
      sc_.p = after;
    }
  } else if (c == 't' || c == 'f' || c == 'n') {
    sc_.literal();
    out.present = false;
  } else {
    out.text = sc_.number();
  }
  return out;
}

// An id2 object (sc_.p at its '{'), as Perfetto reads one: its "global" member's value,
// else its "local" member's, a string (escapes decoded) or a number, is the async id
// (RawIdText::async); scope 0 for global, 'l' for local. Another form leaves it unset;
// a malformed one throws SyntaxError (parseIdValue keeps its raw text).
void Reader::readId2(RawIdText& out) {
  ++sc_.p;                    // '{'
  std::string_view value[2];  // global, local
  bool isString[2] = {false, false}, has[2] = {false, false};
  while (sc_.peek() != '}') {
    if (sc_.peek() != '"') return;
    const std::string_view key = sc_.string();
    sc_.expect(':', "expected ':' in an id2 object");
    const int which = key == "global" ? 0 : key == "local" ? 1 : -1;
    const char c = sc_.peek();
    if (which >= 0 && (c == '"' || c == '-' || (c >= '0' && c <= '9'))) {
      isString[which] = c == '"';
      value[which] = c == '"' ? sc_.string() : sc_.number();
      has[which] = true;
    } else {
      sc_.skipValue();
    }
    const char d = sc_.peek();
    if (d == '}') break;
    if (d != ',') return;
    ++sc_.p;
  }
  for (int which : {0, 1})
    if (has[which]) {
      out.async = value[which];
      out.asyncIsString = isString[which];
      out.hasAsync = true;
      out.scope = which == 0 ? 0 : 'l';
      return;
    }
}

void Reader::parseArgs(RawEvent& ev) {
  if (sc_.peek() == '{') ev.argsAt = sc_.p;
  scanArgsObject(sc_, ev.args);
}

void Reader::parseEvent(RawEvent& ev) {
  ev.reset(sc_.p, sc_.controlChars, sc_.escapedBreaks);
  sc_.resetScratch();
  ++sc_.p;  // '{'
  if (sc_.peek() == '}') {
    ++sc_.p;
    ev.controlCharsAfter = sc_.controlChars;
    ev.escapedBreaksAfter = sc_.escapedBreaks;
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
          // A null (or boolean) id is no id: it leaves an id2 read before it in place.
          RawIdText id = parseIdValue();
          if (id.present || !ev.id.fromId2) ev.id = id;
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
          // A plain "id" wins over an id2, whichever comes first (as Perfetto reads them).
          RawIdText id = parseIdValue(true);
          if (!ev.id.present || ev.id.fromId2) ev.id = id;
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
    if (d == '}') {
      ev.controlCharsAfter = sc_.controlChars;
      ev.escapedBreaksAfter = sc_.escapedBreaks;
      return;
    }
    if (d != ',') sc_.fail(sc_.p - 1, "expected ',' or '}' after an event field");
  }
}

LoadResult Reader::run() {
  LoadResult result;
  // A later part starts at an element of traceEvents.
  State state = part_ ? State::EventsFirst : State::Start;
  sawTraceEvents_ = part_;
  RawEvent ev;
  window_.refill(window_.data());
  if (!part_) window_.startPrefetch();
  if (window_.cancelled()) {
    result.status = LoadStatus::Cancelled;
    result.error = "loading cancelled";
    return result;
  }
  if (window_.size() == 0) {
    result.status = src_.error().empty() ? LoadStatus::InvalidInput : LoadStatus::IoError;
    // A gzip file cut inside its first member's header or data gave no byte: that is a
    // cut file, not an empty one.
    result.error = !src_.error().empty() ? src_.error()
                   : src_.truncated()    ? "the gzip stream ends after " + std::to_string(src_.consumed()) +
                                            " compressed bytes, before any data: the file is cut"
                                      : "empty file: no JSON in it";
    return result;
  }
  const char* committed = window_.data();
  sc_.reset(committed, window_.data() + window_.size());
  bool truncated = false;
  for (;;) {
    try {
      switch (state) {
        case State::Start: {
          // UTF-8 byte order mark.
          if (window_.size() >= 3 && std::memcmp(sc_.p, "\xEF\xBB\xBF", 3) == 0) sc_.p += 3;
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
                                                                      window_.where(sc_.p) + ", found bytes " + hex
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
                     key == "record_shapes" || key == "deviceKind") {
            topKeys_.push_back(key);
            const std::string_view raw = sc_.skipValue();
            parser_.topLevelValue(key, raw);
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
            if (stopAt_ || nextCut_) {
              // The array ends before the cut: the cut was not in it.
              if (part_) {
                partEnd_ = PartEnd::Misplaced;
                goto finished;
              }
              dropParts();
            }
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
          if (nextCut_ && !learnCut(window_.offsetOf(sc_.p))) {
            // The next part's thread found no cut: the parts cannot be used.
            if (part_) {
              partEnd_ = PartEnd::Misplaced;
              goto finished;
            }
            dropParts();
            if (cancelledWaiting_) {
              result.status = LoadStatus::Cancelled;
              result.error = "loading cancelled";
              return result;
            }
          }
          if (stopAt_) {
            const uint64_t at = window_.offsetOf(sc_.p);
            if (at >= stopAt_) {
              if (part_) {
                partEnd_ = at == stopAt_ ? PartEnd::AtCut : PartEnd::Misplaced;
                goto finished;
              }
              if (at == stopAt_ && absorbParts()) goto finished;
              dropParts();
              if (cancelledWaiting_) {
                result.status = LoadStatus::Cancelled;
                result.error = "loading cancelled";
                return result;
              }
            }
          } else if (!planned_ && !part_) {
            planned_ = true;
            startParts(window_.offsetOf(sc_.p));
          }
          if (c == '{') {
            parseEvent(ev);
            parser_.event(ev);
          } else {
            const char* at = sc_.p;
            sc_.skipValue();
            parser_.warn(WarningKind::NotAnEvent, at, "an element of traceEvents is not an object");
          }
          ++trace_->eventsRead;
          state = State::EventsNext;
          break;
        }
        case State::Done: {
          // Anything after the top-level value is ignored (Chrome does the same); the
          // JSON's bytes end where it starts (not at the window's end, which depends on
          // where windows fall: one pass and a parallel load would disagree).
          sc_.skipWs();
          valueEnd_ = window_.offsetOf(sc_.p);
          goto finished;
        }
      }
      committed = sc_.p;
    } catch (const NeedMore&) {
      // Whitespace after the last complete unit is never carried into the next window:
      // a file of spaces between events takes no memory.
      while (committed < window_.data() + window_.size() &&
             (*committed == ' ' || *committed == '\n' || *committed == '\r' || *committed == '\t'))
        ++committed;
      const uint64_t unitAt = window_.offsetOf(committed);
      const bool more = window_.refill(committed);
      committed = window_.data();
      sc_.reset(committed, window_.data() + window_.size());
      if (window_.unitTooLarge()) {
        window_.finish();
        result.status = LoadStatus::InvalidInput;
        result.error =
            std::string(state == State::EventsFirst || state == State::EventsNext ? "the event" : "the value") +
            " at byte " + std::to_string(unitAt) + (src_.isGzip() ? " of the decompressed stream" : "") +
            " is larger than " + std::to_string(kMaxJsonValueBytes >> 20) + " MiB, the ceiling for one JSON value";
        return result;
      }
      if (window_.cancelled()) {
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
      result.error = "malformed JSON at " + window_.where(e.at) + ": " + e.expected + found;
      return result;
    }
  }
finished:
  window_.finish();  // the source is ours again
  if (part_) {
    if (partEnd_ == PartEnd::None) partEnd_ = stopAt_ ? PartEnd::Misplaced : PartEnd::End;
    partTruncated_ = truncated;
    if (src_.isGzip() && !stopAt_ && !nextCut_ && src_.error().empty() && !truncated)
      drainForTrailing(src_);  // the last part of a gzip file: what follows the JSON is named
    inputEnd_ = valueEnd_ ? valueEnd_ : window_.end();
    if (!src_.error().empty()) result.status = LoadStatus::IoError;  // a read error is no cut file
    return result;
  }
  if (absorbed_) {
    truncated = lastTruncated_;
  } else {
    inputEnd_ = valueEnd_ ? valueEnd_ : window_.end();
  }
  if (!src_.error().empty()) {
    result.status = LoadStatus::IoError;
    result.error = src_.error();
    return result;
  }
  if (truncated || src_.truncated()) {
    if (!sawTraceEvents_ && trace_->eventsRead == 0) {
      result.status = LoadStatus::InvalidInput;
      result.error = "input ends at byte " + std::to_string(inputEnd_) + " before any trace event";
      return result;
    }
    if (trace_->eventsRead == 0) {
      // Nothing to show: an empty trace would look like a successful load.
      result.status = LoadStatus::InvalidInput;
      result.error = "no complete event before the cut at byte " + std::to_string(inputEnd_) +
                     (src_.isGzip() ? " of the decompressed stream" : "") +
                     (src_.truncated() ? " (gzip stream cut short)" : "");
      return result;
    }
    trace_->diagnostics.warn(WarningKind::Truncated, inputEnd_, 0,
                             "input ends at byte " + std::to_string(inputEnd_) +
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
  applyRankLabels(*trace_);  // before the links: they look for a launch of the GPU event's rank
  builder_->finish();
  TraceMetadata& m = trace_->meta;
  m.format = parser_.format();
  trace_->inputBytes = src_.totalSize();
  trace_->jsonBytes = inputEnd_;
  result.trace = std::move(trace_);
  return result;
}

bool Reader::skipTopValue(TopValueSkip& k) {
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

}  // namespace chrome_json

LoadResult loadChromeJson(ByteSource& source, const LoadOptions& options) {
  chrome_json::Reader loader(source, options);
  LoadResult r = loader.run();
  r.peakWindowBytes = loader.peakWindow();
  r.parts = loader.partsAbsorbed();
  return r;
}

}  // namespace opscope