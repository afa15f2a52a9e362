#include "io/json_parts.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <memory>

#include "io/file_read.h"
#include "io/json_read_window.h"

namespace opscope {

namespace {

constexpr size_t kLookBytes = 1u << 20;

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
  std::unique_ptr<char[]> buf(new char[kLookBytes]);
  for (unsigned k = 1; k < parts; ++k) {
    const uint64_t at = from + (size - from) / parts * k;
    if (!cuts.empty() && at <= cuts.back()) continue;
    const size_t n = readAt(f.fd, buf.get(), kLookBytes, at);
    for (size_t i = 1; i < n; ++i) {
      if (buf[i] != '{') continue;
      size_t j = i;
      while (j > 0 && isWs(buf[j - 1])) --j;
      if (j == 0 || buf[j - 1] != ',') continue;
      --j;
      while (j > 0 && isWs(buf[j - 1])) --j;
      if (j == 0 || buf[j - 1] != '}') continue;
      cuts.push_back(at + i);
      break;
    }
  }
  return cuts;
}

std::vector<uint64_t> linesAtOffsets(const std::string& path, const std::vector<uint64_t>& sortedOffsets) {
  std::vector<uint64_t> lines(sortedOffsets.size(), 0);
  const Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0 || sortedOffsets.empty()) return lines;
  std::unique_ptr<char[]> buf(new char[4u << 20]);
  uint64_t pos = 0, newlines = 0;
  for (size_t i = 0; i < sortedOffsets.size(); ++i) {
    while (pos < sortedOffsets[i]) {
      const size_t want = static_cast<size_t>(std::min<uint64_t>(4u << 20, sortedOffsets[i] - pos));
      const size_t n = readAt(f.fd, buf.get(), want, pos);
      if (n == 0) return lines;
      newlines += countNewlines(buf.get(), buf.get() + n);
      pos += n;
    }
    lines[i] = newlines + 1;
  }
  return lines;
}

}  // namespace opscope
