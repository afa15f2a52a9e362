#include "io/trace_loader.h"

#include <chrono>
#include <optional>

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

// The other formats' loaders parse; then, as for Chrome JSON, the hierarchy pass.
LoadResult finishLoad(LoadResult r, std::chrono::steady_clock::time_point t0, uint64_t inputBytes,
                      const LoadOptions& options) {
  r.timings.parseSeconds = secondsSince(t0);
  if (r.status != LoadStatus::Ok) return r;
  r.trace->inputBytes = inputBytes;
  if (!options.skipHierarchy) {
    const auto t1 = std::chrono::steady_clock::now();
    buildHierarchy(*r.trace);
    r.timings.hierarchySeconds = secondsSince(t1);
  }
  return r;
}

// Formats other than Chrome/Kineto JSON and SQLite, small enough to read whole, told
// apart by their first bytes.
enum class Other { Dvdt, Plaidml };
std::optional<Other> otherFormat(std::string_view head) {
  if (looksLikeDvdtProf(head)) return Other::Dvdt;
  if (looksLikePlaidmlEventlog(head)) return Other::Plaidml;
  return std::nullopt;
}

// head: the source's bytes read so far for detection; the rest follows from src.
LoadResult loadOther(Other format, std::string head, ByteSource& src, const LoadOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string text = head + readRest(src);
  return finishLoad(format == Other::Dvdt ? loadDvdtProf(text) : loadPlaidmlEventlog(text), t0, src.totalSize(), options);
}

constexpr size_t kDetectBytes = 1 << 16;

LoadResult ioError(const std::string& error) {
  LoadResult r;
  r.status = LoadStatus::IoError;
  r.error = error;
  return r;
}
}  // namespace

LoadResult loadTraceFile(const std::string& path, const LoadOptions& options) {
  std::string error;
  auto src = ByteSource::open(path, error);
  if (!src) return ioError(error);
  if (path != "/dev/stdin") {
    std::string start = readUpTo(*src, kDetectBytes);
    if (looksLikeSqlite(start)) {
      const auto t0 = std::chrono::steady_clock::now();
      return finishLoad(loadNsysSqlite(path), t0, src->totalSize(), options);
    }
    if (const auto other = otherFormat(start)) return loadOther(*other, std::move(start), *src, options);
    src = ByteSource::open(path, error);  // Chrome JSON streams from the first byte
    if (!src) return ioError(error);
  }
  return loadFrom(*src, options);
}

LoadResult loadTraceBytes(std::string bytes, const LoadOptions& options) {
  auto src = ByteSource::fromMemory(bytes);
  std::string start = readUpTo(*src, kDetectBytes);
  if (const auto other = otherFormat(start)) return loadOther(*other, std::move(start), *src, options);
  src = ByteSource::fromMemory(std::move(bytes));
  return loadFrom(*src, options);
}

}  // namespace opscope
