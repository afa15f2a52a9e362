#pragma once
// `opscope critical-path`: the critical path of an iteration (report/critical_path_report.h).
#include <string>
#include <vector>

namespace opscope::app {

int runCriticalPath(const std::vector<std::string>& args);

}  // namespace opscope::app
