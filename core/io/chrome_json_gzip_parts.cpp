// Parallel loading of a regular gzip file. A gzip stream has no random access, so each
// later part's thread opens the file again, inflates from the start up to its share of
// the (guessed) decompressed size, throwing those bytes away (ISA-L inflates ~3 GB/s
// here, 4-5x the parse: the skip costs a part less than its parse), finds an event
// start there (io/json_parts.h's guess), publishes it (Parts::cutAt) and parses on with
// args kept in memory. The reader before it learns its cut at its next element
// (Reader::learnCut) and stops there, exactly as with a plain file's cuts known up front;
// the same checks decide whether the parts are used, and the same fallback (one pass
// from the cut) follows when they are not.
//
// Corner cases: a part that finds no event start in its look window, or a file that is
// not the one first opened (device, inode, size, time), publishes kNoCut and the parts
// are dropped;
// a cut guessed inside a string is caught by the part before it (its parse does not end
// there), as for plain files; the last part reads the stream's end and hands its
// truncation and trailing bytes to the first part's source (ByteSource::takeEndFrom).
#include <algorithm>
#include <memory>
#include <thread>

#include "io/chrome_json_reader.h"
#include "io/json_parts.h"

namespace opscope::chrome_json {

namespace {

// Inflates `path` up to `approx` decompressed bytes, then finds the first event start in
// the next min(kEventStartLookBytes, share) bytes. Returns the source positioned at that start
// (the bytes after it given back) and sets `cut`; null when there is none or when the
// file is not the one the first part reads.
std::unique_ptr<ByteSource> openAtEventStart(const std::string& path, const ByteSource& first, uint64_t approx,
                                             uint64_t share, const std::atomic<bool>& cancel, uint64_t& cut) {
  std::string error;
  // Inflated on this thread: the skipped bytes go straight into one cached buffer, and
  // the parsed ones into the window, with no hand-over between threads.
  std::unique_ptr<ByteSource> src = ByteSource::open(path, error, false);
  if (!src || !src->isGzip() || !src->sameFileAs(first)) return nullptr;
  std::unique_ptr<char[]> buf(new char[kEventStartLookBytes]);
  uint64_t pos = 0;
  while (pos < approx) {
    if (cancel.load(std::memory_order_relaxed)) return nullptr;
    const size_t n = src->read(buf.get(), static_cast<size_t>(std::min<uint64_t>(kEventStartLookBytes, approx - pos)));
    if (n == 0) return nullptr;  // the stream is shorter than the guess
    pos += n;
  }
  const size_t look = static_cast<size_t>(std::min<uint64_t>(kEventStartLookBytes, std::max<uint64_t>(share, 2)));
  size_t got = 0;
  while (got < look) {
    const size_t n = src->read(buf.get() + got, look - got);
    if (n == 0) break;
    got += n;
  }
  const size_t i = findEventStart(buf.get(), got);
  if (i >= got) return nullptr;
  src->unread(std::string(buf.get() + i, got - i));
  cut = pos + i;
  return src;
}

}  // namespace

void Reader::startGzipParts(uint64_t at) {
  const std::string& path = src_.rereadablePath();
  // Each later part inflates everything before its share: past 16 parts the skips cost
  // more than the parse they spread.
  const unsigned wanted = std::min(loadThreads(opts_), 16u);
  if (path.empty() || wanted < 2 || opts_.minPartBytes == 0) return;
  const uint64_t guess = opts_.gzipSizeHint ? opts_.gzipSizeHint : gzipSizeGuess(path);
  if (guess <= at) return;
  const auto count = static_cast<unsigned>(std::min<uint64_t>(wanted, (guess - at) / opts_.minPartBytes));
  if (count < 2) return;
  const uint64_t share = (guess - at) / count;
  parts_ = std::make_unique<Parts>();
  parts_->gzip = true;
  parts_->sizeGuess = guess;
  parts_->cutAt = std::make_unique<std::atomic<uint64_t>[]>(count - 1);
  for (unsigned k = 0; k + 1 < count; ++k) parts_->cutAt[k].store(0, std::memory_order_relaxed);
  parts_->parts.resize(count - 1);
  parts_->threads.reserve(count - 1);
  parts_->shared.running = count - 1;
  // A cut (or kNoCut) is stored, then every waiter on the parts is woken (learnCut).
  auto publish = [](std::atomic<uint64_t>& cutAt, uint64_t cut, PartsShared& shared) {
    cutAt.store(cut, std::memory_order_release);
    std::lock_guard<std::mutex> lock(shared.mutex);
    shared.done.notify_all();
  };
  for (unsigned k = 0; k + 1 < count; ++k) {
    Parts::Part& part = parts_->parts[k];
    std::atomic<uint64_t>* const cutAt = &parts_->cutAt[k];
    const std::atomic<uint64_t>* const next = k + 2 < count ? &parts_->cutAt[k + 1] : nullptr;
    const uint64_t approx = at + share * (k + 1), nextApprox = approx + share;
    try {
      parts_->threads.emplace_back([this, &part, cutAt, next, approx, nextApprox, share, path, publish,
                                    shared = &parts_->shared, arrayForm = arrayForm_] {
        uint64_t cut = 0;
        try {
          part.src = openAtEventStart(path, src_, approx, share, shared->cancel, cut);
          if (part.src) {
            part.loader =
                std::make_unique<Reader>(*part.src, opts_, *shared, cut, 0, arrayForm, false, next, nextApprox);
            publish(*cutAt, cut, *shared);
            part.result = part.loader->run();
          } else {
            part.result.status = LoadStatus::IoError;
          }
        } catch (...) {  // out of memory in a part: the parse goes on in one pass
          part.result.status = LoadStatus::IoError;
        }
        if (!part.loader) publish(*cutAt, Parts::kNoCut, *shared);
        std::lock_guard<std::mutex> lock(shared->mutex);
        --shared->running;
        shared->done.notify_all();
      });
    } catch (...) {
      // No thread to be had (a limit, or no memory): the parts not started have no cut,
      // so the parts are dropped at the first reader's next element.
      for (unsigned j = k; j + 1 < count; ++j) publish(parts_->cutAt[j], Parts::kNoCut, parts_->shared);
      std::lock_guard<std::mutex> lock(parts_->shared.mutex);
      parts_->shared.running -= count - 1 - k;
      break;
    }
  }
  nextCut_ = &parts_->cutAt[0];
  nextFrom_ = at + share;
}

}  // namespace opscope::chrome_json
