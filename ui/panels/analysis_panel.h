#pragma once
// The Analysis dock: one tab per kind of the analysis catalog (report/analysis_catalog.h,
// in its order; each an AnalysisTab: the kind's chart over its table), plus the
// critical path, for the whole trace or one iteration. Every kind is computed on a
// worker over the shared, immutable document (a newer request supersedes older ones).
// Every chart's context menu exports it (PDF, PNG, SVG) and its data (CSV, JSON, as
// `opscope export` writes them).
#include <QWidget>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "charts/chart_theme.h"
#include "elided_label.h"
#include "panels/analysis_tab.h"
#include "timeline/timeline_renderer.h"
#include "trace_document.h"
#include "worker.h"

class QComboBox;
class QCustomPlot;
class QLabel;
class QSpinBox;
class QTabWidget;
class QTableWidget;

namespace opscope::ui {
class OpKernelsView;
class CriticalPathView;

class AnalysisPanel : public QWidget {
  Q_OBJECT
 public:
  explicit AnalysisPanel(QWidget* parent = nullptr);
  ~AnalysisPanel() override;

  void setDocument(std::shared_ptr<const TraceDocument> doc);
  void setDark(bool dark);
  // The kernel-class rules of every kind (Preferences; the built-in rules until set);
  // recomputes with them.
  void setKernelClassifier(std::shared_ptr<const KernelClassifier> classifier);
  // -1: whole trace; else the 0-based iteration.
  void setScope(int iteration);
  // The tab of a catalog kind ("memory", ...).
  void showChart(std::string_view kind);
  // Computing, or about to: a shown panel whose inputs changed starts on the next turn
  // of the event loop; a hidden one computes nothing until shown.
  bool busy() const { return job_.busy() || (stale_ && isVisible()); }
  const AnalysisResults* results() const { return results_.get(); }
  QCustomPlot* plot(std::string_view kind) const;
  AnalysisTab* tab(std::string_view kind) const;
  OpKernelsView* opKernels() const;
  CriticalPathView* criticalPath() const { return criticalPath_; }
  void showCriticalPath();
  // The Op kernels tab showing the kernels of op (grouped by input shape when byShape).
  void showOpKernels(const QString& op, bool byShape);
  // Exports the kind's chart (by suffix: pdf, png, svg) or its data (csv, json).
  // The current tab's chart or data, to a file chosen in one dialog; the path written
  // (empty: cancelled or failed, the failure shown).
  QString exportCurrent();
  bool exportChart(std::string_view kind, const QString& path, QString* error = nullptr);
  // The Memory tab: the allocations of device live at t, and its tables.
  void showLiveMemory(size_t device, TimeNs t);
  QTableWidget* memoryTable() const;
  QTableWidget* memoryOpTable() const;

 signals:
  void eventsActivated(const QString& what, std::vector<opscope::EventRef> events);
  void nameActivated(const QString& name);
  void pathMarked(std::vector<opscope::ui::PathArrow> arrows);
  void resultsReady();
  // A computation failed (one line); the panel keeps its previous results.
  void failed(const QString& title, const QString& message);

 protected:
  void showEvent(QShowEvent* e) override;

 private:
  void recompute();
  void startJob();
  void onResults(std::shared_ptr<const AnalysisResults> results);
  void onFailed(const QString& message);

  std::shared_ptr<const TraceDocument> doc_;
  std::shared_ptr<const KernelClassifier> classifier_;
  std::shared_ptr<const AnalysisResults> results_;
  LatestJob job_;
  ChartTheme theme_;
  QComboBox* scope_ = nullptr;
  QSpinBox* batch_ = nullptr;
  ElidedLabel* status_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  std::vector<AnalysisTab*> kindTabs_;  // catalog order
  CriticalPathView* criticalPath_ = nullptr;
  int criticalPathTab_ = -1;
  bool stale_ = false;  // inputs changed while hidden: compute when shown
};

}  // namespace opscope::ui
