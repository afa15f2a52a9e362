#pragma once
// The analysis charts, drawn into a QCustomPlot from the core's plain results. The
// panels and `opscope export --format pdf|png|svg` call the same functions, so a
// picture exported headless is the one the GUI shows.
//
// Hover and click: every bar plottable carries the property "tips" (QStringList, one
// tooltip per data point, in key order); the op-kernel chart's bars also carry
// "segments" (QVariantList of QPoint(op * 64 + variant, class) per data point) that
// say which GPU events a click selects.
#include <QPoint>
#include <QString>

#include "analysis/advice.h"
#include "analysis/device_breakdown.h"
#include "analysis/kernel_stats.h"
#include "analysis/memory_timeline.h"
#include "analysis/op_kernel_mix.h"
#include "analysis/overheads.h"
#include "analysis/overview.h"
#include "analysis/stream_usage.h"
#include "charts/chart_theme.h"
#include "ranks/rank_table.h"

class QCustomPlot;
class QCPColorMap;

namespace opscope::ui {

// ranks: the ranks of a merged session (0 or 1 for one trace), whose steps the count adds up.
void plotOverview(QCustomPlot* plot, const Overview& o, const ChartTheme& theme, const QString& title,
                  size_t ranks = 0);
// focus: a node of b whose children are drawn instead of every stream's first level.
void plotBreakdown(QCustomPlot* plot, const DeviceBreakdown& b, const Trace& trace, const ChartTheme& theme,
                   const QString& title, int topN = 15, uint32_t focus = UINT32_MAX);
void plotOpKernelMix(QCustomPlot* plot, const OpKernelMixes& m, const Trace& trace, const ChartTheme& theme,
                     const QString& title);
void plotKernelStats(QCustomPlot* plot, const KernelStats& k, const Trace& trace, const ChartTheme& theme,
                     const QString& title, int topN = 12);
// opName: T2, T3 and T5 of that op only; empty: all ops pooled.
void plotOverheads(QCustomPlot* plot, const Overheads& o, const ChartTheme& theme, const QString& title, bool logScale,
                   const QString& opName = {});
void plotStreams(QCustomPlot* plot, const StreamUsageReport& r, const ChartTheme& theme, const QString& title);
// Ranks × iterations heatmap of iteration wall time (stragglers named on the rank axis),
// per rank its time in collectives split into waiting for the slowest rank and the rest,
// and ranks × the job's top kernels (each rank against the median rank for that kernel).
void plotRanks(QCustomPlot* plot, const RankTable& t, const ChartTheme& theme, const QString& title);

// Per device (at most 4, GPUs first) allocated and reserved memory over time (MiB, ms
// from the trace start), the peak marked; a trace without "[memory]" events says how to
// record them. Each device's axis rect has property "device" (its index in m.devices).
void plotMemory(QCustomPlot* plot, const MemoryTimeline& m, const Trace& trace, const ChartTheme& theme,
                const QString& title);

// The recommendations as bars of the time at stake (most first), each labelled with its
// rule; the tips carry the finding and what to try.
void plotAdvice(QCustomPlot* plot, const std::vector<Advice>& advice, const ChartTheme& theme, const QString& title);

// The hover text of what is under pos: a bar's entry of its plottable's "tips" list, or
// a heatmap cell's (tips row-major: value row by value row); empty over nothing.
QString chartTipAt(QCustomPlot* plot, const QPoint& pos);
// The heatmap whose axis rect holds pos (in *map; null when none) and the index of its
// cell there, value * keySize + key (the order of its "tips" and "cellRows"); -1 off
// its cells and on a map of one cell a side (an empty chart).
int heatmapCellAt(QCustomPlot* plot, const QPoint& pos, QCPColorMap** map);

// Height in pixels below which the last plotted chart's labels would overlap (0 before
// any chart); a view shows it in a scroll area at least this tall rather than squash it.
int chartMinimumHeight(const QCustomPlot* plot);

// The events behind a clicked op-kernel bar segment (see "segments").
std::vector<EventRef> mixSegmentEvents(const OpKernelMixes& m, int opVariant, int cls);

}  // namespace opscope::ui
