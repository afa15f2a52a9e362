// Repeated kernel sequences: a bar per (op, sequence) group, its total GPU time,
// labelled with its length and count; the tooltip lists the kernels in order.
#include <qcustomplot.h>

#include <algorithm>

#include "analysis/kernel_sequences.h"
#include "charts/chart_kinds.h"
#include "charts/chart_parts.h"

namespace opscope::ui {

namespace {

using namespace parts;

constexpr size_t kBars = 15;

void plotSequences(QCustomPlot* plot, const KernelSequences& k, const ChartTheme& theme, const QString& title) {
  resetPlot(plot, theme);
  addTitle(plot, 0, title, theme);
  QCPAxisRect* rect = addRect(plot, 1, 0, theme);
  if (k.sequences.empty()) {
    emptyNote(rect,
              QStringLiteral("no op repeats a sequence of %1 or more GPU events (%L2 ops examined)")
                  .arg(k.options.minLength)
                  .arg(k.opsExamined),
              theme);
    setMinimumChartHeight(plot, 200);
    plot->replot();
    return;
  }
  QStringList labels, texts, tips;
  std::vector<double> values;
  std::vector<QColor> colors;
  for (size_t i = 0; i < k.sequences.size() && i < kBars; ++i) {
    const KernelSequence& q = k.sequences[i];
    labels << QStringLiteral("%1 (%2 kernels)").arg(shortOpLabel(q.op)).arg(q.kernels.size());
    values.push_back(static_cast<double>(q.gpuTime) / 1e6);
    colors.push_back(paletteColor(static_cast<int>(i % 8)));
    texts << QStringLiteral("%L1 × %2 · %3 per kernel")
                 .arg(q.count)
                 .arg(durationText(static_cast<double>(q.gpuTime) / static_cast<double>(q.count)))
                 .arg(durationText(static_cast<double>(q.gpuTime) / static_cast<double>(q.count) /
                                   static_cast<double>(q.kernels.size())));
    QString list;
    for (size_t n = 0; n < q.kernels.size() && n < 12; ++n)
      list += QStringLiteral("\n  %1. %2").arg(n + 1).arg(shortKernelName(q.kernels[n]));
    if (q.kernels.size() > 12) list += QStringLiteral("\n  … %1 more").arg(q.kernels.size() - 12);
    tips << QStringLiteral("%1: %L2 times, %3 of GPU time, %4 on the CPU%5")
                .arg(QString::fromStdString(q.op))
                .arg(q.count)
                .arg(durationText(static_cast<double>(q.gpuTime)))
                .arg(durationText(static_cast<double>(q.cpuTime)))
                .arg(list);
  }
  horizontalBars(rect, labels, values, colors, texts, tips, QStringLiteral("GPU time of every occurrence (ms)"), theme);
  setMinimumChartHeight(plot, 60 + barsHeight(static_cast<int>(std::min(k.sequences.size(), kBars))));
  plot->replot();
}

}  // namespace

namespace charts {

extern const ChartDrawing kernel_sequences;
const ChartDrawing kernel_sequences{
    "kernel-sequences",
    [](QCustomPlot* plot, const AnalysisResult& r, const Trace&, const ChartTheme& theme, const QString& title,
       const ChartOptions&) { plotSequences(plot, analysisValue<KernelSequences>(r), theme, title); }};

}  // namespace charts
}  // namespace opscope::ui
