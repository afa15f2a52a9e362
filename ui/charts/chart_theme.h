#pragma once
// Look of the analysis charts, shared by the panels and headless export so both draw
// the same pictures: light or dark axes and text, one colour per kernel class and per
// step part, short kernel names for axis labels.
#include <QColor>
#include <QString>
#include <QStringList>

class QCustomPlot;
class QCPAxisRect;

namespace opscope::ui {

struct ChartTheme {
  bool dark = false;
  QColor background() const { return dark ? QColor(0x1e, 0x1f, 0x22) : QColor(Qt::white); }
  QColor text() const { return dark ? QColor(0xdd, 0xdd, 0xdd) : QColor(0x20, 0x20, 0x20); }
  QColor grid() const { return dark ? QColor(0x3a, 0x3b, 0x40) : QColor(0xe4, 0xe4, 0xe4); }
};

// Clears the plot (graphs, items, extra axis rects) and applies the theme.
void resetPlot(QCustomPlot* plot, const ChartTheme& theme);
// An empty plot holding one centred line of text ("computing…", "no trace") instead
// of QCustomPlot's default empty axes.
void showPlotMessage(QCustomPlot* plot, const QString& text, const ChartTheme& theme);
void styleAxisRect(QCPAxisRect* rect, const ChartTheme& theme);

// Stable colours: the same class or part gets the same colour in every chart.
QColor classColor(const QString& cls);
QColor paletteColor(int index);

// One colour per prediction model family, from the Okabe-Ito palette (told apart with
// the common colour-vision deficiencies): gemm roofline, memory-bound, sum of sub-ops,
// PCIe copy, gemm microbenchmark, convolution roofline, collective (then attention
// roofline, convolution microbenchmark, TBE forward and TBE backward on the first
// four's colours, other markers). A family's variants
// ("memory-bound (batch norm)", "collective all_to_all") share its colour and differ by
// marker shape. Unknown models are assigned from the rest of the palette.
QColor modelColor(const QString& model, bool dark);
// The index of the model's marker shape (0..6): colour and shape together are distinct
// for every model the predictors name.
int modelShapeIndex(const QString& model);

}  // namespace opscope::ui
