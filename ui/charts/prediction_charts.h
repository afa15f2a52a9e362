#pragma once
// The prediction pane's chart: per-op GPU time predicted against measured on log-log
// axes (the y = x line and a ±10 % band), one colour per model, beside a histogram of
// the signed error. Scatter points carry the property "ops" (a QVariantList of indices
// into PredictionResult::ops, in data order) so a click finds its op.
#include <QString>

#include "charts/chart_theme.h"
#include "perf/prediction.h"

class QCustomPlot;

namespace opscope::ui {

// opFilter: only ops of that name; empty: all.
void plotPrediction(QCustomPlot* plot, const PredictionResult& r, const Trace& trace, const ChartTheme& theme,
                    const QString& title, const QString& opFilter = {});

}  // namespace opscope::ui
