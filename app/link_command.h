#pragma once
// `opscope link`: an execution trace joined with the Kineto trace of the same run (ET+).
#include <string>
#include <vector>

namespace opscope::app {

int runLink(const std::vector<std::string>& args);

}  // namespace opscope::app
