#pragma once
// What the commands of the opscope binary share: exit codes (documented in README and
// --help) and the GUI module, loaded only by the commands that need Qt.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "io/load_result.h"
#include "io/output_file.h"

namespace opscope::app {

enum Exit : int {
  kOk = 0,
  kInternal = 1,
  kUsage = 2,
  kIoError = 3,
  kInvalidInput = 4,
  kCancelled = 5,
};

int exitFor(LoadStatus s);

// A folder of ranks: one line on stderr per rank trace that did not load (the session
// goes on without it), so no command over a folder loses a rank silently.
void reportRanksNotLoaded(const LoadResult& r, const std::string& input);

// "FIRST" or "FIRST:COUNT" (0-based iterations, COUNT >= 1, 1 by default); false for
// anything else, a negative number included.
bool parseIterationRange(const std::string& text, size_t& first, size_t& count);

// Writes a command's output: "-" is standard output, anything else goes through
// writeOutputFile (io/output_file.h). Prints the one-line error and returns the exit
// code: kOk, kUsage when OUT is the command's own input, kIoError otherwise.
int writeOutput(const std::string& out, std::string_view text);
// The same with the text handed over a piece at a time (io/output_file.h's
// writeOutputFileWith): an output larger than memory is never one string.
int writeOutputWith(const std::string& out, const std::function<void(const TextSink&)>& produce);

// "--" ends a command's options: it is dropped, and every later argument is a FILE even
// when it starts with '-' (handed on as "./-name", the same file, which each command's
// own parser takes as a FILE); "-" after it stays the standard input.
void endOfOptions(std::vector<std::string>& args);

// A symbol of opscope-gui.so (next to the binary in a build tree, under lib/opscope
// when installed); nullptr after printing one line when the module or the symbol is
// missing. The module stays loaded until exit: Qt's atexit handlers live in it.
// quiet: no message (callers that do without the module).
void* guiModuleSymbol(const char* name, bool quiet = false);

}  // namespace opscope::app
