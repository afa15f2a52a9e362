#pragma once
// The bytes of a JSON stream as one window sliding over it: what the Chrome loader's
// tokenizer reads from. A refill keeps the unfinished unit (an event, a top-level
// value) and reads on; uncompressed input is double-buffered (a helper thread reads the
// next window while this one is parsed); a unit larger than kMaxJsonValueBytes is
// refused rather than held. Positions are reported as the byte of the (decompressed)
// stream with its line and column.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "io/byte_source.h"
#include "model/pod_column.h"

namespace opscope {

class ReadAhead;

// Window storage: not zeroed when allocated (every byte is written by a read before it
// is parsed; zeroing the windows cost 9 % of loading a 100 MB file), in a PodColumn
// (a mapping of its own, reused window after window).
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

// '\n' bytes in [b, e).
uint64_t countNewlines(const char* b, const char* e);

class JsonReadWindow {
 public:
  // progress(bytes done, bytes in all): false cancels.
  JsonReadWindow(ByteSource& src, std::function<bool(uint64_t, uint64_t)> progress);
  // A part of a file read in parallel (io/chrome_json_loader.cpp): src starts at byte
  // `base` of the file; lines are not counted (lineOf says 0, "unknown": the merge
  // counts them for the few positions it reports) and progress is the window's end.
  JsonReadWindow(ByteSource& src, std::function<bool(uint64_t, uint64_t)> progress, uint64_t base);
  ~JsonReadWindow();

  // Keeps [keepFrom, end) and reads on; false at the end of the input, when cancelled
  // or when the kept unit reached the ceiling (unitTooLarge). The window may move:
  // pointers into it are stale afterwards (data() is the kept unit's first byte).
  bool refill(const char* keepFrom);
  // Starts the double buffering (uncompressed input only).
  void startPrefetch();
  // Waits for a read in flight: the source is the caller's again.
  void finish();

  const char* data() const { return data_; }
  size_t size() const { return len_; }
  uint64_t base() const { return base_; }  // stream offset of data()[0]
  uint64_t end() const { return base_ + len_; }
  bool cancelled() const { return cancelled_; }
  bool unitTooLarge() const { return unitTooLarge_; }
  uint64_t peakBytes() const { return peakWindow_; }

  uint64_t offsetOf(const char* at) const { return base_ + static_cast<uint64_t>(at - data_); }
  uint64_t lineOf(const char* at) const { return part_ ? 0 : linesBefore_ + 1 + countNewlines(data_, at); }
  uint64_t columnOf(const char* at) const;
  // "byte N[ of the decompressed stream] (line L, column C)".
  std::string where(const char* at) const;

 private:
  ByteSource& src_;
  std::function<bool(uint64_t, uint64_t)> progress_;
  RawBuffer buf_;                         // the window's storage
  char* data_ = nullptr;                  // the window: in buf_, after up to kCarryBytes of headroom
  size_t len_ = 0;                        // valid bytes at data_
  uint64_t base_ = 0;                     // stream offset of data_[0]
  RawBuffer spare_;                       // the other window, being filled by the prefetch
  std::unique_ptr<ReadAhead> readAhead_;  // declared after spare_: joined before it is freed
  bool prefetch_ = false;
  bool part_ = false;
  uint64_t linesBefore_ = 0;
  // Newlines in [data_, data_ + len_) when known (a prefetched window), else counted
  // from the dropped bytes at the next refill.
  std::optional<uint64_t> windowLines_;
  bool eof_ = false;
  bool cancelled_ = false;
  bool unitTooLarge_ = false;  // one unit passed kMaxJsonValueBytes
  uint64_t peakWindow_ = 0;
};

}  // namespace opscope
