#pragma once
// The Compare dock (File > Compare with…): the open trace (A) against a second one (B),
// or against another iteration range of itself: ops by name and input shapes, kernels
// by name, as a diverging bar chart of the largest changes over a table of every row
// (filterable, sortable). The diff runs on a worker over the two immutable documents; a
// newer request supersedes older ones. The chart's context menu exports it (PDF, PNG,
// SVG) and the data (CSV, JSON: opscope diff's contract).
#include <QWidget>
#include <memory>

#include "analysis/trace_diff.h"
#include "charts/chart_theme.h"
#include "trace_document.h"
#include "worker.h"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace opscope::ui {

class DiffPanel : public QWidget {
  Q_OBJECT
 public:
  explicit DiffPanel(QWidget* parent = nullptr);

  // A against B, whole traces; b may be a itself (then pick two iteration ranges).
  void compare(std::shared_ptr<const TraceDocument> a, std::shared_ptr<const TraceDocument> b);
  // A against the trace at path, loaded on a worker (a failure is reported by failed);
  // dropped when another comparison starts meanwhile.
  void compareWithFile(std::shared_ptr<const TraceDocument> a, const QString& path);
  void clear();
  void setDark(bool dark);
  // Iteration ranges compared: an index into each trace's iterations, -1 the whole trace.
  void setIterations(int a, int b);
  void setShowKernels(bool kernels);
  void setFilter(const QString& text);

  bool busy() const { return job_.busy(); }
  const TraceDiff* result() const { return result_.get(); }
  const TraceDocument* traceB() const { return b_.get(); }
  QTableWidget* table() const { return table_; }
  QCustomPlot* plot() const { return plot_; }
  // The chart or the rows, to a file chosen in one dialog (the path, or empty).
  QString exportCurrent();
  bool exportChart(const QString& path, QString* error);
  static constexpr int kChartRows = 15;  // at most, when the chart is tall enough

 signals:
  // A row was double-clicked: the name to find on the timeline (of A).
  void nameActivated(const QString& name);
  // A comparison was delivered: B, and the times of A and of B that line up (the starts
  // of the ranges compared), for B's timeline under A's.
  void compared(std::shared_ptr<const opscope::ui::TraceDocument> b, opscope::TimeNs alignA, opscope::TimeNs alignB);
  // Loading B failed (one line).
  void failed(const QString& title, const QString& message);
  // Loading B started ("Loading b.json to compare…") or ended (empty).
  void loading(const QString& text);

 protected:
  bool eventFilter(QObject* watched, QEvent* e) override;

 private:
  void recompute();
  void refresh();  // chart and table from result_, the filter and the ops/kernels choice
  void fillRanges(QComboBox* box, const TraceDocument* doc);
  std::string dataText(bool json) const;
  void contextMenu(const QPoint& pos);

  std::shared_ptr<const TraceDocument> a_, b_;
  std::shared_ptr<const TraceDiff> result_;
  ChartTheme theme_;
  LatestJob job_;
  LatestJob loadB_;
  QLabel* heading_ = nullptr;
  QComboBox* rows_ = nullptr;  // ops / kernels
  QComboBox* rangeA_ = nullptr;
  QComboBox* rangeB_ = nullptr;
  QCheckBox* perIteration_ = nullptr;
  QLineEdit* filter_ = nullptr;
  QCustomPlot* plot_ = nullptr;
  QTableWidget* table_ = nullptr;
};

}  // namespace opscope::ui
