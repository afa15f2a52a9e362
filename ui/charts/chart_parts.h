#pragma once
// The pieces every analysis chart is drawn with (ui/charts/kinds/): titles, themed axis
// rects and legends, horizontal bars with value texts, colour gradients and scales,
// short kernel names, the minimum height a chart needs. In their own namespace
// (parts::) so their short names do not meet a file's own helpers.
#include <QColor>
#include <QPoint>
#include <QString>
#include <QStringList>
#include <initializer_list>
#include <string>
#include <vector>

#include "charts/chart_theme.h"
#include "model/ids.h"

class QCustomPlot;
class QCPAxisRect;
class QCPColorGradient;
class QCPColorMap;
class QCPLegend;

namespace opscope::ui::parts {

double ms(TimeNs ns);
// "1.234 s", "12.34 ms", "5.1 µs", "812 ns".
QString durationText(double ns);
// A fraction as "12.3 %".
QString percent(double f);

void addTitle(QCustomPlot* plot, int row, const QString& text, const ChartTheme& theme, int pointSize = 11);
QCPAxisRect* addRect(QCustomPlot* plot, int row, int col, const ChartTheme& theme);

// Horizontal bars, one plottable per bar (each its own colour), first label on top,
// with a value text at the end of each bar; each bar's "tips" property holds its tip.
void horizontalBars(QCPAxisRect* rect, const QStringList& labels, const std::vector<double>& values,
                    const std::vector<QColor>& colors, const QStringList& valueTexts, const QStringList& tips,
                    const QString& axisLabel, const ChartTheme& theme);

// The height below which a chart's labels would overlap; the panel scrolls instead of
// squashing it (read back by chartMinimumHeight).
void setMinimumChartHeight(QCustomPlot* plot, int px);
// Axis, label, one text line a bar.
int barsHeight(int bars);

// A legend in the chart's colours, with no plottables yet.
QCPLegend* themedLegend(const ChartTheme& theme);
// A note in the middle of an empty rect ("No [memory] events …").
void emptyNote(QCPAxisRect* rect, const QString& text, const ChartTheme& theme);

// A gradient through evenly spaced stops, in RGB, NaN cells left transparent.
QCPColorGradient gradientThrough(std::initializer_list<QColor> stops);
// Viridis: ordered in lightness, readable by the colour-blind and in greyscale print.
QCPColorGradient viridis();
// Blue below the median, white at it, red above (ColorBrewer RdBu).
QCPColorGradient aboveBelow();
// A colour scale beside rect (layout column 1 of its row), sharing its top and bottom.
void addColorScale(QCustomPlot* plot, int row, QCPAxisRect* rect, QCPColorMap* map, const QString& label,
                   const ChartTheme& theme);

// A kernel's name short enough for an axis: the last name component without return
// type, namespaces or parameters, plus its first template argument, elided.
QString shortKernelName(const std::string& name);
// An op's or annotation's name for a bar's label: autograd's "evaluate_function: "
// wrapper and "(anonymous namespace)::" dropped, then at most maxChars, keeping the end
// (where the op's own name is) after an ellipsis. Tooltips keep the full name.
QString shortOpLabel(const std::string& name, int maxChars = 44);

}  // namespace opscope::ui::parts
