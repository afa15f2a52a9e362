// Parallel loading of a plain JSON file: the later parts' readers, their threads, and the
// merge of their models into the first part's (see io/chrome_json_loader.cpp).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <system_error>
#include <thread>

#include "io/chrome_json_reader.h"
#include "io/json_parts.h"

namespace opscope::chrome_json {

// Threads for parsing: the options', else OPSCOPE_LOAD_THREADS (benchmarks measure the
// scaling with it), else every core.
// At most 64 whatever is asked: each part holds a source, a window and a model.
unsigned loadThreads(const LoadOptions& opts) {
  constexpr unsigned kMost = 64;
  if (opts.threads) return std::min(opts.threads, kMost);
  if (const char* e = std::getenv("OPSCOPE_LOAD_THREADS"); e && std::atoi(e) > 0)
    return std::min(static_cast<unsigned>(std::atoi(e)), kMost);
  return std::clamp(std::thread::hardware_concurrency(), 1u, 32u);
}

namespace {

// Top-level values after traceEvents, read by the last part: as one pass would have set
// them after those before it (this loader's).
void takeLaterTopLevel(TraceMetadata& m, const TraceMetadata& later, const std::vector<std::string>& keys) {
  for (const std::string& key : keys) {
    if (key == "schemaVersion") {
      if (later.schemaVersion) m.schemaVersion = later.schemaVersion;
      m.schemaVersionText = later.schemaVersionText;
    } else if (key == "deviceProperties") {
      m.devices = later.devices;
    } else if (key == "distributedInfo") {
      m.distributedInfo = later.distributedInfo;
      if (later.rank) m.rank = later.rank;
      if (later.worldSize) m.worldSize = later.worldSize;
    } else if (key == "traceName") {
      m.traceName = later.traceName;
    } else if (key == "baseTimeNanoseconds") {
      if (later.baseTimeNanoseconds) m.baseTimeNanoseconds = later.baseTimeNanoseconds;
    } else if (key == "displayTimeUnit") {
      m.displayTimeUnit = later.displayTimeUnit;
    } else if (key == "deviceKind") {
      m.deviceKind = later.deviceKind;
    } else if (key == "record_shapes") {
      m.recordShapes = later.recordShapes;
    }
  }
  m.other.insert(m.other.end(), later.other.begin(), later.other.end());
}

}  // namespace

Reader::~Reader() = default;

LoadProgress Reader::progressNow(uint64_t done, uint64_t total) const {
  LoadProgress p{done, total, trace_->eventsRead};
  if (parts_ && parts_->gzip) {
    // The first part's compressed bytes read, and the later parts' decompressed ones as
    // their share of the file's.
    const double later = static_cast<double>(parts_->shared.bytes.load(std::memory_order_relaxed));
    p.bytesDone = std::min<uint64_t>(
        total, src_.consumed() + static_cast<uint64_t>(later * static_cast<double>(total) /
                                                       static_cast<double>(std::max<uint64_t>(parts_->sizeGuess, 1))));
    p.events += parts_->shared.events.load(std::memory_order_relaxed);
  } else if (parts_) {
    // Each window reads ahead past its cut: what lies beyond is the next part's.
    p.bytesDone = std::min(done, stopAt_) + parts_->shared.bytes.load(std::memory_order_relaxed);
    p.bytesDone = std::min(p.bytesDone, total);
    p.events += parts_->shared.events.load(std::memory_order_relaxed);
  }
  // Never back: dropped parts take their counts with them while this reader reads on.
  p.bytesDone = progressBytes_ = std::max(progressBytes_, p.bytesDone);
  p.events = progressEvents_ = std::max(progressEvents_, p.events);
  return p;
}

bool Reader::partProgress(uint64_t done) {
  // Never less than reported: a gzip part learns its cut after reading past it.
  const uint64_t bytes = std::max(reportedBytes_, (stopAt_ ? std::min(done, stopAt_) : done) - partBegin_);
  shared_->bytes.fetch_add(bytes - reportedBytes_, std::memory_order_relaxed);
  shared_->events.fetch_add(trace_->eventsRead - reportedEvents_, std::memory_order_relaxed);
  reportedBytes_ = bytes;
  reportedEvents_ = trace_->eventsRead;
  return !shared_->cancel.load(std::memory_order_relaxed);
}

bool Reader::learnCut(uint64_t at) {
  if (!nextCut_ || stopAt_) return true;
  uint64_t cut = nextCut_->load(std::memory_order_acquire);
  if (cut == 0 && at >= nextFrom_) {
    // The next part's thread always publishes a cut or kNoCut, whatever happens to it,
    // and then wakes the parts' waiters; progress and cancellation stay live meanwhile.
    PartsShared& shared = part_ ? *shared_ : parts_->shared;
    std::unique_lock<std::mutex> lock(shared.mutex);
    while ((cut = nextCut_->load(std::memory_order_acquire)) == 0) {
      shared.done.wait_for(lock, std::chrono::milliseconds(50));
      if (shared.cancel.load(std::memory_order_relaxed)) return false;
      if (!part_ && opts_.progress && nextCut_->load(std::memory_order_acquire) == 0) {
        lock.unlock();
        if (!opts_.progress(progressNow(src_.consumed(), src_.totalSize()))) {
          shared.cancel = true;
          cancelledWaiting_ = true;
          return false;
        }
        lock.lock();
      }
    }
  }
  if (cut == Parts::kNoCut) return false;
  stopAt_ = cut;
  return true;
}

void Reader::startParts(uint64_t at) {
  if (src_.isGzip()) {
    startGzipParts(at);
    return;
  }
  const std::string& path = src_.randomAccessPath();
  const uint64_t size = src_.totalSize();
  const unsigned threads = loadThreads(opts_);
  if (!lazyArgs_ || threads < 2 || size <= at || opts_.minPartBytes == 0) return;
  const auto count = static_cast<unsigned>(std::min<uint64_t>(threads, (size - at) / opts_.minPartBytes));
  const std::vector<uint64_t> cuts = guessEventStarts(path, at, size, count);
  if (cuts.empty()) return;
  parts_ = std::make_unique<Parts>();
  for (size_t i = 0; i < cuts.size(); ++i) {
    Parts::Part part;
    std::string error;
    part.src = ByteSource::openAt(path, cuts[i], error);
    if (!part.src || !part.src->sameFileAs(src_)) {  // replaced since it was opened: one pass
      parts_.reset();
      return;
    }
    part.loader = std::make_unique<Reader>(*part.src, opts_, parts_->shared, cuts[i],
                                           i + 1 < cuts.size() ? cuts[i + 1] : 0, arrayForm_);
    parts_->parts.push_back(std::move(part));
  }
  parts_->shared.running = parts_->parts.size();
  for (Parts::Part& part : parts_->parts) {
    try {
      parts_->threads.emplace_back([&part, shared = &parts_->shared] {
        try {
          part.result = part.loader->run();
        } catch (...) {  // out of memory in a part: the parse goes on in one pass
          part.result.status = LoadStatus::IoError;
        }
        std::lock_guard<std::mutex> lock(shared->mutex);
        --shared->running;
        shared->done.notify_all();
      });
    } catch (const std::system_error&) {
      // No thread to be had (a process or cgroup limit): one pass, as on one core.
      parts_.reset();  // cancels and joins the parts already running
      return;
    }
  }
  stopAt_ = cuts.front();
}

void Reader::dropParts() {
  parts_.reset();  // cancels and joins
  stopAt_ = 0;
  nextCut_ = nullptr;
}

bool Reader::absorbParts() {
  {
    // Progress and cancellation stay live while the parts finish.
    std::unique_lock<std::mutex> lock(parts_->shared.mutex);
    while (parts_->shared.running > 0) {
      parts_->shared.done.wait_for(lock, std::chrono::milliseconds(50));
      if (opts_.progress && parts_->shared.running > 0) {
        lock.unlock();
        if (!opts_.progress(progressNow(window_.offsetOf(sc_.p), src_.totalSize()))) {
          parts_->shared.cancel = true;
          cancelledWaiting_ = true;
        }
        lock.lock();
      }
    }
  }
  parts_->join();
  if (cancelledWaiting_) return false;
  // Every part ended at its cut (the last at the input's end), and the merge is exact
  // for all of them (TraceBuilder::canAbsorb). Begins left open before a cut are closed
  // in the merge by the ends the later parts kept for it (setDeferUnmatchedEnds).
  std::vector<Parts::Part>& parts = parts_->parts;
  std::vector<TraceBuilder*> builders;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (!parts[i].loader) return false;  // a gzip part that found no cut
    const Reader& l = *parts[i].loader;
    const bool last = i + 1 == parts.size();
    if (parts[i].result.status != LoadStatus::Ok || l.partEnd_ != (last ? PartEnd::End : PartEnd::AtCut)) return false;
    builders.push_back(l.builder_.get());
  }
  if (!builder_->canAbsorb(builders)) return false;
  for (Parts::Part& part : parts) {
    Reader& l = *part.loader;
    if (!builder_->absorb(*l.builder_)) return false;  // ruled out by canAbsorb: nothing was merged
    trace_->diagnostics.absorb(l.trace_->diagnostics);
    parser_.absorbDialect(l.parser_);
  }
  const Reader& last = *parts.back().loader;
  takeLaterTopLevel(trace_->meta, last.trace_->meta, last.topKeys_);
  topKeys_.insert(topKeys_.end(), last.topKeys_.begin(), last.topKeys_.end());
  inputEnd_ = last.inputEnd_;
  lastTruncated_ = last.partTruncated_;
  if (parts_->gzip) src_.takeEndFrom(*parts.back().src);  // the last part read the stream's end
  // The parts count no lines: the first occurrences they report get theirs now.
  std::vector<std::pair<uint64_t, WarningKind>> unplaced;
  for (const WarningEntry& e : trace_->diagnostics.entries())
    if (e.firstOffset > 0 && e.firstLine == 0) unplaced.emplace_back(e.firstOffset, e.kind);
  if (!unplaced.empty()) {
    std::sort(unplaced.begin(), unplaced.end());
    std::vector<uint64_t> offsets;
    for (const auto& u : unplaced) offsets.push_back(u.first);
    const std::vector<uint64_t> lines = linesAtOffsets(src_.rereadablePath(), offsets);
    for (size_t i = 0; i < unplaced.size(); ++i) trace_->diagnostics.setFirstLine(unplaced[i].second, lines[i]);
  }
  partsAbsorbed_ = static_cast<unsigned>(parts.size() + 1);
  parts_.reset();
  nextCut_ = nullptr;
  absorbed_ = true;
  return true;
}
}  // namespace opscope::chrome_json
