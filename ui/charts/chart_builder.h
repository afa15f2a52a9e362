#pragma once
// One chart from a trace: computes the analysis and draws it (headless export). The
// panels compute the same analyses themselves (they keep them for their tables) and
// call the same plot functions with the same titles.
#include <QString>
#include <optional>

#include "analysis/kernel_classes.h"
#include "analysis/overheads.h"
#include "charts/chart_theme.h"
#include "report/export_request.h"

class QCustomPlot;

namespace opscope::ui {

struct ChartScope {
  std::optional<TimeWindow> window;
  QString label = QStringLiteral("whole trace");  // "iteration 3", ...
  std::optional<uint64_t> batchSize;
  OverheadOptions overheads;
  bool logScale = false;
  int top = 0;  // 0: the chart's default
};

QString chartTitle(ChartKind chart, const QString& scopeLabel, const QString& fileName);

void drawChart(QCustomPlot* plot, ChartKind chart, const Trace& trace, const KernelClassifier& classifier,
               const ChartScope& scope, const ChartTheme& theme, const QString& fileName);

}  // namespace opscope::ui
