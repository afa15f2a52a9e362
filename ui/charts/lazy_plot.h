#pragma once
// A QCustomPlot that draws nothing while hidden. QCustomPlot allocates its paint buffers
// at its viewport on every replot, and its constructor and resizeEvent replot: the
// window's docks hold ~36 plots, most on hidden tabs, whose buffers took 50 MB of an
// empty window's 55 MB heap. A LazyPlot starts with a 1×1 viewport, takes a resize while
// hidden without replotting, and replots when shown.
#include <qcustomplot.h>

namespace opscope::ui {

class LazyPlot : public QCustomPlot {
 public:
  explicit LazyPlot(QWidget* parent = nullptr) : QCustomPlot(parent) { setViewport(QRect(0, 0, 1, 1)); }

 protected:
  void resizeEvent(QResizeEvent* e) override {
    if (isVisible()) {
      QCustomPlot::resizeEvent(e);
      return;
    }
    pendingReplot_ = true;  // laid out while hidden: drawn at this size when shown
  }
  void showEvent(QShowEvent* e) override {
    QCustomPlot::showEvent(e);
    if (pendingReplot_ || viewport().size() != size()) {
      pendingReplot_ = false;
      setViewport(rect());
      replot();
    }
  }

 private:
  bool pendingReplot_ = false;
};

}  // namespace opscope::ui
