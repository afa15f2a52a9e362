#pragma once
// A chart to a file: PDF (vector), PNG (at a chosen DPI), SVG, always through a
// temporary file renamed into place (QSaveFile), so a failed export never leaves a
// truncated picture or replaces a good one.
#include <QString>
#include <functional>
#include <string>

#include "charts/chart_theme.h"

class QCustomPlot;
class QPoint;
class QToolButton;
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
// data(json) atomically; anything else is an error naming the choices. Pictures are on
// white whatever the window's theme: with redrawIn, a chart shown dark is drawn light
// for the export and dark again after (the command line's export --dark asks for dark).
bool exportPlotOrData(QCustomPlot* plot, const QString& path, const std::function<std::string(bool json)>& data,
                      int minWidth, QString* error, bool shownDark = false,
                      const std::function<void(const ChartTheme&)>& redrawIn = {});
// The context menu of a chart: export it as PDF, PNG or SVG, its data as CSV or JSON, to
// a file chosen in a dialog (named base.<suffix> by default); exporter writes the path
// and says why it could not; a failure shows a warning over parent.
// csvLabel / jsonLabel name what the data exports hold.
void showExportMenu(QWidget* parent, const QPoint& globalPos, const QString& base,
                    const std::function<bool(const QString& path, QString* error)>& exporter,
                    const char* csvLabel = "Export data as CSV…", const char* jsonLabel = "Export data as JSON…");

// One save dialog for every format (PDF, PNG, SVG, CSV, JSON; the suffix of the filter
// chosen added when the name has none), starting in the open trace's folder: File ▸
// Export chart… and the Export button over each chart. Returns the path written, or
// empty (cancelled, or the failure shown in a warning over parent).
QString exportWithDialog(QWidget* parent, const QString& base,
                         const std::function<bool(const QString& path, QString* error)>& exporter);

// The "Export…" button over a chart (the diff and prediction panels): the tool button
// with its tooltip (what the data exports hold), calling onClick.
QToolButton* makeExportButton(const QString& dataTip, const std::function<void()>& onClick);

}  // namespace opscope::ui
