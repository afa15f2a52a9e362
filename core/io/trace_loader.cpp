#include "io/trace_loader.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "hierarchy/finalize.h"
#include "io/byte_source.h"
#include "io/chrome_json_loader.h"
#include "io/dvdt_loader.h"
#include "io/input_limits.h"
#include "io/memory_timeline_raw_loader.h"
#include "io/nsys_sqlite_loader.h"
#include "io/output_file.h"
#include "io/plaidml_eventlog_loader.h"
#include "io/rocprofv3_loader.h"
#include "io/xplane_loader.h"

namespace opscope {

namespace {
double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

LoadResult failure(LoadStatus status, const std::string& error) {
  LoadResult r;
  r.status = status;
  r.error = error;
  return r;
}

// Every format's loader parses; then the hierarchy pass.
LoadResult finishLoad(LoadResult r, std::chrono::steady_clock::time_point t0, uint64_t inputBytes,
                      const LoadOptions& options) {
  r.timings.parseSeconds = secondsSince(t0);
  if (r.status != LoadStatus::Ok) return r;
  if (r.trace->inputBytes == 0) r.trace->inputBytes = inputBytes;
  if (!options.skipHierarchy) {
    const auto t1 = std::chrono::steady_clock::now();
    buildHierarchy(*r.trace);
    r.timings.hierarchySeconds = secondsSince(t1);
  }
  return r;
}

LoadResult loadChrome(ByteSource& src, const LoadOptions& options) {
  LoadResult r = loadChromeJson(src, options);
  if (r.status == LoadStatus::InvalidInput &&
      (r.error.starts_with("not a JSON trace") || r.error.starts_with("not a Chrome/Kineto trace")))
    r.error +=
        "; formats tried: Chrome/Kineto JSON (plain or legacy), OpenCL dv/dt prof JSON, Nsight Systems SQLite, PlaidML "
        "event log "
        "(PyTorch execution traces: opscope summary / opscope link)";
  return r;
}

// The largest database spooled to a temporary file when it does not come as a plain
// file (a pipe, gzip): SQLite reads by path.
constexpr uint64_t kMaxSpooledSqliteBytes = uint64_t{16} << 30;

// SQLite opens its database by path, so an SQLite input that is not a plain file of its
// own (stdin, a FIFO, a .sqlite.gz) is copied to a temporary file first; the copy is
// removed when the load returns.
LoadResult loadSqlite(ByteSource& src, const std::string& path, const LoadOptions& options) {
  if (!src.randomAccessPath().empty()) return loadNsysSqlite(path, options);
  const char* dir = std::getenv("TMPDIR");
  std::string tmp = std::string(dir && *dir ? dir : "/tmp") + "/opscope-sqlite-XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0)
    return failure(LoadStatus::IoError, "cannot spool the SQLite input to " + tmp + ": " + std::strerror(errno));
  struct Remove {
    const std::string& p;
    ~Remove() { ::unlink(p.c_str()); }
  } remove{tmp};
  std::string buf(1 << 20, '\0');
  uint64_t written = 0;
  while (const size_t n = src.read(buf.data(), buf.size())) {
    written += n;
    if (written > kMaxSpooledSqliteBytes) {
      ::close(fd);
      return failure(LoadStatus::InvalidInput,
                     "SQLite input from a stream larger than 16 GiB, the ceiling for spooling it "
                     "to a temporary file: open the database file itself");
    }
    for (size_t done = 0; done < n;) {
      const ssize_t w = ::write(fd, buf.data() + done, n - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        const std::string why = std::strerror(errno);
        ::close(fd);
        return failure(LoadStatus::IoError, "cannot spool the SQLite input to " + tmp + ": " + why);
      }
      done += static_cast<size_t>(w);
    }
  }
  ::close(fd);
  if (!src.error().empty()) return failure(LoadStatus::IoError, src.error());
  if (src.truncated()) return failure(LoadStatus::InvalidInput, "the gzip stream of the SQLite input ends early");
  return loadNsysSqlite(tmp, options);
}

constexpr size_t kDetectBytes = 1 << 16;

// src is the only handle on the input: its head is peeked for detection and handed on
// with the rest, so pipes and FIFOs work like files.
LoadResult loadFrom(ByteSource& src, const std::string& path, const LoadOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string head = peekHead(src, kDetectBytes);
  if (head.empty() && !src.error().empty()) return failure(LoadStatus::IoError, src.error());
  if (looksLikeSqlite(head)) return finishLoad(loadSqlite(src, path, options), t0, src.totalSize(), options);
  if (looksLikeDvdtProf(head)) return finishLoad(loadDvdtProf(src), t0, src.totalSize(), options);
  if (looksLikePlaidmlEventlog(head)) return finishLoad(loadPlaidmlEventlog(src), t0, src.totalSize(), options);
  if (looksLikeMemoryTimelineRaw(head)) return finishLoad(loadMemoryTimelineRaw(src), t0, src.totalSize(), options);
  if (looksLikeRocprofv3(head)) return finishLoad(loadRocprofv3(src), t0, src.totalSize(), options);
  if (looksLikeXPlane(head)) return finishLoad(loadXPlane(src), t0, src.totalSize(), options);
  LoadResult r = loadChrome(src, options);
  // JSON stops at the end of its top-level value; what follows in a gzip file is read
  // through, so bytes after the last member (a file appended to, a download's padding)
  // are named instead of silently dropped (both inflaters stop there alike).
  if (r.status == LoadStatus::Ok && src.isGzip()) {
    drainForTrailing(src);
    if (const uint64_t at = src.trailingAt(); at > 0)
      r.trace->diagnostics.add(WarningKind::TrailingData, 1,
                               "bytes from compressed byte " + std::to_string(at) +
                                   " on are not a gzip member: ignored (" +
                                   std::to_string(src.totalSize() > at ? src.totalSize() - at : 0) + " bytes)");
  }
  return finishLoad(std::move(r), t0, src.totalSize(), options);
}
}  // namespace

LoadResult loadTraceFile(const std::string& path, const LoadOptions& options) {
  std::string error;
  auto src = ByteSource::open(path, error);
  if (!src) return failure(LoadStatus::IoError, error);
  protectInput(path);
  return loadFrom(*src, path, options);
}

LoadResult loadTraceSource(ByteSource& src, const std::string& path, const LoadOptions& options) {
  if (!path.empty()) protectInput(path);
  return loadFrom(src, path, options);
}

LoadResult loadTraceBytes(std::string bytes, const LoadOptions& options) {
  auto src = ByteSource::fromMemory(std::move(bytes));
  return loadFrom(*src, {}, options);
}

}  // namespace opscope
