#include "io/byte_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "io/inflater.h"

namespace opscope {

namespace {

// Raw bytes: a file descriptor or a memory buffer.
class RawInput {
 public:
  virtual ~RawInput() = default;
  virtual ssize_t read(char* dst, size_t cap) = 0;  // -1 on error (errno set)
};

class FileInput final : public RawInput {
 public:
  explicit FileInput(int fd) : fd_(fd) {}
  ~FileInput() override { ::close(fd_); }
  ssize_t read(char* dst, size_t cap) override {
    for (;;) {
      const ssize_t n = ::read(fd_, dst, cap);
      if (n >= 0 || errno != EINTR) return n;
    }
  }

 private:
  int fd_;
};

class MemoryInput final : public RawInput {
 public:
  explicit MemoryInput(std::string b) : bytes_(std::move(b)) {}
  ssize_t read(char* dst, size_t cap) override {
    const size_t n = std::min(cap, bytes_.size() - pos_);
    std::memcpy(dst, bytes_.data() + pos_, n);
    pos_ += n;
    return static_cast<ssize_t>(n);
  }

 private:
  std::string bytes_;
  size_t pos_ = 0;
};

constexpr size_t kRawChunk = 1 << 20;

// Peeks the first bytes, then serves them before the rest of the input.
class Source final : public ByteSource {
 public:
  Source(std::unique_ptr<RawInput> in, uint64_t total, InflateEngine engine) : in_(std::move(in)) {
    total_ = total;
    // Small inputs get a small buffer (a fresh 1 MiB costs page faults on every load).
    raw_.resize(total > 0 && total < kRawChunk ? static_cast<size_t>(total) + 1 : kRawChunk);
    fillRaw();
    gzip_ = rawEnd_ >= 2 && static_cast<unsigned char>(raw_[0]) == 0x1f && static_cast<unsigned char>(raw_[1]) == 0x8b;
    if (gzip_) {
      inflater_ = makeInflater(engine);
      if (!inflater_) error_ = "this build has no ISA-L";
    }
  }

  uint64_t consumed() const override { return rawConsumed_ - (rawEnd_ - rawPos_); }

  size_t readMore(char* dst, size_t cap) override {
    if (!error_.empty() || cap == 0) return 0;
    if (!gzip_) {
      if (rawPos_ == rawEnd_ && cap >= raw_.size() && !eof_) {
        // Large reads go straight into the caller's buffer: no second copy of the file.
        const ssize_t n = in_->read(dst, cap);
        if (n < 0) {
          error_ = std::string("read error: ") + std::strerror(errno);
          eof_ = true;
          return 0;
        }
        rawConsumed_ += static_cast<uint64_t>(n);
        if (n == 0) eof_ = true;
        return static_cast<size_t>(n);
      }
      if (rawPos_ == rawEnd_ && !fillRaw()) return 0;
      const size_t n = std::min(cap, rawEnd_ - rawPos_);
      std::memcpy(dst, raw_.data() + rawPos_, n);
      rawPos_ += n;
      return n;
    }
    return inflateInto(dst, cap);
  }

 private:
  bool fillRaw() {
    if (eof_) return false;
    const ssize_t n = in_->read(raw_.data(), raw_.size());
    if (n < 0) {
      error_ = std::string("read error: ") + std::strerror(errno);
      eof_ = true;
      rawPos_ = rawEnd_ = 0;
      return false;
    }
    rawPos_ = 0;
    rawEnd_ = static_cast<size_t>(n);
    rawConsumed_ += static_cast<uint64_t>(n);
    if (n == 0) eof_ = true;
    return n > 0;
  }

  size_t inflateInto(char* dst, size_t cap) {
    char* out = dst;
    size_t room = cap;
    while (room > 0) {
      if (memberDone_) {
        // Another gzip member may follow (concatenated .gz files are one stream).
        if (rawPos_ == rawEnd_ && !fillRaw()) break;
        if (static_cast<unsigned char>(raw_[rawPos_]) != 0x1f) {  // trailing garbage: stop, say where
          if (trailingAt_ == 0) trailingAt_ = consumed();
          break;
        }
        inflater_->reset();
        memberDone_ = false;
      }
      if (rawPos_ == rawEnd_ && !fillRaw()) {
        // Input ended inside a member: the job that wrote it died.
        truncated_ = true;
        break;
      }
      const unsigned char* in = reinterpret_cast<const unsigned char*>(raw_.data() + rawPos_);
      size_t inLen = rawEnd_ - rawPos_;
      const Inflater::Step step = inflater_->step(in, inLen, out, room);
      rawPos_ = rawEnd_ - inLen;
      if (step == Inflater::Step::kMemberEnd) memberDone_ = true;
      if (step == Inflater::Step::kError) {
        error_ = "corrupt gzip data near compressed byte " + std::to_string(consumed()) + ": " + inflater_->error();
        break;
      }
    }
    return cap - room;
  }

