#pragma once
// Entry point for opening any supported trace file. The format is detected from the
// content, never from the file name.
#include <string>

#include "io/load_result.h"

namespace opscope {

LoadResult loadTraceFile(const std::string& path, const LoadOptions& options = {});
// Same, over bytes already in memory (tests, drag-and-drop of small data).
LoadResult loadTraceBytes(std::string bytes, const LoadOptions& options = {});

}  // namespace opscope
