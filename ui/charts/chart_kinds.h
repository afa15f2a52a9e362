#pragma once
// How each kind of the analysis catalog (core/report/analysis_catalog.h) is drawn. One
// file per kind in ui/charts/kinds/<stem>.cpp defines
// `const ChartDrawing opscope::ui::charts::<stem>` carrying the kind's name; CMake finds
// the files and generates the list. The Analysis dock, its PDF/PNG/SVG exports and
// `opscope export --format pdf|png|svg` all draw through drawAnalysisChart, so a
// picture exported headless is the one the window shows.
#include <QString>
#include <cstdint>
#include <string_view>
#include <vector>

#include "charts/chart_theme.h"
#include "report/analysis_catalog.h"

class QCustomPlot;

namespace opscope::ui {

// What a user can change about a chart without computing its analysis again.
struct ChartOptions {
  int top = 0;                  // bars to keep; 0: the chart's default
  bool logScale = false;        // histogram counts on a log axis (overheads)
  QString op;                   // overheads: T2, T3 and T5 of this op only; empty: all ops
  uint32_t focus = UINT32_MAX;  // breakdown: the node whose children are drawn
};

struct ChartDrawing {
  std::string_view name;  // the catalog kind it draws
  void (*draw)(QCustomPlot* plot, const AnalysisResult& result, const Trace& trace, const ChartTheme& theme,
               const QString& title, const ChartOptions& options) = nullptr;
};

// Every drawing (generated list); nullptr when no file draws that kind.
const std::vector<const ChartDrawing*>& chartDrawings();
const ChartDrawing* chartDrawing(std::string_view kind);

// "Kernel statistics · iteration 3 · trace.json.gz".
QString chartTitle(const AnalysisKind& kind, const QString& scopeLabel, const QString& fileName);

// The kind's chart of result, with the standard title; a kind nothing draws says so.
void drawAnalysisChart(QCustomPlot* plot, const AnalysisKind& kind, const AnalysisResult& result, const Trace& trace,
                       const ChartTheme& theme, const QString& scopeLabel, const QString& fileName,
                       const ChartOptions& options = {});

}  // namespace opscope::ui
