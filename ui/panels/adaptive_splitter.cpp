#include "panels/adaptive_splitter.h"

#include <QResizeEvent>

namespace opscope::ui {

AdaptiveSplitter::AdaptiveSplitter(QWidget* parent) : QSplitter(Qt::Vertical, parent) { setChildrenCollapsible(false); }

Qt::Orientation AdaptiveSplitter::orientationFor(QSize size) {
  const bool wide = size.width() >= kMinSideBySideWidth &&
                    size.width() >= kSideBySideRatio * static_cast<double>(std::max(1, size.height()));
  return wide ? Qt::Horizontal : Qt::Vertical;
}

void AdaptiveSplitter::resizeEvent(QResizeEvent* e) {
  const Qt::Orientation want = orientationFor(e->size());
  if (want != orientation() && count() > 1) {
    setOrientation(want);
    const int room = want == Qt::Horizontal ? e->size().width() : e->size().height();
    // Over its table the chart takes three quarters (a multi-part chart needs the height;
    // the table reads off figures a few rows at a time), beside it three fifths.
    const int chart = want == Qt::Horizontal ? room * 3 / 5 : room * 3 / 4;
    QList<int> sizes;
    sizes << chart << room - chart;
    for (int i = 2; i < count(); ++i) sizes << 0;
    setSizes(sizes);
  }
  QSplitter::resizeEvent(e);
}

}  // namespace opscope::ui
