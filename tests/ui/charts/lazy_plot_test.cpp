// LazyPlot: a hidden plot allocates no paint buffers (QCustomPlot replots on construction
// and on every resize); shown, it draws at its size.
#include <gtest/gtest.h>

#include <QApplication>
#include <QImage>
#include <QVBoxLayout>
#include <QWidget>

#include "charts/lazy_plot.h"

namespace opscope::ui {
namespace {

TEST(LazyPlot, HiddenItDrawsNothingShownItDrawsAtItsSize) {
  QWidget window;
  auto* layout = new QVBoxLayout(&window);
  auto* plot = new LazyPlot;
  plot->setBackground(QBrush(Qt::red));
  layout->addWidget(plot);
  plot->hide();  // as a dock's tab that is not the current one
  window.resize(500, 400);
  window.show();
  plot->resize(480, 380);
  QApplication::processEvents();                    // QCustomPlot's constructor queued a replot
  EXPECT_EQ(plot->viewport().size(), QSize(1, 1));  // its buffers are 1×1, not 640×480
  plot->show();
  QApplication::processEvents();
  EXPECT_EQ(plot->viewport().size(), plot->size());
  EXPECT_GT(plot->width(), 100);
  // Drawn: the widget's own pixels are the plot's background.
  const QImage shown = plot->grab().toImage();
  EXPECT_EQ(shown.pixelColor(shown.width() / 2, shown.height() / 2), QColor(Qt::red));
  // Visible, a resize draws at once, as QCustomPlot does.
  plot->resize(300, 200);
  QApplication::processEvents();
  EXPECT_EQ(plot->viewport().size(), QSize(300, 200));
}

}  // namespace
}  // namespace opscope::ui
