#pragma once
#include <string>
#include <vector>

namespace opscope::app {

// `opscope export`: JSON and CSV here; PDF, PNG and SVG through the GUI module, which
// draws the same charts as the panels on Qt's offscreen platform (no display needed).
int runExport(const std::vector<std::string>& args);

}  // namespace opscope::app
