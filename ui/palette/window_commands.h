#pragma once
// What the command palette lists for the window (Ctrl+Shift+P): every enabled menu
// action with its shortcut, every track of the trace, and the slice names by total time
// (at most 20,000, so the palette stays instant on any trace).
#include <QString>
#include <functional>
#include <vector>

#include "palette/command_palette.h"

class QMenuBar;

namespace opscope::ui {

struct TraceDocument;

std::vector<PaletteEntry> windowPaletteEntries(QMenuBar* menus, const TraceDocument* doc,
                                               const std::function<void(uint32_t)>& goToTrack,
                                               const std::function<void(const QString&)>& selectByName);

}  // namespace opscope::ui
