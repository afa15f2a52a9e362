#pragma once
// What the commands of the opscope binary share: exit codes (documented in README and
// --help) and the GUI module, loaded only by the commands that need Qt.
#include "io/load_result.h"

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

// A symbol of opscope-gui.so (next to the binary in a build tree, under lib/opscope
// when installed); nullptr after printing one line when the module or the symbol is
// missing. The module stays loaded until exit: Qt's atexit handlers live in it.
void* guiModuleSymbol(const char* name);

}  // namespace opscope::app
