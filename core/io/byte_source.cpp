#include "io/byte_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <vector>

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
  Source(std::unique_ptr<RawInput> in, uint64_t total) : in_(std::move(in)) {
    total_ = total;
    raw_.resize(kRawChunk);
    fillRaw();
    gzip_ = rawEnd_ >= 2 && static_cast<unsigned char>(raw_[0]) == 0x1f &&
            static_cast<unsigned char>(raw_[1]) == 0x8b;
    if (gzip_) {
      std::memset(&z_, 0, sizeof z_);
      if (inflateInit2(&z_, 15 + 16) != Z_OK) error_ = "cannot initialise zlib";
      zInit_ = true;
    }
  }
  ~Source() override {
    if (zInit_) inflateEnd(&z_);
  }

  uint64_t consumed() const override { return rawConsumed_ - (rawEnd_ - rawPos_); }

  size_t read(char* dst, size_t cap) override {
    if (!error_.empty() || cap == 0) return 0;
    if (!gzip_) {
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
    z_.next_out = reinterpret_cast<Bytef*>(dst);
    z_.avail_out = static_cast<uInt>(std::min<size_t>(cap, 1u << 30));
    while (z_.avail_out > 0) {
      if (memberDone_) {
        // Another gzip member may follow (concatenated .gz files are one stream).
        if (rawPos_ == rawEnd_ && !fillRaw()) break;
        if (static_cast<unsigned char>(raw_[rawPos_]) != 0x1f) break;  // trailing garbage: stop
        inflateReset(&z_);
        memberDone_ = false;
      }
      if (rawPos_ == rawEnd_ && !fillRaw()) {
        // Input ended inside a member: the job that wrote it died.
        truncated_ = true;
        break;
      }
      z_.next_in = reinterpret_cast<Bytef*>(raw_.data() + rawPos_);
      z_.avail_in = static_cast<uInt>(rawEnd_ - rawPos_);
      const int rc = inflate(&z_, Z_NO_FLUSH);
      rawPos_ = rawEnd_ - z_.avail_in;
      if (rc == Z_STREAM_END) {
        memberDone_ = true;
        continue;
      }
      if (rc == Z_BUF_ERROR) continue;  // needs more input
      if (rc != Z_OK) {
        error_ = std::string("corrupt gzip data near compressed byte ") + std::to_string(consumed()) +
                 ": " + (z_.msg ? z_.msg : "inflate failed");
        break;
      }
    }
    return cap - z_.avail_out;
  }

  std::unique_ptr<RawInput> in_;
  std::vector<char> raw_;
  size_t rawPos_ = 0, rawEnd_ = 0;
  uint64_t rawConsumed_ = 0;
  bool eof_ = false;
  z_stream z_;
  bool zInit_ = false;
  bool memberDone_ = false;
};

}  // namespace

std::unique_ptr<ByteSource> ByteSource::open(const std::string& path, std::string& error) {
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
  auto src = std::make_unique<Source>(std::make_unique<FileInput>(fd), static_cast<uint64_t>(st.st_size));
  if (!src->error().empty()) {
    error = src->error();
    return nullptr;
  }
  return src;
}

std::unique_ptr<ByteSource> ByteSource::fromMemory(std::string bytes) {
  const uint64_t n = bytes.size();
  return std::make_unique<Source>(std::make_unique<MemoryInput>(std::move(bytes)), n);
}

std::string describeMagic(const unsigned char* b, size_t n) {
  auto starts = [&](const char* magic, size_t len) { return n >= len && std::memcmp(b, magic, len) == 0; };
  if (starts("\x89PNG", 4)) return "a PNG image";
  if (starts("\xFF\xD8\xFF", 3)) return "a JPEG image";
  if (starts("%PDF", 4)) return "a PDF document";
  if (starts("PK\x03\x04", 4)) return "a zip archive";
  if (starts("\x28\xB5\x2F\xFD", 4)) return "zstd-compressed data (decompress it with zstd -d first)";
  if (starts("BZh", 3)) return "bzip2-compressed data (decompress it with bunzip2 first)";
  if (starts("\xFD" "7zXZ", 5)) return "xz-compressed data (decompress it with unxz first)";
  if (starts("SQLite format 3", 15)) return "an SQLite database";
  if (starts("\x7F" "ELF", 4)) return "an ELF executable";
  if (starts("\x1f\x8b", 2)) return "gzip data inside gzip";
  return {};
}

}  // namespace opscope
