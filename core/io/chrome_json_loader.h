#pragma once
// Chrome Trace Event Format importer (Kineto / PyTorch profiler and its legacy
// dialect, chrome://tracing, Perfetto's JSON). One streaming pass over a small
// reused window: no DOM of the file is ever built.
#include "io/byte_source.h"
#include "io/load_result.h"

namespace opscope {

// Reads the whole source into a Trace (sorted tracks, no hierarchy yet).
LoadResult loadChromeJson(ByteSource& source, const LoadOptions& options);

}  // namespace opscope
