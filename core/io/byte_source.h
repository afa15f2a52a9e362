#pragma once
// Sequential bytes of a trace file, gunzipped on the fly when the file starts with the
// gzip magic bytes (the file name is never consulted). Concatenated gzip members are
// read as one stream. A gzip stream that ends early reports truncated() instead of
// failing, so the loader can keep what came before the cut.
#include <cstdint>
#include <memory>
#include <string>

#include "io/inflater.h"

namespace opscope {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Opens path; on failure returns nullptr and sets error to one line. Gzip is inflated
  // on a thread of its own, ahead of the reader, unless `inflateAhead` is false (then in
  // read(), on the reader's thread: a gzip file's later parts, when every core parses).
  static std::unique_ptr<ByteSource> open(const std::string& path, std::string& error, bool inflateAhead = true);
  // A regular file's bytes from `offset` on, never gunzipped (a part of a plain file
  // read in parallel); totalSize() is the whole file's, randomAccessPath() the path.
  static std::unique_ptr<ByteSource> openAt(const std::string& path, uint64_t offset, std::string& error);
  // Reads over an in-memory buffer (tests, embedded fixtures); gzip detected as for files.
  // Files take ISA-L unless OPSCOPE_INFLATE=zlib (the benchmarks' reference run).
  static std::unique_ptr<ByteSource> fromMemory(std::string bytes, InflateEngine engine = InflateEngine::kBest);

  // Fills up to cap bytes; returns 0 at the end of the stream or on error (see error()).
  // Bytes given back with unread() come first.
  size_t read(char* dst, size_t cap);
  // Puts bytes this source returned back in front of its stream, so a reader that
  // sniffed the head of an input (format detection) hands the same source on instead of
  // opening the file again: a pipe, a FIFO or /dev/stdin can only be read once.
  void unread(std::string bytes);
  // Bytes of the underlying file consumed so far (compressed bytes for gzip).
  virtual uint64_t consumed() const = 0;
  uint64_t totalSize() const { return total_; }
  bool isGzip() const { return gzip_; }
  bool truncated() const { return truncated_; }
  // gzip: the compressed byte at which bytes that are not a gzip member follow the last
  // member read (trailing garbage: they are not read); 0 when none was met. Only known
  // once the stream was read to its end (drainForTrailing).
  uint64_t trailingAt() const { return trailingAt_; }
  const std::string& error() const { return error_; }
  // The stream's end was read by another source of the same file (the last part of a
  // gzip file loaded in parallel): its truncation and trailing bytes become this
  // source's, and this one reads nothing more.
  void takeEndFrom(const ByteSource& other);
  // The path when the stream is a regular file's own bytes (not gzip, not a pipe), so
  // parts of it can be read again later by offset (lazy args); empty otherwise.
  const std::string& randomAccessPath() const { return randomAccessPath_; }
  // The path when the stream can be opened again and read from its start: a regular
  // file's, gzip or not (a gzip file's later parts are parsed from streams of their own).
  const std::string& rereadablePath() const { return rereadablePath_; }
  int64_t fileMtimeNs() const { return mtimeNs_; }
  // Both opened the same regular file, unchanged between (device, inode, size, time).
  bool sameFileAs(const ByteSource& o) const {
    return fileIno_ != 0 && fileDev_ == o.fileDev_ && fileIno_ == o.fileIno_ && total_ == o.total_ &&
           mtimeNs_ == o.mtimeNs_;
  }

 protected:
  virtual size_t readMore(char* dst, size_t cap) = 0;
  uint64_t total_ = 0;
  bool gzip_ = false;
  bool truncated_ = false;
  uint64_t trailingAt_ = 0;
  std::string error_;
  std::string randomAccessPath_;
  std::string rereadablePath_;
  int64_t mtimeNs_ = 0;
  uint64_t fileDev_ = 0, fileIno_ = 0;

 private:
  std::string pushedBack_;
  size_t pushedPos_ = 0;
  bool endedElsewhere_ = false;
};

// Reads a gzip source to its end after a loader stopped at the end of what it parses
// (JSON ignores what follows its top-level value), so trailing garbage after the last
// member is seen (trailingAt); at most limit bytes are inflated. Plain sources: nothing.
void drainForTrailing(ByteSource& src, uint64_t limit = uint64_t{1} << 30);

// Up to n bytes from the source's current position (fewer at its end): the head of
// a file for format detection.
std::string readUpTo(ByteSource& src, size_t n);
// The next n bytes (fewer at the end), left in the source to be read again.
std::string peekHead(ByteSource& src, size_t n);
// Describes well-known binary formats from their first bytes ("PNG image", "zstd
// data", ...); empty when nothing matches.
std::string describeMagic(const unsigned char* bytes, size_t n);

}  // namespace opscope
