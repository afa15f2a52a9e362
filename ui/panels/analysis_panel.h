#pragma once
// The Analysis dock: one tab per chart (overview, device-time breakdown, op kernel
// mixes, kernel statistics, T1-T5 overheads, streams), each a chart over the table of
// the same figures, for the whole trace or one iteration. Analyses run on a worker
// thread over the shared, immutable document; a newer request supersedes older ones.
// Every chart's context menu exports it (PDF, PNG, SVG) and its data (CSV, JSON).
#include <QWidget>
#include <memory>
#include <optional>

#include "analysis/advice.h"
#include "analysis/critical_path.h"
#include "analysis/device_breakdown.h"
#include "analysis/kernel_stats.h"
#include "analysis/memory_timeline.h"
#include "analysis/op_kernel_mix.h"
#include "analysis/overheads.h"
#include "analysis/overview.h"
#include "analysis/stream_usage.h"
#include "charts/chart_theme.h"
#include "ranks/rank_table.h"
#include "report/export_request.h"
#include "timeline/timeline_renderer.h"
#include "trace_document.h"

class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QCheckBox;
class QSpinBox;
class QTabWidget;
class QTableWidget;
class QTreeWidget;
class QLineEdit;
class QLabel;

namespace opscope::ui {
class OpKernelsView;
class CriticalPathView;
}  // namespace opscope::ui

namespace opscope::ui {

// Everything the tabs show, computed together for one scope.
struct AnalysisResults {
  std::optional<TimeWindow> window;
  QString scopeLabel;
  Overview overview;
  DeviceBreakdown breakdown;
  OpKernelMixes mixes;
  KernelStats kernels;
  ProfilerCostEstimate estimate;
  Overheads overheads;
  StreamUsageReport streams;
  RankTable ranks;        // one row for a single trace; every rank of a folder session
  MemoryTimeline memory;  // the whole trace: allocations outlive any iteration
  std::vector<Advice> advice;
  std::shared_ptr<const CriticalPath> criticalPath;  // of the scope: one iteration or the whole trace
};

class AnalysisPanel : public QWidget {
  Q_OBJECT
 public:
  explicit AnalysisPanel(QWidget* parent = nullptr);
  ~AnalysisPanel() override;

  void setDocument(std::shared_ptr<const TraceDocument> doc);
  void setDark(bool dark);
  // The kernel-class rules of the charts and tables (Preferences; the built-in rules
  // until set); recomputes with them.
  void setKernelClassifier(std::shared_ptr<const KernelClassifier> classifier);
  // -1: whole trace; else the 0-based iteration.
  void setScope(int iteration);
  void showChart(ChartKind chart);
  bool busy() const { return pending_ > 0; }
  const AnalysisResults* results() const { return results_.get(); }
  QCustomPlot* plot(ChartKind chart) const;
  OpKernelsView* opKernels() const { return opKernels_; }
  CriticalPathView* criticalPath() const { return criticalPath_; }
  void showCriticalPath();
  // The Op kernels tab showing the kernels of op (grouped by input shape when byShape).
  void showOpKernels(const QString& op, bool byShape);
  // Exports the chart (by suffix: pdf, png, svg) or its data (csv, json).
  bool exportChart(ChartKind chart, const QString& path, QString* error = nullptr);

 signals:
  void eventsActivated(const QString& what, std::vector<opscope::EventRef> events);
  void nameActivated(const QString& name);
  void pathMarked(std::vector<opscope::ui::PathArrow> arrows);
  void resultsReady();
  // A computation failed (one line); the panel keeps its previous results.
  void failed(const QString& title, const QString& message);

 private:
  void recompute();
  void onResults(quint64 generation, std::shared_ptr<const AnalysisResults> results);
  void onFailed(quint64 generation, const QString& message);
  void redraw();
  void fillTables();

 public:
  // The Memory tab's table: the allocations of device (index into results().memory)
  // live at t.
  void showLiveMemory(size_t device, TimeNs t);
  QTableWidget* memoryTable() const { return memoryTable_; }
  // Memory by op of the same device (TensorBoard's "by operator": self and with children).
  QTableWidget* memoryOpTable() const { return memoryOpTable_; }

 private:
  void plotContextMenu(ChartKind chart, const QPoint& pos);
  void hoverTip(QCustomPlot* plot, QMouseEvent* e);
  QString dataText(ChartKind chart, bool json) const;
  OverheadOptions overheadOptions() const;

  std::shared_ptr<const TraceDocument> doc_;
  std::shared_ptr<const KernelClassifier> classifier_;
  std::shared_ptr<const AnalysisResults> results_;
  quint64 generation_ = 0;
  int pending_ = 0;
  ChartTheme theme_;
  QComboBox* scope_ = nullptr;
  QSpinBox* batch_ = nullptr;
  QLabel* status_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QCustomPlot* plots_[9] = {};
  QTableWidget* overviewTable_ = nullptr;
  QTreeWidget* breakdownTree_ = nullptr;
  QLineEdit* breakdownFilter_ = nullptr;
  uint32_t breakdownFocus_ = UINT32_MAX;  // node whose children the chart shows
  QTableWidget* mixTable_ = nullptr;
  OpKernelsView* opKernels_ = nullptr;
  QTabWidget* mixTabs_ = nullptr;
  QTableWidget* kernelTable_ = nullptr;
  QTableWidget* overheadTable_ = nullptr;
  QTableWidget* streamTable_ = nullptr;
  QTableWidget* rankTable_ = nullptr;
  QTableWidget* memoryTable_ = nullptr;    // the allocations live at memoryTime_
  QTableWidget* memoryOpTable_ = nullptr;  // memoryDevice_'s byOp
  QTabWidget* memoryTabs_ = nullptr;       // the two above
  QTableWidget* adviceTable_ = nullptr;
  CriticalPathView* criticalPath_ = nullptr;
  int criticalPathTab_ = -1;
  QLabel* memoryNote_ = nullptr;
  size_t memoryDevice_ = 0;
  TimeNs memoryTime_ = 0;
  void fillMemoryTable();
  void fillMemoryOpTable();
  QDoubleSpinBox* cpuCost_ = nullptr;
  QDoubleSpinBox* gpuCost_ = nullptr;
  QDoubleSpinBox* launchCost_ = nullptr;
  QDoubleSpinBox* t1Gap_ = nullptr;
  QCheckBox* logScale_ = nullptr;
  QComboBox* overheadOp_ = nullptr;
  bool costsEdited_ = false;
};

}  // namespace opscope::ui
