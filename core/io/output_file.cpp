#include "io/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>

namespace opscope {

namespace {

std::mutex& inputsMutex() {
  static std::mutex m;
  return m;
}
std::set<std::pair<dev_t, ino_t>>& inputs() {
  static std::set<std::pair<dev_t, ino_t>> s;
  return s;
}

bool isInput(const struct stat& st) {
  std::lock_guard<std::mutex> lock(inputsMutex());
  return inputs().count({st.st_dev, st.st_ino}) > 0;
}

std::string failure(const std::string& path, const char* what = nullptr) {
  return "cannot write " + path + ": " + (what ? what : std::strerror(errno));
}

// The file a chain of symbolic links ends at (the path itself when it is not a link);
// the final name may not exist yet. Empty after too many links.
std::string resolveLinks(std::string path) {
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    std::string target(PATH_MAX, '\0');
    const ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
    if (n < 0) return path;
    target.resize(static_cast<size_t>(n));
    if (!target.empty() && target[0] != '/') {
      const size_t slash = path.rfind('/');
      target = (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) + target;
    }
    path = std::move(target);
  }
  return {};
}

bool writeAll(int fd, std::string_view bytes) {
  const char* p = bytes.data();
  size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    left -= static_cast<size_t>(n);
  }
  return true;
}

mode_t currentUmask() {
  // umask() can only be read by setting it, which races with other threads: read the
  // kernel's report instead (Linux 4.7+), else assume the usual 022.
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  return 022;
}

// Writes the chunks it is handed, in order, on a thread of its own, so that the kernel's
// copy into the page cache (about a second a gigabyte on the development VM) runs beside
// the producing; at most kQueued chunks wait, so memory stays bounded.
class ChunkWriter {
 public:
  explicit ChunkWriter(int fd) : fd_(fd), thread_([this] { loop(); }) {}
  ~ChunkWriter() { finish(); }
  ChunkWriter(const ChunkWriter&) = delete;
  ChunkWriter& operator=(const ChunkWriter&) = delete;

  // Queues chunk (waiting while the queue is full); false once a write failed.
  bool put(std::string&& chunk) {
    std::unique_lock lock(mutex_);
    space_.wait(lock, [&] { return queue_.size() < kQueued || failed_; });
    if (failed_) return false;
    queue_.push_back(std::move(chunk));
    ready_.notify_one();
    return true;
  }
  // Writes what is queued and stops the thread; false when a write failed.
  bool finish() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    ready_.notify_one();
    if (thread_.joinable()) thread_.join();
    return !failed_;
  }

 private:
  static constexpr size_t kQueued = 8;

  void loop() {
    for (;;) {
      std::string chunk;
      {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [&] { return !queue_.empty() || done_; });
        if (queue_.empty()) return;  // finished and drained
        chunk = std::move(queue_.front());
        queue_.pop_front();
      }
      space_.notify_one();
      if (failed_) continue;  // drop the rest
      if (!writeAll(fd_, chunk)) {
        std::lock_guard lock(mutex_);
        failed_ = true;
        space_.notify_all();
      }
    }
  }

  const int fd_;
  std::mutex mutex_;
  std::condition_variable ready_, space_;
  std::deque<std::string> queue_;
  bool done_ = false;
  std::atomic<bool> failed_ = false;
  std::thread thread_;  // last: started once the members above exist
};

// Runs produce with every piece going to fd, gathered into 1 MiB writes (an ET+ hands
// over one piece a node) made on ChunkWriter's thread; false when a write failed (the
// pieces after it are dropped). An exception from produce is passed on, once what was
// queued is written.
bool produceInto(int fd, const std::function<void(const TextSink&)>& produce) {
  constexpr size_t kChunk = size_t{1} << 20;
  ChunkWriter writer(fd);
  bool ok = true;
  std::string pending;
  pending.reserve(kChunk);
  const auto handOver = [&] {
    ok = writer.put(std::move(pending));
    pending = std::string();
    pending.reserve(kChunk);
  };
  produce([&](std::string_view piece) {
    if (!ok) return;
    if (pending.size() + piece.size() > kChunk && !pending.empty()) handOver();
    if (ok && piece.size() > kChunk) {
      ok = writer.put(std::string(piece));
      return;
    }
    if (ok) pending.append(piece);
  });
  if (ok && !pending.empty()) handOver();
  return writer.finish() && ok;
}

