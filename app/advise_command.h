#pragma once
// `opscope advise`: recommendations with the time at stake (report/advice_report.h).
#include <string>
#include <vector>

namespace opscope::app {

int runAdvise(const std::vector<std::string>& args);

}  // namespace opscope::app
