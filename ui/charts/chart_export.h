#pragma once
// A chart to a file: PDF (vector), PNG (at a chosen DPI), SVG, always through a
// temporary file renamed into place (QSaveFile), so a failed export never leaves a
// truncated picture or replaces a good one.
#include <QString>
#include <functional>
#include <string>

class QCustomPlot;
class QPoint;
class QWidget;

namespace opscope::ui {

enum class PictureFormat { Pdf, Png, Svg };

// width x height in logical pixels (the layout size); dpi only for PNG (96 = 1:1).
bool saveChart(QCustomPlot* plot, const QString& path, PictureFormat format, int width, int height, int dpi,
               QString* error);
// The format named by a file's suffix (pdf, png, svg); false for anything else.
bool pictureFormatFromSuffix(const QString& path, PictureFormat& format);
// A chart's export by the path's suffix, as the panels' context menus offer it:
// pdf/png/svg draw the plot (at least minWidth x 560, PNG at 144 DPI); csv/json write
// data(json) atomically; anything else is an error naming the choices.
bool exportPlotOrData(QCustomPlot* plot, const QString& path, const std::function<std::string(bool json)>& data,
                      int minWidth, QString* error);
// The context menu of a chart: export it as PDF, PNG or SVG, its data as CSV or JSON, to
// a file chosen in a dialog (named base.<suffix> by default); exporter writes the path
// and says why it could not; a failure shows a warning over parent.
// csvLabel / jsonLabel name what the data exports hold.
void showExportMenu(QWidget* parent, const QPoint& globalPos, const QString& base,
                    const std::function<bool(const QString& path, QString* error)>& exporter,
                    const char* csvLabel = "Export data as CSV…", const char* jsonLabel = "Export data as JSON…");

}  // namespace opscope::ui
