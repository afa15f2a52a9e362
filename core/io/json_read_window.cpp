#include "io/json_read_window.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

#include "io/input_limits.h"
#include "io/json_scanner.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace opscope {

namespace {

constexpr size_t kWindowBytes = 4u << 20;
// Headroom in front of a prefetched window for the unfinished event carried over from
// the previous one (events are a few hundred bytes; larger units fall back to one
// growing window).
constexpr size_t kCarryBytes = 1u << 20;

}  // namespace

// '\n' bytes in [b, e): 16 bytes a step without branches (pretty-printed traces have a
// newline every few dozen bytes, where a memchr loop spends its time in calls and a
// loop over each match's bit mispredicts). Each lane counts its matches in a byte
// (a match compares to -1: subtracting it adds 1) for at most 255 steps, then the lanes
// are summed with one psadbw.
uint64_t countNewlines(const char* b, const char* e) {
  uint64_t n = 0;
#ifdef __SSE2__
  const __m128i nl = _mm_set1_epi8('\n');
  const __m128i zero = _mm_setzero_si128();
  while (e - b >= 16) {
    const size_t steps = std::min<size_t>(255, static_cast<size_t>(e - b) / 16);
    __m128i lanes = zero;
    for (size_t i = 0; i < steps; ++i, b += 16)
      lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b)), nl));
    const __m128i sums = _mm_sad_epu8(lanes, zero);  // two 64-bit sums of eight lanes each
    n += static_cast<uint64_t>(_mm_cvtsi128_si32(sums)) + static_cast<uint64_t>(_mm_extract_epi16(sums, 4));
  }
#endif
  for (; b < e; ++b) n += *b == '\n';
  return n;
}

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
  // After wait(): the newlines in the bytes read, counted on this thread (they are for
  // error lines only, and counting them took 5 % of a load on the parsing thread).
  uint64_t lines() {
    std::lock_guard<std::mutex> lock(mutex_);
    return lines_;
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
      const uint64_t lines = countNewlines(dst, dst + got);
      lock.lock();
      got_ = got;
      lines_ = lines;
      busy_ = false;
      cv_.notify_all();
    }
  }
  ByteSource& src_;
  std::mutex mutex_;
  std::condition_variable cv_;
  char* dst_ = nullptr;
  size_t cap_ = 0, got_ = 0;
  uint64_t lines_ = 0;
  bool busy_ = false, stop_ = false;
  std::thread thread_;  // last: starts once the state above exists
};

JsonReadWindow::JsonReadWindow(ByteSource& src, std::function<bool(uint64_t, uint64_t)> progress)
    : src_(src), progress_(std::move(progress)) {
  buf_.resize(kCarryBytes + kWindowBytes + kPadding);
  data_ = buf_.data();
}

JsonReadWindow::JsonReadWindow(ByteSource& src, std::function<bool(uint64_t, uint64_t)> progress, uint64_t base)
    : JsonReadWindow(src, std::move(progress)) {
  base_ = base;
  part_ = true;
}

JsonReadWindow::~JsonReadWindow() = default;

void JsonReadWindow::finish() {
  if (readAhead_) readAhead_->wait();
}

uint64_t JsonReadWindow::columnOf(const char* at) const {
  const char* q = at;
  while (q > data_ && q[-1] != '\n') --q;
  return static_cast<uint64_t>(at - q) + 1;
}

std::string JsonReadWindow::where(const char* at) const {
  std::string s = "byte " + std::to_string(offsetOf(at));
  if (src_.isGzip()) s += " of the decompressed stream";
  s += " (line " + std::to_string(lineOf(at)) + ", column " + std::to_string(columnOf(at)) + ")";
  return s;
}

void JsonReadWindow::startPrefetch() {
  if (eof_ || cancelled_ || src_.isGzip()) return;
  if (!prefetch_) {
    spare_.resize(buf_.size());
    readAhead_ = std::make_unique<ReadAhead>(src_);
    prefetch_ = true;
  }
  readAhead_->start(spare_.data() + kCarryBytes, spare_.size() - kCarryBytes - kPadding);
}

bool JsonReadWindow::refill(const char* keepFrom) {
  if (eof_) return false;
  const size_t keep = static_cast<size_t>(data_ + len_ - keepFrom);
  if (keep >= kMaxJsonValueBytes) {
    unitTooLarge_ = true;
    return false;
  }
  const size_t drop = len_ - keep;
  // Count lines in what leaves the window so error lines stay right: with the window's
  // own count (prefetched bytes are counted on the read-ahead thread), only the kept
  // unit is counted here.
  const uint64_t keptLines = part_ ? 0 : countNewlines(keepFrom, data_ + len_);
  if (!part_) linesBefore_ += windowLines_ ? *windowLines_ - keptLines : countNewlines(data_, keepFrom);
  windowLines_.reset();
  base_ += drop;
  if (prefetch_) {
    const size_t n = readAhead_->wait();
    if (keep <= kCarryBytes) {
      windowLines_ = keptLines + readAhead_->lines();
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
  if (progress_) {
    // While a prefetch runs the source belongs to its thread: uncompressed input's
    // offset is the window's end.
    const uint64_t done = prefetch_ || part_ ? base_ + len_ : src_.consumed();
    if (!progress_(done, src_.totalSize())) cancelled_ = true;
  }
  return !cancelled_ && (len_ > keep);
}

}  // namespace opscope