// A new temporary file beside target, holding what produce gives, flushed; -1 on failure.
int writeTemporary(const std::string& target, const std::function<void(const TextSink&)>& produce, std::string& tmp,
                   std::string& error) {
  tmp = target + ".tmp.XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) {
    error = failure(target);
    return -1;
  }
  bool ok = false;
  try {
    ok = produceInto(fd, produce) && ::fsync(fd) == 0;
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  if (!ok) {
    error = failure(target);
    ::close(fd);
    ::unlink(tmp.c_str());
    return -1;
  }
  return fd;
}

// Copies the file behind from (read from its start) into to.
bool copyFile(int from, int to) {
  if (::lseek(from, 0, SEEK_SET) != 0) return false;
  std::string buffer(size_t{1} << 20, '\0');
  for (;;) {
    const ssize_t n = ::read(from, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) return true;
    if (!writeAll(to, std::string_view(buffer.data(), static_cast<size_t>(n)))) return false;
  }
}

}  // namespace

void protectInput(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  std::lock_guard<std::mutex> lock(inputsMutex());
  inputs().insert({st.st_dev, st.st_ino});
}

WriteStatus writeOutputFile(const std::string& path, std::string_view bytes, std::string& error) {
  return writeOutputFileWith(
      path, [&](const TextSink& put) { put(bytes); }, error);
}

WriteStatus writeOutputFileWith(const std::string& path, const std::function<void(const TextSink&)>& produce,
                                std::string& error) {
  const std::string target = resolveLinks(path);
  if (target.empty()) {
    error = failure(path, "too many levels of symbolic links");
    return WriteStatus::Failed;
  }
  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) {
    error = failure(path);
    return WriteStatus::Failed;
  }
  if (exists) {
    if (isInput(st)) {
      error = "refusing to write " + path + ": it is the input being read (choose another output name)";
      return WriteStatus::IsInput;
    }
    if (S_ISDIR(st.st_mode)) {
      error = failure(path, "is a directory");
      return WriteStatus::Failed;
    }
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
      const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd < 0) {
        error = failure(path);
        return WriteStatus::Failed;
      }
      bool ok = false;
      try {
        ok = produceInto(fd, produce);
      } catch (...) {
        ::close(fd);
        throw;
      }
      if (!ok) {
        error = failure(path);
        ::close(fd);
        return WriteStatus::Failed;
      }
      ::close(fd);
      return WriteStatus::Ok;
    }
    if (!S_ISREG(st.st_mode)) {
      error = failure(path, "not a regular file, a device or a FIFO");
      return WriteStatus::Failed;
    }
  }
  std::string tmp;
  const int fd = writeTemporary(target, produce, tmp, error);
  if (fd < 0) return WriteStatus::Failed;
  if (exists && st.st_nlink > 1) {
    // Hard links: the bytes are safe in tmp; now copied into the file itself, keeping its
    // inode.
    const int out = ::open(target.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    const bool ok = out >= 0 && copyFile(fd, out) && ::fsync(out) == 0;
    ::close(fd);
    if (!ok) error = failure(path) + " (its content is kept in " + tmp + ")";
    if (out >= 0) ::close(out);
    if (ok) ::unlink(tmp.c_str());
    return ok ? WriteStatus::Ok : WriteStatus::Failed;
  }
  // mkstemp creates 0600: a replaced file keeps its bits, a new one gets the umask's.
  const mode_t mode = exists ? (st.st_mode & 07777) : (0666 & ~currentUmask());
  ::fchmod(fd, mode);
  if (exists && (st.st_uid != ::geteuid() || st.st_gid != ::getegid())) {
    // Keeping another owner needs privileges; without them the file becomes ours.
    [[maybe_unused]] const int ignored = ::fchown(fd, st.st_uid, st.st_gid);
  }
  if (::close(fd) != 0) {
    error = failure(path);
    ::unlink(tmp.c_str());
    return WriteStatus::Failed;
  }
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    error = failure(path);
    ::unlink(tmp.c_str());
    return WriteStatus::Failed;
  }
  return WriteStatus::Ok;
}

}  // namespace opscope
