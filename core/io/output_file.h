#pragma once
// Writing an output file (exports, ET+, screenshots, every GUI save) without ever
// losing a file: what happens depends on what OUT names at the moment of writing.
//  - nothing yet, or a regular file with a single link: the bytes go to a temporary
//    file beside it, flushed and renamed over it, so readers see the old file or the
//    new one, never a part; a replaced file keeps its permission bits (and its owner
//    where the process may set it); a new file gets 0666 minus the umask;
//  - a symbolic link (or a chain of them): the same, applied to the file it names;
//    the link stays a link;
//  - a regular file with several hard links: the bytes go to a temporary file first
//    (so a failure leaves the file whole), then are copied into the file itself, so
//    every name keeps seeing the same file;
//  - a character device, a FIFO or a socket (/dev/null, /dev/stdout, a pipe): written
//    through, never replaced by a regular file;
//  - a directory, or anything else: refused;
//  - a file this process loaded as a trace (same device and inode; see protectInput):
//    refused with WriteStatus::IsInput, so an export named like its own trace cannot
//    destroy the trace.
#include <functional>
#include <string>
#include <string_view>

#include "text/text_sink.h"

namespace opscope {

enum class WriteStatus {
  Ok,
  IsInput,  // OUT is one of this process's inputs: nothing written (command-line exit 2)
  Failed,   // could not write; the file OUT named before is unchanged (error says why)
};

WriteStatus writeOutputFile(const std::string& path, std::string_view bytes, std::string& error);

// The same with the bytes handed over a piece at a time by produce(sink), so that an
// output larger than memory (an ET+ of 10^6 nodes) is never one string. An exception
// from produce leaves OUT as it was (the temporary file removed) and is passed on; on a
// FIFO or device the pieces already written stay written.
WriteStatus writeOutputFileWith(const std::string& path, const std::function<void(const TextSink&)>& produce,
                                std::string& error);

// Records path (when it names a regular file) as an input of this process: later
// writeOutputFile calls refuse to replace it. The loaders call it for every trace and
// execution trace they open by path. Thread-safe.
void protectInput(const std::string& path);

}  // namespace opscope
