#include "io/side_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "io/input_limits.h"
#include "text/clip.h"

namespace opscope {

const char* sideInputName(SideInputKind kind) {
  switch (kind) {
    case SideInputKind::GpuFile:
      return "GPU file";
    case SideInputKind::KernelClasses:
      return "kernel classes file";
    case SideInputKind::Overheads:
      return "overheads file";
    case SideInputKind::Microbench:
      return "microbenchmark table";
    case SideInputKind::Efficiency:
      return "efficiency table";
  }
  return "side input";
}

size_t sideInputCeiling(SideInputKind kind) {
  switch (kind) {
    case SideInputKind::Microbench:
      return size_t{16} << 20;
    case SideInputKind::Efficiency:  // a fitted table is ~20 KiB
    case SideInputKind::GpuFile:
    case SideInputKind::KernelClasses:
    case SideInputKind::Overheads:
      return size_t{1} << 20;
  }
  return size_t{1} << 20;
}

namespace {

std::string ceilingText(size_t bytes) {
  return bytes >= (size_t{1} << 20) ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes >> 10) + " KiB";
}

}  // namespace

SideRead readSideInput(const std::string& path, SideInputKind kind) {
  SideRead r;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    r.status = SideReadStatus::IoError;
    r.error = std::string("cannot open: ") + std::strerror(errno);
    return r;
  }
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    r.status = SideReadStatus::IoError;
    r.error = std::string("is a directory; a ") + sideInputName(kind) + " is a file";
    return r;
  }
  const size_t ceiling = sideInputCeiling(kind);
  // Read one byte past the ceiling to tell "exactly the ceiling" from "more".
  std::string text;
  size_t size = 0;
  for (;;) {
    if (text.size() < size + 65536) text.resize(std::min(size + 65536, ceiling + 1));
    if (size == ceiling + 1) break;
    const ssize_t n = ::read(fd, text.data() + size, text.size() - size);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int e = errno;
      ::close(fd);
      r.status = SideReadStatus::IoError;
      r.error = std::string("cannot read: ") + std::strerror(e);
      return r;
    }
    if (n == 0) break;
    size += static_cast<size_t>(n);
  }
  ::close(fd);
  if (size > ceiling) {
    r.status = SideReadStatus::Invalid;
    r.error = std::string("larger than ") + ceilingText(ceiling) + ", the ceiling for a " + sideInputName(kind);
    return r;
  }
  text.resize(size);
  if (text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
  r.text = std::move(text);
  return r;
}

std::optional<nlohmann::json> parseSideJson(std::string_view text, std::string& error) {
  // Nesting first, iteratively: nlohmann's copy, comparison and dump recurse per level.
  int depth = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\') ++i;
      else if (c == '"') inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) {
        error = "not JSON this reader accepts: nested deeper than " + std::to_string(kMaxJsonDepth) +
                " levels at byte " + std::to_string(i);
        return std::nullopt;
      }
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error
    // while parsing value - invalid literal; last read: 'x'": keep the reason, cut.
    const size_t colon = what.find(": ", what.find(']'));
    const std::string reason = colon == std::string::npos ? what : what.substr(colon + 2);
    error = "not JSON at byte " + std::to_string(e.byte) + ": " + clipForMessage(reason, 80);
  } catch (const nlohmann::json::exception& e) {
    std::string what = e.what();
    const size_t close = what.find("] ");
    error = "not JSON this reader accepts: " +
            clipForMessage(close == std::string::npos ? what : what.substr(close + 2), 80);
  }
  return std::nullopt;
}

}  // namespace opscope
