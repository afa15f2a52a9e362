#include "io/trace_loader.h"

#include <chrono>

#include "hierarchy/finalize.h"
#include "io/byte_source.h"
#include "io/chrome_json_loader.h"

namespace opscope {

namespace {
double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

LoadResult loadFrom(ByteSource& src, const LoadOptions& options) {
  auto t0 = std::chrono::steady_clock::now();
  LoadResult r = loadChromeJson(src, options);
  r.timings.parseSeconds = secondsSince(t0);
  if (r.status == LoadStatus::Ok && !options.skipHierarchy) {
    t0 = std::chrono::steady_clock::now();
    buildHierarchy(*r.trace);
    r.timings.hierarchySeconds = secondsSince(t0);
  }
  return r;
}
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
  return loadFrom(*src, options);
}

LoadResult loadTraceBytes(std::string bytes, const LoadOptions& options) {
  auto src = ByteSource::fromMemory(std::move(bytes));
  return loadFrom(*src, options);
}

}  // namespace opscope
