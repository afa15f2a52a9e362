#pragma once
// `opscope diff`: two runs (or two iteration ranges of one) compared op by op and
// kernel by kernel (report/diff_report.h holds the JSON contract).
#include <string>
#include <vector>

namespace opscope::app {

int runDiff(const std::vector<std::string>& args);

}  // namespace opscope::app
