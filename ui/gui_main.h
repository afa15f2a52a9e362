#pragma once
// The GUI side of the opscope binary: the window, and the automation modes
// `--screenshot` and `--bench-render`.
#include <string>
#include <vector>

namespace opscope::ui {

// args excludes argv[0]. Returns the process exit code (2 on a usage error).
int runGui(int argc, char** argv, const std::vector<std::string>& args);

}  // namespace opscope::ui
