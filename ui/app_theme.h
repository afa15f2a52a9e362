#pragma once
// The application's look: Qt's Fusion style with its standard light palette, or a dark
// one (View ▸ Dark theme). Every window, dialog and dock follows it; the timeline and
// the charts have themes of their own (timeline/colors.h, charts/chart_theme.h).
namespace opscope::ui {

void applyApplicationTheme(bool dark);

}  // namespace opscope::ui
