#pragma once
// What the window shows where, as JSON, for tests and automation that check the layout
// without looking at pixels (`opscope --screenshot OUT.png --layout-json L.json`):
//   {"window": {"w","h"}, "screen": {"w","h"},
//    "timeline": {"x","y","w","h","start_us","end_us"},
//    "tracks": [{"name","kind","y","h","visible"}],
//    "selection": {"name","start_us","end_us","x","y","w","h","visible"} | null,
//    "docks": [{"name","area","visible","raised","x","y","w","h"}]}
// Coordinates are the window's (its client area), in logical pixels; times are µs since
// the trace's start. Track kinds: cpu, device, counter, async, annotation. A track or
// the selection is visible when it lies (at least partly, for the selection: its middle)
// inside the timeline's event area as drawn now.
#include <string>

namespace opscope::ui {

class MainWindow;

std::string layoutReportJson(const MainWindow& window);

}  // namespace opscope::ui
