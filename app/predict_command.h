#pragma once
// `opscope predict`: GPU performance models and the end-to-end iteration simulator.
#include <string>
#include <vector>

namespace opscope::app {

int runPredict(const std::vector<std::string>& args);

}  // namespace opscope::app
