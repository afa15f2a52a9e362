#pragma once
// The predicted-vs-measured pane: per-op GPU time from the performance models of a
// chosen GPU against what the trace measured (scatter, error histogram, tables), each
// iteration simulated end to end, and "what if": a second GPU's predictions side by
// side. Computed on a worker; a click on a point or a row selects that op.
#include <QWidget>
#include <memory>
#include <optional>

#include "charts/chart_theme.h"
#include "perf/prediction.h"
#include "trace_document.h"
#include "worker.h"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QSplitter;
class QTableWidget;
class QTabWidget;

namespace opscope::ui {

struct PredictionResults {
  PredictionResult main;
  std::optional<PredictionResult> compare;  // the what-if GPU
};

class PredictionPanel : public QWidget {
  Q_OBJECT
 public:
  explicit PredictionPanel(QWidget* parent = nullptr);
  ~PredictionPanel() override;

  void setDocument(std::shared_ptr<const TraceDocument> doc);
  void setDark(bool dark);
  // By preset or loaded name; false when there is no such GPU. compare "" for none.
  bool setGpus(const QString& gpu, const QString& compare);
  QString gpu() const;         // "" : the trace's own GPU
  QString compareGpu() const;  // "" when no what-if GPU is chosen
  bool loadOverheads(const QString& path, QString* error = nullptr);
  // A GEMM or convolution microbenchmark CSV (its header says which); replaces the
  // loaded one of its kind and keeps the other.
  bool loadMicrobenchmark(const QString& path, QString* error = nullptr);
  bool loadGpuSpecs(const QString& path, QString* error = nullptr);
  void addGpu(const GpuSpec& spec);  // a custom GPU, selected as the main one
  // Shapes of ops the trace recorded none for (a linked execution trace's); null: none.
  void setExtraShapes(std::shared_ptr<const std::map<uint64_t, OpShapes>> shapes, const QString& source);

  bool busy() const { return job_.busy() || (stale_ && isVisible()); }
  const PredictionResults* results() const { return results_.get(); }
  // No GPU is chosen and no preset matches the trace's device: nothing is predicted
  // until the user picks one (a silent default would predict on the wrong GPU).
  bool needsGpu() const { return needsGpu_; }
  // The last request was refused as the command line refuses it (needsGpu, or Calibrate
  // without the trace's own GPU): nothing is predicted and the status line says why.
  bool refused() const { return refused_; }
  QString statusText() const;   // the summary line above the charts, as plain text
  QString sourcesText() const;  // what the prediction used: GPU, overheads, GEMMs, convolutions, shapes
  // The preset's built-in microbenchmark tables (true, the default) or rooflines only;
  // clears loaded tables either way, as the Inputs menu's two entries do.
  void setBuiltinMicrobenchmarks(bool on);
  QCustomPlot* plot() const { return plot_; }
  QTableWidget* opsTable() const { return ops_; }
  QSplitter* opsSplitter() const { return split_; }  // the chart above, the ops table below
  QCheckBox* calibrateBox() const { return calibrate_; }
  QTableWidget* iterationsTable() const { return iterations_; }
  // pdf/png/svg: the chart; csv/json: the per-op rows / the full report.
  // The chart or the ops, to a file chosen in one dialog (the path, or empty).
  QString exportCurrent();
  bool exportTo(const QString& path, QString* error = nullptr);

 signals:
  void opActivated(opscope::EventRef op);
  void resultsReady();
  void failed(const QString& title, const QString& message);

 protected:
  void showEvent(QShowEvent* e) override;
  bool eventFilter(QObject* watched, QEvent* e) override;

 private:
  // Until the user drags the splitter: the chart gets its minimum height (its axis
  // labels under a scroll bar otherwise) and the ops table what remains, at least
  // kMinTableHeight.
  void fitChartInSplitter();
  static constexpr int kMinTableHeight = 110;
  void recompute();
  void startWorker();
  void onResults(std::shared_ptr<const PredictionResults> r);
  // No prediction (why, in the status; inChart, in the chart): tables emptied.
  void showNoPrediction(const QString& why, const QString& inChart);
  void fillGpuCombos(const QString& keepMain, const QString& keepCompare);
  void redraw();
  void fillTables();
  void contextMenu(const QPoint& pos);
  const GpuSpec* gpuNamed(const QString& name) const;

  std::shared_ptr<const TraceDocument> doc_;
  std::shared_ptr<const PredictionResults> results_;
  GpuSpecSet gpus_;  // presets and the user's
  std::shared_ptr<const OverheadModel> overheads_;
  QString overheadsName_;
  std::shared_ptr<const Microbenchmarks> microbench_;  // null: rooflines only
  QString gemmBenchName_, convBenchName_;
  bool builtinMicrobench_ = true;  // false after "No microbenchmark (rooflines)"
  std::shared_ptr<const std::map<uint64_t, OpShapes>> extraShapes_;
  QString extraShapesName_;
  bool stale_ = false;  // inputs changed while hidden: computed when next shown
  bool needsGpu_ = false, refused_ = false;
  LatestJob job_;
  ChartTheme theme_;
  QComboBox* gpu_ = nullptr;
  QComboBox* compare_ = nullptr;
  QCheckBox* calibrate_ = nullptr;
  QComboBox* filter_ = nullptr;
  QLabel* status_ = nullptr;
  QLabel* sources_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QCustomPlot* plot_ = nullptr;
  QTableWidget* ops_ = nullptr;
  QSplitter* split_ = nullptr;
  bool userSplit_ = false;  // the user moved the splitter: left where it is
  QTableWidget* iterations_ = nullptr;
  QTableWidget* types_ = nullptr;
};

}  // namespace opscope::ui
