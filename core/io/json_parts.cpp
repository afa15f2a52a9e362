#include "io/json_parts.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <memory>

#include "io/byte_source.h"
#include "io/file_read.h"
#include "io/json_read_window.h"

namespace opscope {

namespace {

bool isWs(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::vector<uint64_t> guessEventStarts(const std::string& path, uint64_t from, uint64_t size, unsigned parts) {
  std::vector<uint64_t> cuts;
  if (parts < 2 || size <= from) return cuts;
  const Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0) return cuts;
  std::unique_ptr<char[]> buf(new char[kEventStartLookBytes]);
  for (unsigned k = 1; k < parts; ++k) {
    const uint64_t at = from + (size - from) / parts * k;
    if (!cuts.empty() && at <= cuts.back()) continue;
    const size_t n = readAt(f.fd, buf.get(), kEventStartLookBytes, at);
    const size_t i = findEventStart(buf.get(), n);
    if (i < n) cuts.push_back(at + i);
  }
  return cuts;
}

size_t findEventStart(const char* buf, size_t n) {
  for (size_t i = 1; i < n; ++i) {
    if (buf[i] != '{') continue;
    size_t j = i;
    while (j > 0 && isWs(buf[j - 1])) --j;
    if (j == 0 || buf[j - 1] != ',') continue;
    --j;
    while (j > 0 && isWs(buf[j - 1])) --j;
    if (j == 0 || buf[j - 1] != '}') continue;
    return i;
  }
  return n;
}

uint64_t gzipSizeGuess(const std::string& path) {
  const Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  struct stat st {};
  if (f.fd < 0 || ::fstat(f.fd, &st) != 0 || st.st_size < 18) return 0;
  const auto size = static_cast<uint64_t>(st.st_size);
  unsigned char tail[4];
  if (readAt(f.fd, reinterpret_cast<char*>(tail), 4, size - 4) != 4) return 0;
  uint64_t guess = tail[0] | uint64_t{tail[1]} << 8 | uint64_t{tail[2]} << 16 | uint64_t{tail[3]} << 24;
  // An empty last member (bgzip's end block) tells nothing; past 4 GiB the size wraps,
  // which only a file of more than 4 GiB / 100 compressed can have done.
  if (guess == 0) return 0;
  while (guess < 4 * size && size > (uint64_t{1} << 32) / 100) guess += uint64_t{1} << 32;
  // Outside 4-100x (a cut file's or appended bytes' last four): no trailer, no guess.
  return guess >= 4 * size && guess <= 100 * size ? guess : 0;
}

std::vector<uint64_t> linesAtOffsets(const std::string& path, const std::vector<uint64_t>& sortedOffsets) {
  std::vector<uint64_t> lines(sortedOffsets.size(), 0);
  std::string error;
  const std::unique_ptr<ByteSource> src = sortedOffsets.empty() ? nullptr : ByteSource::open(path, error);
  if (!src) return lines;
  std::unique_ptr<char[]> buf(new char[4u << 20]);
  uint64_t pos = 0, newlines = 0;
  for (size_t i = 0; i < sortedOffsets.size(); ++i) {
    while (pos < sortedOffsets[i]) {
      const size_t want = static_cast<size_t>(std::min<uint64_t>(4u << 20, sortedOffsets[i] - pos));
      const size_t n = src->read(buf.get(), want);
      if (n == 0) return lines;
      newlines += countNewlines(buf.get(), buf.get() + n);
      pos += n;
    }
    lines[i] = newlines + 1;
  }
  return lines;
}

}  // namespace opscope
