#include "cli_common.h"

#include <algorithm>

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "io/output_file.h"

namespace opscope::app {

int writeOutput(const std::string& out, std::string_view text) {
  return writeOutputWith(out, [&](const TextSink& put) { put(text); });
}

int writeOutputWith(const std::string& out, const std::function<void(const TextSink&)>& produce) {
  if (out == "-") {
    bool failed = false;
    produce([&](std::string_view piece) {
      if (!failed && std::fwrite(piece.data(), 1, piece.size(), stdout) != piece.size()) failed = true;
    });
    return std::fflush(stdout) == 0 && !failed ? kOk : kIoError;
  }
  std::string error;
  switch (writeOutputFileWith(out, produce, error)) {
    case WriteStatus::Ok:
      return kOk;
    case WriteStatus::IsInput:
      std::fprintf(stderr, "opscope: %s\n", error.c_str());
      return kUsage;
    case WriteStatus::Failed:
      break;
  }
  std::fprintf(stderr, "opscope: %s\n", error.c_str());
  return kIoError;
}

void reportRanksNotLoaded(const LoadResult& r, const std::string& input) {
  if (!r.trace) return;
  for (const std::string& failure : r.trace->meta.ranksNotLoaded)
    std::fprintf(stderr, "opscope: %s: rank left out: %s\n", input.c_str(), failure.c_str());
}

int exitFor(LoadStatus s) {
  switch (s) {
    case LoadStatus::Ok:
      return kOk;
    case LoadStatus::IoError:
      return kIoError;
    case LoadStatus::InvalidInput:
      return kInvalidInput;
    case LoadStatus::Cancelled:
      return kCancelled;
  }
  return kInternal;
}

void* guiModuleSymbol(const char* name, bool quiet) {
  static void* module = nullptr;
  if (!module) {
    std::string dir;
    char self[4096];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
      dir.assign(self, static_cast<size_t>(n));
      dir.erase(dir.find_last_of('/') + 1);
    }
    std::string tried;
    for (const std::string& path : {dir + "opscope-gui.so", dir + OPSCOPE_GUI_DIR_FROM_BIN "/opscope-gui.so"}) {
      module = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (module) break;
      tried += (tried.empty() ? "" : "; ") + std::string(::dlerror());
    }
    if (!module) {
      if (!quiet) std::fprintf(stderr, "opscope: cannot load the GUI module: %s\n", tried.c_str());
      return nullptr;
    }
  }
  void* symbol = ::dlsym(module, name);
  if (!symbol && !quiet) std::fprintf(stderr, "opscope: the GUI module has no entry point %s: %s\n", name, ::dlerror());
  return symbol;
}

bool parseIterationRange(const std::string& text, size_t& first, size_t& count) {
  const size_t colon = text.find(':');
  try {
    size_t used = 0;
    const unsigned long f = std::stoul(text.substr(0, colon), &used);
    if (used != (colon == std::string::npos ? text.size() : colon)) return false;
    unsigned long c = 1;
    if (colon != std::string::npos) {
      const std::string rest = text.substr(colon + 1);
      c = std::stoul(rest, &used);
      if (used != rest.size() || c == 0) return false;
    }
    first = f;
    count = c;
    return text.find('-') == std::string::npos;
  } catch (...) {
    return false;
  }
}

void endOfOptions(std::vector<std::string>& args) {
  const auto end = std::find(args.begin(), args.end(), "--");
  if (end == args.end()) return;
  for (auto it = end + 1; it != args.end(); ++it)
    if (it->size() > 1 && (*it)[0] == '-') *it = "./" + *it;
  args.erase(end);
}

}  // namespace opscope::app
