#pragma once
// One tab of the Analysis dock: a catalog kind's chart (charts/chart_kinds.h) over a
// table of the same figures, with optional controls above the chart. The base tab
// serves any kind: its table is the kind's CSV, so a new analysis shows in the dock with
// no code here. Kinds with more to show (a tree, controls, clicks on the chart) have a
// tab of their own in panels/tabs/, made by makeAnalysisTab.
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

#include "analysis/critical_path.h"
#include "charts/chart_kinds.h"
#include "charts/chart_theme.h"
#include "model/ids.h"
#include "report/analysis_catalog.h"
#include "trace_document.h"

class QCustomPlot;
class QSplitter;
class QTableWidget;
class QVBoxLayout;

namespace opscope::ui {

// Everything the dock computed for one scope, kept together (the tabs' results, the
// critical path), shared read-only with the worker that made it.
struct AnalysisResults {
  AnalysisRequest request;  // window, scope label, options (its classifier pointer is not kept)
  QString scopeLabel;
  std::vector<std::pair<const AnalysisKind*, std::shared_ptr<const AnalysisResult>>> byKind;
  std::shared_ptr<const CriticalPath> criticalPath;  // of the scope

  const AnalysisResult* of(std::string_view kind) const;
  template <class T>
  const T& value(std::string_view kind) const {
    return analysisValue<T>(*of(kind));
  }
};

class AnalysisTab : public QWidget {
  Q_OBJECT
 public:
  explicit AnalysisTab(const AnalysisKind& kind, QWidget* parent = nullptr);
  const AnalysisKind& kind() const { return kind_; }
  QCustomPlot* plot() const { return plot_; }

  // New results (the dock computed every kind for a scope): the tab keeps them, fills
  // its table and draws its chart when it is on screen, else when it is next shown
  // (filling every tab at once stalled the window 0.5 s on a 1 GB trace).
  void setResults(std::shared_ptr<const TraceDocument> doc, std::shared_ptr<const AnalysisResults> results);
  // Fills and draws now what setResults or setTheme left for the next show (an export,
  // a test reading a hidden tab).
  void ensureDrawn();
  // No results yet, or they failed: a message in the chart.
  void showMessage(const QString& text);
  void setTheme(const ChartTheme& theme);
  // Draws the chart again from the kept results (theme or options changed).
  void redraw();
  // What the tab's controls say about the chart (overheads: one op, log counts).
  virtual ChartOptions chartOptions() const { return {}; }
  // The kernel-class rules (Preferences), for tabs that compute more themselves.
  virtual void setKernelClassifier(std::shared_ptr<const KernelClassifier>) {}
  // The data behind the chart, as the command line's export writes it.
  std::string dataText(bool json) const;

 signals:
  void eventsActivated(const QString& what, std::vector<opscope::EventRef> events);
  void nameActivated(const QString& name);
  // The tab's inputs to the analysis changed (the overheads' costs): compute again.
  void recomputeRequested();
  void failed(const QString& title, const QString& message);

 protected:
  // The table or tree under the chart, and controls above it; set once by a subclass
  // constructor (the base shows the kind's CSV under the chart).
  void showEvent(QShowEvent* e) override;
  void setBelow(QWidget* below);
  void setAbove(QWidget* above);
  // A subclass fills its own widgets from the results; the base fills the CSV table.
  virtual void fill();
  const TraceDocument& doc() const { return *doc_; }
  std::shared_ptr<const TraceDocument> document() const { return doc_; }
  const AnalysisResults& results() const { return *results_; }
  const AnalysisResult& result() const { return *results_->of(kind_.name); }
  bool hasResults() const { return results_ && doc_; }
  const ChartTheme& theme() const { return theme_; }

 private:
  const AnalysisKind& kind_;
  QCustomPlot* plot_ = nullptr;
  QVBoxLayout* top_ = nullptr;
  QSplitter* split_ = nullptr;
  QTableWidget* csvTable_ = nullptr;  // the base's table
  std::shared_ptr<const TraceDocument> doc_;
  std::shared_ptr<const AnalysisResults> results_;
  ChartTheme theme_;
  bool needsFill_ = false, needsDraw_ = false;  // left for the next show
};

// The tab of a kind: its own (panels/tabs/) when it has one, else the base tab.
AnalysisTab* makeAnalysisTab(const AnalysisKind& kind);

}  // namespace opscope::ui
