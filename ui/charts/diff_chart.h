#pragma once
// The diff dock's chart: the rows with the largest change between two runs as
// diverging horizontal bars (B − A: red to the right where B is slower, blue to the left
// where it is faster), largest change on top; hover tips carry the full row.
#include <QString>
#include <vector>

#include "analysis/trace_diff.h"
#include "charts/chart_theme.h"

class QCustomPlot;

namespace opscope::ui {

void plotDiff(QCustomPlot* plot, const std::vector<const DiffRow*>& rows, const ChartTheme& theme,
              const QString& title);

}  // namespace opscope::ui
