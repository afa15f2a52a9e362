#include "io/file_args.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "io/args_text.h"

namespace opscope {

namespace {

// Args objects are small (Kineto: a few hundred bytes); one read usually does, and a
// larger object doubles the read until it fits or reaches this bound.
constexpr size_t kFirstRead = 4096;
constexpr size_t kMaxArgsBytes = size_t{256} << 20;

void setError(std::string* error, std::string text) {
  if (error) *error = std::move(text);
}

}  // namespace

std::vector<NamedArg> FileArgs::read(uint64_t offset, std::string* error) const {
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    setError(error, "cannot read args from " + path_ + ": " + std::strerror(errno));
    return {};
  }
  struct stat st {};
  const int64_t mtime =
      ::fstat(fd, &st) == 0 ? static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec : -1;
  if (mtime != mtimeNs_ || static_cast<uint64_t>(st.st_size) != size_ || offset >= size_) {
    ::close(fd);
    setError(error, path_ + " changed since it was loaded: reload it to see args");
    return {};
  }
  std::vector<char> buf;
  for (size_t want = kFirstRead;; want *= 2) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(want, size_ - offset));
    buf.assign(n + kPadding, '\0');
    size_t got = 0;
    while (got < n) {
      const ssize_t r = ::pread(fd, buf.data() + got, n - got, static_cast<off_t>(offset + got));
      if (r <= 0) break;
      got += static_cast<size_t>(r);
    }
    JsonScanner sc;
    sc.reset(buf.data(), buf.data() + got);
    std::vector<RawArg> raw;
    try {
      scanArgsObject(sc, raw);
      ::close(fd);
      std::vector<NamedArg> out;
      out.reserve(raw.size());
      for (const RawArg& a : raw) out.push_back(toNamedArg(a));
      return out;
    } catch (const NeedMore&) {
      if (got < n || n == size_ - offset || want >= kMaxArgsBytes) {
        ::close(fd);
        setError(error, "args at byte " + std::to_string(offset) + " of " + path_ + " run past the end of the file");
        return {};
      }
    } catch (const SyntaxError& e) {
      ::close(fd);
      setError(error, "args at byte " + std::to_string(offset) + " of " + path_ + ": " + e.expected);
      return {};
    }
  }
}

bool FileArgs::readMany(std::span<const uint64_t> offsets, const Sink& sink, std::string* error,
                        const KeyFilter* keep) const {
  if (offsets.empty()) return true;
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    setError(error, "cannot read args from " + path_ + ": " + std::strerror(errno));
    return false;
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  const int64_t mtime =
      ::fstat(fd, &st) == 0 ? static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec : -1;
  if (mtime != mtimeNs_ || static_cast<uint64_t>(st.st_size) != size_) {
    setError(error, path_ + " changed since it was loaded: reload it to see args");
    return false;
  }
  std::vector<size_t> order(offsets.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return offsets[a] < offsets[b]; });
  constexpr size_t kWindow = size_t{1} << 20;
  std::vector<char> buf;  // the window's bytes, then kPadding NULs (json_scanner.h)
  uint64_t winStart = 0;
  size_t winLen = 0;
  bool cut = false;  // the last read got less than the file's size promised: it shrank since the check
  // The window [from, from + want), cut at the end of the file.
  auto fill = [&](uint64_t from, size_t want) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(want, size_ - from));
    buf.resize(n + kPadding);
    size_t got = 0;
    while (got < n) {
      const ssize_t r = ::pread(fd, buf.data() + got, n - got, static_cast<off_t>(from + got));
      if (r <= 0) break;
      got += static_cast<size_t>(r);
    }
    std::memset(buf.data() + got, 0, kPadding);
    winStart = from;
    winLen = got;
    cut = got < n;
  };
  JsonScanner sc;
  std::vector<RawArg> raw;
  for (size_t i : order) {
    const uint64_t at = offsets[i];
    if (at >= size_) {
      setError(error, "args at byte " + std::to_string(at) + " of " + path_ + " run past the end of the file");
      return false;
    }
    if (winLen == 0 || at < winStart || at >= winStart + winLen) fill(at, kWindow);
    for (;;) {
      sc.resetScratch();
      sc.reset(buf.data() + (at - winStart), buf.data() + winLen);
      raw.clear();
      try {
        scanArgsObject(sc, raw);
        std::vector<NamedArg> out;
        out.reserve(raw.size());
        for (const RawArg& a : raw)
          if (!keep || (*keep)(i, a.key)) out.push_back(toNamedArg(a));
        sink(i, std::move(out));
        break;
      } catch (const NeedMore&) {
        const size_t seen = static_cast<size_t>(winStart + winLen - at);
        if (cut || winStart + winLen >= size_ || seen >= kMaxArgsBytes) {  // cut: reading again cannot help
          setError(error, "args at byte " + std::to_string(at) + " of " + path_ + " run past the end of the file");
          return false;
        }
        fill(at, std::max(kWindow, 2 * seen));
      } catch (const SyntaxError& e) {
        setError(error, "args at byte " + std::to_string(at) + " of " + path_ + ": " + e.expected);
        return false;
      }
    }
  }
  return true;
}

}  // namespace opscope
