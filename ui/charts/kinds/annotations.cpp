// GPU user annotations: a bar per annotation name, its total time on the GPU streams,
// labelled with its instances and the time of the GPU events inside it.
#include <qcustomplot.h>

#include <algorithm>

#include "analysis/annotation_breakdown.h"
#include "charts/chart_kinds.h"
#include "charts/chart_parts.h"

namespace opscope::ui {

namespace {

using namespace parts;

constexpr size_t kBars = 20;

void plotAnnotations(QCustomPlot* plot, const AnnotationBreakdown& b, const ChartTheme& theme, const QString& title) {
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  QCPAxisRect* rect = addRect(plot, 1, 0, theme);
  if (b.rows.empty()) {
    emptyNote(rect,
              QStringLiteral("no gpu_user_annotation spans: Kineto draws them for record_function ranges "
                             "that launch GPU work"),
              theme);
    setMinimumChartHeight(plot, 200);
    plot->replot();
    return;
  }
  QStringList labels, texts, tips;
  std::vector<double> values;
  std::vector<QColor> colors;
  for (size_t i = 0; i < b.rows.size() && i < kBars; ++i) {
    const AnnotationRow& r = b.rows[i];
    labels << shortOpLabel(r.name);
    values.push_back(static_cast<double>(r.total) / 1e6);
    colors.push_back(paletteColor(static_cast<int>(i % 8)));
    texts << QStringLiteral("%L1 × mean %2 · kernels %3")
                 .arg(r.durUs.count)
                 .arg(durationText(r.durUs.mean * 1000))
                 .arg(durationText(static_cast<double>(r.gpuEventTime)));
    QString top;
    for (size_t k = 0; k < r.kernels.size() && k < 5; ++k)
      top += QStringLiteral("\n  %1 × %L2: %3")
                 .arg(shortKernelName(r.kernels[k].name))
                 .arg(r.kernels[k].count)
                 .arg(durationText(static_cast<double>(r.kernels[k].time)));
    tips << QStringLiteral("%1\n%L2 instances, %3 in all (min %4, max %5)\n%L6 GPU events inside, %7%8")
                .arg(QString::fromStdString(r.name))
                .arg(r.durUs.count)
                .arg(durationText(static_cast<double>(r.total)))
                .arg(durationText(r.durUs.min * 1000))
                .arg(durationText(r.durUs.max * 1000))
                .arg(r.gpuEvents)
                .arg(durationText(static_cast<double>(r.gpuEventTime)))
                .arg(top);
  }
  horizontalBars(rect, labels, values, colors, texts, tips, QStringLiteral("time on the GPU streams (ms)"), theme);
  setMinimumChartHeight(plot, 60 + barsHeight(static_cast<int>(std::min(b.rows.size(), kBars))));
  plot->replot();
}

}  // namespace

namespace charts {

extern const ChartDrawing annotations;
const ChartDrawing annotations{"annotations", [](QCustomPlot* plot, const AnalysisResult& r, const Trace&,
                                                 const ChartTheme& theme, const QString& title, const ChartOptions&) {
                                 plotAnnotations(plot, analysisValue<AnnotationBreakdown>(r), theme, title);
                               }};

}  // namespace charts
}  // namespace opscope::ui
