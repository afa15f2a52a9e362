#pragma once
// The window on the screen it is on: it opens at 1400x900, or at 90 % of the screen's
// available area when that is smaller (a 1280x720 laptop), a geometry restored from the
// settings is pulled back inside the screen, and the window never stays larger than the
// screen after a panel opens.
#include <QSize>

class QWidget;

namespace opscope::ui {

inline constexpr QSize kPreferredWindowSize{1400, 900};

// The size a new window opens at on w's screen.
QSize firstWindowSize(const QWidget* w);
// Moves and shrinks w (a top-level window, not maximised or full screen) so its frame
// lies inside its screen's available area; true when it changed anything.
bool clampToScreen(QWidget* w);

}  // namespace opscope::ui
