#pragma once
#include <string>
#include <vector>

namespace opscope::app {

// opscope roofline [--json|--csv] [--gpu NAME] [--iteration N] [-o OUT] FILE
int runRoofline(const std::vector<std::string>& args);

}  // namespace opscope::app
