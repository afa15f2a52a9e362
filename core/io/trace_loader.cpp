#include "io/trace_loader.h"

#include "hierarchy/finalize.h"
#include "io/byte_source.h"
#include "io/chrome_json_loader.h"

namespace opscope {

namespace {
LoadResult loadFrom(ByteSource& src, const LoadOptions& options) {
  LoadResult r = loadChromeJson(src, options);
  if (r.status == LoadStatus::Ok && !options.skipHierarchy) buildHierarchy(*r.trace);
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
