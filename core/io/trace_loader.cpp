#include "io/trace_loader.h"

#include <chrono>
#include <optional>
#include <vector>

#include "hierarchy/finalize.h"
#include "io/byte_source.h"
#include "io/chrome_json_loader.h"
#include "io/dvdt_loader.h"
#include "io/nsys_sqlite_loader.h"
#include "io/plaidml_eventlog_loader.h"

namespace opscope {

namespace {
double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

LoadResult loadFrom(ByteSource& src, const LoadOptions& options) {
  auto t0 = std::chrono::steady_clock::now();
  LoadResult r = loadChromeJson(src, options);
  r.timings.parseSeconds = secondsSince(t0);
  if (r.status == LoadStatus::InvalidInput &&
      (r.error.starts_with("not a JSON trace") || r.error.starts_with("not a Chrome/Kineto trace")))
    r.error += "; formats tried: Chrome/Kineto JSON (plain or legacy), OpenCL dv/dt prof JSON, Nsight Systems SQLite, PlaidML event log "
               "(PyTorch execution traces: opscope summary / opscope link)";
  if (r.status == LoadStatus::Ok && !options.skipHierarchy) {
    t0 = std::chrono::steady_clock::now();
    buildHierarchy(*r.trace);
    r.timings.hierarchySeconds = secondsSince(t0);
  }
  return r;
}

// The first bytes of a source, for format detection (sources are sequential, so the
// caller opens a fresh one to load).
std::string head(ByteSource& src, size_t bytes) {
  std::string out(bytes, '\0');
  size_t got = 0;
  while (got < bytes) {
    const size_t n = src.read(out.data() + got, bytes - got);
    if (n == 0) break;
    got += n;
  }
  out.resize(got);
  return out;
}

std::string readAll(ByteSource& src) {
  std::string out;
  std::vector<char> buf(1 << 20);
  while (size_t n = src.read(buf.data(), buf.size())) out.append(buf.data(), n);
  return out;
}

// Formats other than Chrome/Kineto JSON are small enough to read whole.
enum class Other { Dvdt, Plaidml };

LoadResult loadOther(ByteSource& src, const LoadOptions& options, Other format) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string text = readAll(src);
  LoadResult r = format == Other::Dvdt ? loadDvdtProf(text) : loadPlaidmlEventlog(text);
  r.timings.parseSeconds = secondsSince(t0);
  if (r.status == LoadStatus::Ok) {
    r.trace->inputBytes = src.totalSize();
    if (!options.skipHierarchy) {
      const auto t1 = std::chrono::steady_clock::now();
      buildHierarchy(*r.trace);
      r.timings.hierarchySeconds = secondsSince(t1);
    }
  }
  return r;
}

constexpr size_t kDetectBytes = 1 << 16;
}  // namespace

LoadResult loadTraceFile(const std::string& path, const LoadOptions& options) {
  std::string error;
  auto src = ByteSource::open(path, error);
  if (!src) {
    LoadResult r;
    r.status = LoadStatus::IoError;
    r.error = error;
    return r;
  }
  if (path != "/dev/stdin") {
    const std::string start = head(*src, kDetectBytes);
    if (looksLikeSqlite(start)) {
      const auto t0 = std::chrono::steady_clock::now();
      LoadResult r = loadNsysSqlite(path);
      r.timings.parseSeconds = secondsSince(t0);
      if (r.status == LoadStatus::Ok) {
        r.trace->inputBytes = src->totalSize();
        if (!options.skipHierarchy) {
          const auto t1 = std::chrono::steady_clock::now();
          buildHierarchy(*r.trace);
          r.timings.hierarchySeconds = secondsSince(t1);
        }
      }
      return r;
    }
    if (looksLikeDvdtProf(start) || looksLikePlaidmlEventlog(start)) {
      const Other format = looksLikeDvdtProf(start) ? Other::Dvdt : Other::Plaidml;
      src = ByteSource::open(path, error);
      if (src) return loadOther(*src, options, format);
    }
  }
  src = ByteSource::open(path, error);
  if (!src) {
    LoadResult r;
    r.status = LoadStatus::IoError;
    r.error = error;
    return r;
  }
  return loadFrom(*src, options);
}

LoadResult loadTraceBytes(std::string bytes, const LoadOptions& options) {
  std::optional<Other> other;
  {
    auto probe = ByteSource::fromMemory(bytes);
    const std::string start = head(*probe, kDetectBytes);
    if (looksLikeDvdtProf(start)) other = Other::Dvdt;
    else if (looksLikePlaidmlEventlog(start)) other = Other::Plaidml;
  }
  auto src = ByteSource::fromMemory(std::move(bytes));
  return other ? loadOther(*src, options, *other) : loadFrom(*src, options);
}

}  // namespace opscope
