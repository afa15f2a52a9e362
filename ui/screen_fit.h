#pragma once
// The windows on the screen they are on: the main window opens at 1400x900 (the cluster
// view at 1100x750), or at 90 % of the screen's available area when that is smaller (a
// 1280x720 laptop), a geometry restored from the settings is pulled back inside the
// screen, and a window never stays larger than the screen after a panel opens.
#include <QSize>

class QWidget;

namespace opscope::ui {

inline constexpr QSize kPreferredWindowSize{1400, 900};

// The size a new window opens at on w's screen: preferred, or 90 % of the screen's
// available area in each direction where that is smaller.
QSize fittedWindowSize(const QWidget* w, QSize preferred);
// The main window's: fittedWindowSize(w, kPreferredWindowSize).
QSize firstWindowSize(const QWidget* w);
// Moves and shrinks w (a top-level window, not maximised or full screen) so its frame
// lies inside its screen's available area; true when it changed anything.
bool clampToScreen(QWidget* w);

}  // namespace opscope::ui