  std::unique_ptr<RawInput> in_;
  std::vector<char> raw_;
  size_t rawPos_ = 0, rawEnd_ = 0;
  uint64_t rawConsumed_ = 0;
  bool eof_ = false;
  std::unique_ptr<Inflater> inflater_;
  bool memberDone_ = false;
};

// Inflates on a thread of its own so decompression overlaps parsing (zlib runs at
// about 1 GB/s here, as fast as the parser: serially the two would add up).
// A bounded queue of chunks keeps memory at a few MiB whatever the file size.
class ThreadedSource final : public ByteSource {
 public:
  explicit ThreadedSource(std::unique_ptr<ByteSource> inner) : inner_(std::move(inner)) {
    total_ = inner_->totalSize();
    gzip_ = inner_->isGzip();
    worker_ = std::thread([this] { produce(); });
  }
  ~ThreadedSource() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    worker_.join();
  }

  uint64_t consumed() const override { return consumed_.load(std::memory_order_relaxed); }

  size_t readMore(char* dst, size_t cap) override {
    size_t done = 0;
    while (done < cap) {
      if (pos_ == current_.size) {
        std::unique_lock<std::mutex> lock(mu_);
        if (current_.bytes) spare_.push_back(std::move(current_));
        current_ = Chunk{};
        pos_ = 0;
        cv_.notify_all();
        cv_.wait(lock, [&] { return !full_.empty() || finished_; });
        if (full_.empty()) {
          truncated_ = innerTruncated_;
          trailingAt_ = innerTrailingAt_;
          error_ = innerError_;
          break;
        }
        current_ = std::move(full_.front());
        full_.pop_front();
      }
      const size_t n = std::min(cap - done, current_.size - pos_);
      std::memcpy(dst + done, current_.bytes.get() + pos_, n);
      pos_ += n;
      done += n;
    }
    return done;
  }

 private:
  // Inflated bytes in flight. Chunks are not zeroed (every byte served was written),
  // and they grow from 64 KiB to 2 MiB, so a small input costs no megabytes of fresh
  // pages while a large one still moves in big steps.
  struct Chunk {
    std::unique_ptr<char[]> bytes;
    size_t capacity = 0, size = 0;
  };
  static constexpr size_t kFirstChunk = 64u << 10;
  static constexpr size_t kChunk = 2u << 20;
  static constexpr size_t kQueued = 2;

  void produce() {
    size_t want = kFirstChunk;
    for (;;) {
      Chunk chunk;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return stop_ || full_.size() < kQueued; });
        if (stop_) break;
        if (!spare_.empty()) {
          chunk = std::move(spare_.back());
          spare_.pop_back();
        }
      }
      if (chunk.capacity < want) {
        chunk.bytes.reset(new char[want]);
        chunk.capacity = want;
      }
      size_t filled = 0;
      while (filled < chunk.capacity) {
        const size_t n = inner_->read(chunk.bytes.get() + filled, chunk.capacity - filled);
        if (n == 0) break;
        filled += n;
      }
      const bool ended = filled < chunk.capacity;
      chunk.size = filled;
      want = std::min(want * 2, kChunk);
      consumed_.store(inner_->consumed(), std::memory_order_relaxed);
      std::lock_guard<std::mutex> lock(mu_);
      if (filled > 0) full_.push_back(std::move(chunk));
      if (ended) {
        innerTruncated_ = inner_->truncated();
        innerTrailingAt_ = inner_->trailingAt();
        innerError_ = inner_->error();
        finished_ = true;
        cv_.notify_all();
        break;
      }
      cv_.notify_all();
    }
  }

  std::unique_ptr<ByteSource> inner_;
  std::thread worker_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Chunk> full_;
  std::vector<Chunk> spare_;
  bool stop_ = false, finished_ = false, innerTruncated_ = false;
  uint64_t innerTrailingAt_ = 0;
  std::string innerError_;
  std::atomic<uint64_t> consumed_{0};
  Chunk current_;  // consumer side only
  size_t pos_ = 0;
};

std::unique_ptr<ByteSource> overlapped(std::unique_ptr<Source> src) {
  if (!src->isGzip()) return src;
  return std::make_unique<ThreadedSource>(std::move(src));
}

}  // namespace

namespace {
// OPSCOPE_INFLATE=zlib reads gzip with zlib instead of ISA-L: the benchmarks' before.
InflateEngine engineFromEnvironment() {
  const char* e = std::getenv("OPSCOPE_INFLATE");
  return e && std::strcmp(e, "zlib") == 0 ? InflateEngine::kZlib : InflateEngine::kBest;
}
}  // namespace

std::unique_ptr<ByteSource> ByteSource::open(const std::string& path, std::string& error, bool inflateAhead) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot open " + path + ": " + std::strerror(errno);
    return nullptr;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    error = "cannot read " + path + ": " + (S_ISDIR(st.st_mode) ? "is a directory" : std::strerror(errno));
    ::close(fd);
    return nullptr;
  }
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  auto src = std::make_unique<Source>(std::make_unique<FileInput>(fd), static_cast<uint64_t>(st.st_size),
                                      engineFromEnvironment());
  if (!src->error().empty()) {
    error = src->error();
    return nullptr;
  }
  std::unique_ptr<ByteSource> out = inflateAhead ? overlapped(std::move(src)) : std::move(src);
  if (S_ISREG(st.st_mode)) {
    out->rereadablePath_ = path;
    out->fileDev_ = static_cast<uint64_t>(st.st_dev);
    out->fileIno_ = static_cast<uint64_t>(st.st_ino);
    out->mtimeNs_ = static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
    if (!out->isGzip()) out->randomAccessPath_ = path;
  }
  return out;
}

