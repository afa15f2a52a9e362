#pragma once
#include <string>
#include <vector>

namespace opscope::ui {

// `opscope export --format pdf|png|svg ...` (the same arguments as the data formats):
// loads the trace, draws the chart on Qt's offscreen platform (set unless the caller
// chose another) and saves it atomically. Returns the command's exit code.
int exportChartHeadless(const std::vector<std::string>& args);

}  // namespace opscope::ui
