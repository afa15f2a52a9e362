#pragma once
// Entry point for opening any supported trace file. The format is detected from the
// content, never from the file name.
#include <string>

#include "io/byte_source.h"
#include "io/load_result.h"

namespace opscope {

// The input is opened once and read once: the format is sniffed from its first bytes,
// which are handed on with the rest, so pipes, FIFOs and /dev/stdin load like files.
LoadResult loadTraceFile(const std::string& path, const LoadOptions& options = {});
// Same, from a source already open (its head may have been peeked); path names it in
// messages and is where SQLite opens a plain database file.
LoadResult loadTraceSource(ByteSource& src, const std::string& path, const LoadOptions& options = {});
// Same, over bytes already in memory (tests, drag-and-drop of small data).
LoadResult loadTraceBytes(std::string bytes, const LoadOptions& options = {});

}  // namespace opscope