std::unique_ptr<ByteSource> ByteSource::openAt(const std::string& path, uint64_t offset, std::string& error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      ::lseek(fd, static_cast<off_t>(offset), SEEK_SET) != static_cast<off_t>(offset)) {
    error = "cannot read " + path + " from byte " + std::to_string(offset) + ": " + std::strerror(errno);
    if (fd >= 0) ::close(fd);
    return nullptr;
  }
  ::posix_fadvise(fd, static_cast<off_t>(offset), 0, POSIX_FADV_SEQUENTIAL);
  // The plain engine: bytes at an offset are never a gzip header (the caller parses JSON there).
  auto src = std::make_unique<Source>(std::make_unique<FileInput>(fd), static_cast<uint64_t>(st.st_size),
                                      InflateEngine::kZlib);
  if (src->isGzip()) {
    error = "the bytes of " + path + " at " + std::to_string(offset) + " look like gzip";
    return nullptr;
  }
  src->randomAccessPath_ = path;
  src->fileDev_ = static_cast<uint64_t>(st.st_dev);
  src->fileIno_ = static_cast<uint64_t>(st.st_ino);
  src->mtimeNs_ = static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  return src;
}

std::unique_ptr<ByteSource> ByteSource::fromMemory(std::string bytes, InflateEngine engine) {
  const uint64_t n = bytes.size();
  return overlapped(std::make_unique<Source>(std::make_unique<MemoryInput>(std::move(bytes)), n, engine));
}

std::string describeMagic(const unsigned char* b, size_t n) {
  auto starts = [&](const char* magic, size_t len) { return n >= len && std::memcmp(b, magic, len) == 0; };
  if (starts("\x89PNG", 4)) return "a PNG image";
  if (starts("\xFF\xD8\xFF", 3)) return "a JPEG image";
  if (starts("%PDF", 4)) return "a PDF document";
  if (starts("PK\x03\x04", 4)) return "a zip archive";
  if (starts("\x28\xB5\x2F\xFD", 4)) return "zstd-compressed data (decompress it with zstd -d first)";
  if (starts("BZh", 3)) return "bzip2-compressed data (decompress it with bunzip2 first)";
  if (starts("\xFD"
             "7zXZ",
             5))
    return "xz-compressed data (decompress it with unxz first)";
  if (starts("SQLite format 3", 15)) return "an SQLite database";
  if (starts("\x7F"
             "ELF",
             4))
    return "an ELF executable";
  if (starts("\x1f\x8b", 2)) return "gzip data inside gzip";
  return {};
}

void drainForTrailing(ByteSource& src, uint64_t limit) {
  if (!src.isGzip()) return;
  std::vector<char> scratch(1 << 16);
  uint64_t read = 0;
  while (read < limit) {
    const size_t n = src.read(scratch.data(), scratch.size());
    if (n == 0) break;
    read += n;
  }
}

std::string readUpTo(ByteSource& src, size_t n) {
  // Grown as bytes arrive: a short input costs no zeroed 64 KiB head.
  std::string out(std::min<size_t>(n, 4096), '\0');
  size_t got = 0;
  for (;;) {
    if (got == out.size()) {
      if (got == n) break;
      out.resize(std::min(n, out.size() * 2));
    }
    const size_t k = src.read(out.data() + got, out.size() - got);
    if (k == 0) break;
    got += k;
  }
  out.resize(got);
  return out;
}

std::string peekHead(ByteSource& src, size_t n) {
  std::string head = readUpTo(src, n);
  src.unread(head);
  return head;
}

void ByteSource::takeEndFrom(const ByteSource& other) {
  truncated_ = other.truncated_;
  trailingAt_ = other.trailingAt_;
  endedElsewhere_ = true;
}

size_t ByteSource::read(char* dst, size_t cap) {
  if (endedElsewhere_) return 0;
  if (pushedPos_ < pushedBack_.size()) {
    const size_t n = std::min(cap, pushedBack_.size() - pushedPos_);
    std::memcpy(dst, pushedBack_.data() + pushedPos_, n);
    pushedPos_ += n;
    if (pushedPos_ == pushedBack_.size()) {
      pushedBack_.clear();
      pushedBack_.shrink_to_fit();
      pushedPos_ = 0;
    }
    return n;
  }
  return readMore(dst, cap);
}

void ByteSource::unread(std::string bytes) {
  if (bytes.empty()) return;
  // Anything still pending goes after the bytes given back now.
  bytes.append(pushedBack_, pushedPos_, std::string::npos);
  pushedBack_ = std::move(bytes);
  pushedPos_ = 0;
}

}  // namespace opscope
