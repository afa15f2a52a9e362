#include "io/file_args.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "io/args_text.h"
#include "io/file_read.h"

namespace opscope {

namespace {

// Args objects are small (Kineto: a few hundred bytes); one read usually does, and a
// larger object doubles the read until it fits or reaches this bound.
constexpr size_t kFirstRead = 4096;
constexpr size_t kMaxArgsBytes = size_t{256} << 20;

void setError(std::string* error, std::string text) {
  if (error) *error = std::move(text);
}

// The trace file, open for one read or one batch, closed when this goes.
struct OpenFile {
  int fd = -1;
  ~OpenFile() {
    if (fd >= 0) ::close(fd);
  }
};

// Opens path and checks that it is still the file loaded (its size and modification
// time); false with the one-line error otherwise.
bool openUnchanged(const std::string& path, uint64_t size, int64_t mtimeNs, OpenFile& file, std::string* error) {
  file.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (file.fd < 0) {
    setError(error, "cannot read args from " + path + ": " + std::strerror(errno));
    return false;
  }
  struct stat st {};
  const int64_t mtime =
      ::fstat(file.fd, &st) == 0 ? static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec : -1;
  if (mtime != mtimeNs || static_cast<uint64_t>(st.st_size) != size) {
    setError(error, path + " changed since it was loaded: reload it to see args");
    return false;
  }
  return true;
}

std::string pastTheEnd(uint64_t at, const std::string& path) {
  return "args at byte " + std::to_string(at) + " of " + path + " run past the end of the file";
}

std::string syntaxError(uint64_t at, const std::string& path, const SyntaxError& e) {
  return "args at byte " + std::to_string(at) + " of " + path + ": " + e.expected;
}

}  // namespace

std::vector<NamedArg> FileArgs::read(uint64_t offset, std::string* error) const {
  OpenFile file;
  if (!openUnchanged(path_, size_, mtimeNs_, file, error)) return {};
  if (offset >= size_) {
    setError(error, path_ + " changed since it was loaded: reload it to see args");
    return {};
  }
  std::vector<char> buf;
  for (size_t want = kFirstRead;; want *= 2) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(want, size_ - offset));
    buf.assign(n + kPadding, '\0');
    const size_t got = readAt(file.fd, buf.data(), n, offset);
    JsonScanner sc;
    sc.reset(buf.data(), buf.data() + got);
    std::vector<RawArg> raw;
    try {
      scanArgsObject(sc, raw);
      std::vector<NamedArg> out;
      out.reserve(raw.size());
      for (const RawArg& a : raw) out.push_back(toNamedArg(a));
      return out;
    } catch (const NeedMore&) {
      if (got < n || n == size_ - offset || want >= kMaxArgsBytes) {
        setError(error, pastTheEnd(offset, path_));
        return {};
      }
    } catch (const SyntaxError& e) {
      setError(error, syntaxError(offset, path_, e));
      return {};
    }
  }
}

bool FileArgs::readMany(std::span<const uint64_t> offsets, const Sink& sink, std::string* error,
                        const KeyFilter* keep) const {
  if (offsets.empty()) return true;
  OpenFile file;
  if (!openUnchanged(path_, size_, mtimeNs_, file, error)) return false;
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
    const size_t got = readAt(file.fd, buf.data(), n, from);
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
      setError(error, pastTheEnd(at, path_));
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
          setError(error, pastTheEnd(at, path_));
          return false;
        }
        fill(at, std::max(kWindow, 2 * seen));
      } catch (const SyntaxError& e) {
        setError(error, syntaxError(at, path_, e));
        return false;
      }
    }
  }
  return true;
}

}  // namespace opscope
