#pragma once
// A chart to a file: PDF (vector), PNG (at a chosen DPI), SVG, always through a
// temporary file renamed into place (QSaveFile), so a failed export never leaves a
// truncated picture or replaces a good one.
#include <QString>

class QCustomPlot;

namespace opscope::ui {

enum class PictureFormat { Pdf, Png, Svg };

// width x height in logical pixels (the layout size); dpi only for PNG (96 = 1:1).
bool saveChart(QCustomPlot* plot, const QString& path, PictureFormat format, int width, int height, int dpi,
               QString* error);
// The format named by a file's suffix (pdf, png, svg); false for anything else.
bool pictureFormatFromSuffix(const QString& path, PictureFormat& format);

}  // namespace opscope::ui
