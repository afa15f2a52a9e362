#pragma once
// The timeline as a picture: PNG at a scale (the part on screen, or the whole track
// list), PDF as vectors; always written through a temporary file renamed into place.
#include <QString>

class QWidget;

namespace opscope::ui {

class TimelineWidget;

// wholeList: every track of the layout, not only the part scrolled into view. A list
// taller than a PNG can hold (32,767 px) is refused with error, never cut.
bool exportTimelinePng(TimelineWidget& timeline, const QString& path, double scale, QString* error = nullptr,
                       bool wholeList = false);
bool exportTimelinePdf(TimelineWidget& timeline, const QString& path, const QString& title, QString* error = nullptr);

// File ▸ Export timeline: asks for the scale, the part and the file, then saves; the
// message for the status bar ("Saved …"), or empty when cancelled or failed (then said
// in a dialog).
QString chooseAndExportTimelinePng(QWidget* parent, TimelineWidget& timeline);
QString chooseAndExportTimelinePdf(QWidget* parent, TimelineWidget& timeline, const QString& title);

}  // namespace opscope::ui
