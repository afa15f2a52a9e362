// The Roofline tab: the chart over the kind's table (rows by time at stake); a click on
// a point selects that op and shape's longest call in the timeline.
#include <qcustomplot.h>

#include "panels/analysis_tab.h"

namespace opscope::ui {

namespace {

class RooflineTab : public AnalysisTab {
 public:
  explicit RooflineTab(const AnalysisKind& kind) : AnalysisTab(kind) {
    connect(plot(), &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable* p, int, QMouseEvent*) {
      if (!hasResults()) return;
      const QVariantList ops = p->property("ops").toList();
      if (ops.isEmpty()) return;
      emit eventsActivated(p->property("tips").toStringList().value(0).section(QLatin1Char('\n'), 0, 0) +
                               QStringLiteral(": its longest call"),
                           {EventRef::unpack(ops.front().toULongLong())});
    });
  }
};

}  // namespace

AnalysisTab* makeRooflineTab(const AnalysisKind& kind) { return new RooflineTab(kind); }

}  // namespace opscope::ui
