// Device time per stream as horizontal bars; a focus node draws its children instead.
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/device_breakdown.h"
#include "charts/analysis_charts.h"
#include "charts/chart_kinds.h"
#include "charts/chart_parts.h"
#include "timeline/names.h"

namespace opscope::ui {

using namespace parts;

void plotBreakdown(QCustomPlot* plot, const DeviceBreakdown& b, const Trace& trace, const ChartTheme& theme,
                   const QString& title, int topN, uint32_t focus) {
  resetPlot(plot, theme);
  const bool focused = focus < b.nodes.size();
  addTitle(
      plot, 0,
      focused ? title + QStringLiteral(" · inside ") + displayName(breakdownLabel(trace, b.nodes[focus]), 60) : title,
      theme);
  QCPAxisRect* rect = addRect(plot, 1, 0, theme);
  // The first level of ops under each stream (or the children of the focus node); a
  // merged ProfilerStep#* level that holds everything is looked through.
  struct Entry {
    uint32_t node;
    uint32_t streamRank;
  };
  std::vector<Entry> entries;
  auto addLevel = [&](uint32_t parent, uint32_t rank) {
    for (uint32_t c : b.nodes[parent].children) {
      if (b.nodes[c].allSteps)
        for (uint32_t g : b.nodes[c].children) entries.push_back({g, rank});
      else entries.push_back({c, rank});
    }
  };
  if (focused) {
    uint32_t root = focus;
    while (b.nodes[root].parent != UINT32_MAX) root = b.nodes[root].parent;
    const auto rank = std::find(b.roots.begin(), b.roots.end(), root) - b.roots.begin();
    addLevel(focus, static_cast<uint32_t>(rank));
  } else {
    for (uint32_t r = 0; r < b.roots.size(); ++r) addLevel(b.roots[r], r);
  }
  std::sort(entries.begin(), entries.end(),
            [&b](const Entry& x, const Entry& y) { return b.nodes[x.node].time > b.nodes[y.node].time; });
  if (entries.size() > static_cast<size_t>(topN)) entries.resize(static_cast<size_t>(topN));
  QStringList labels, texts, tips;
  std::vector<double> values;
  std::vector<QColor> colors;
  std::vector<std::string> fullNames;
  for (const Entry& e : entries) fullNames.push_back(breakdownLabel(trace, b.nodes[e.node]));
  const QStringList shownNames = distinctDisplayNames(fullNames, kBarLabelChars);
  for (size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    const BreakdownNode& n = b.nodes[e.node];
    const QString name = QString::fromStdString(fullNames[i]);
    const QString stream = QString::fromStdString(trace.trackLabel(n.stream));
    labels << shownNames[static_cast<qsizetype>(i)] + QStringLiteral("  [") + stream.section(QStringLiteral("· "), -1) +
                  "]";
    values.push_back(ms(n.time));
    colors.push_back(paletteColor(static_cast<int>(e.streamRank)));
    texts << durationText(static_cast<double>(n.time)) + " · " + percent(n.share);
    tips << QStringLiteral("%1\n%2\n%3 of the stream's device time, %L4 GPU events")
                .arg(name, stream, percent(n.share))
                .arg(n.count);
  }
  if (labels.isEmpty()) emptyNote(rect, QStringLiteral("no GPU events"), theme);
  else
    horizontalBars(rect, labels, values, colors, texts, tips, QStringLiteral("device time (ms), colour = stream"),
                   theme);
  setMinimumChartHeight(plot, 30 + barsHeight(static_cast<int>(labels.size())));
  plot->replot();
}

namespace charts {

extern const ChartDrawing breakdown;
const ChartDrawing breakdown{"breakdown", [](QCustomPlot* plot, const AnalysisResult& r, const Trace& trace,
                                             const ChartTheme& theme, const QString& title, const ChartOptions& o) {
                               plotBreakdown(plot, analysisValue<DeviceBreakdown>(r), trace, theme, title,
                                             o.top ? o.top : 15, o.focus);
                             }};

}  // namespace charts
}  // namespace opscope::ui
