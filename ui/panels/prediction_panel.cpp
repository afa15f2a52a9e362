#include "panels/prediction_panel.h"

#include <qcustomplot.h>

#include <algorithm>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextDocument>
#include <QThreadPool>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

#include "charts/chart_export.h"
#include "charts/prediction_charts.h"
#include "dialog_folder.h"
#include "io/side_input.h"
#include "panels/adaptive_splitter.h"
#include "panels/gpu_spec_dialog.h"
#include "panels/table_items.h"
#include "perf/op_inputs.h"
#include "perf/prediction_policy.h"
#include "report/predict_report.h"
#include "worker.h"

namespace opscope::ui {

namespace {

constexpr const char* kTraceDefault = "(the trace's GPU)";
constexpr const char* kNoCompare = "—";

// The file, read as a side input of its kind (io/side_input.h: bounded, one-line
// errors), parsed by parse(text, error) -> optional; on failure nullopt and one line
// naming the file.
template <class Parse>
auto parseFile(const QString& path, SideInputKind kind, QString* error, Parse parse)
    -> decltype(parse(std::string(), std::declval<std::string&>())) {
  SideRead read = readSideInput(QFile::encodeName(path).toStdString(), kind);
  if (read.status != SideReadStatus::Ok) {
    if (error) *error = QStringLiteral("%1: %2").arg(path, QString::fromStdString(read.error));
    return std::nullopt;
  }
  std::string e;
  auto parsed = parse(read.text, e);
  if (!parsed && error) *error = QStringLiteral("%1: %2").arg(path, QString::fromStdString(e));
  return parsed;
}

}  // namespace

PredictionPanel::PredictionPanel(QWidget* parent) : QWidget(parent), gpus_(builtinGpuSpecs()) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* bar = new QHBoxLayout;
  gpu_ = new QComboBox;
  gpu_->setToolTip(QStringLiteral("GPU whose models predict each op's GPU time"));
  compare_ = new QComboBox;
  compare_->setToolTip(QStringLiteral("What if: a second GPU, its predictions side by side"));
  // Inputs ▾ holds what is set up once (the GPU's figures, overheads, benchmarks, where
  // they came from), so the bar fits a laptop's bottom dock.
  auto* more = new QPushButton(QStringLiteral("Inputs"));
  auto* inputs = new QMenu(more);
  more->setMenu(inputs);
  QAction* edit = inputs->addAction(QStringLiteral("Edit the GPU's figures…"));
  filter_ = new QComboBox;
  filter_->setToolTip(QStringLiteral("Only ops of this name in the chart and the op table"));
  // Combo boxes as wide as a short name, not their longest entry: the bar fits a
  // laptop's bottom dock (it pushed the panel into a sideways scroll at 1280x720).
  for (QComboBox* box : {gpu_, compare_, filter_}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(10);
  }
  bar->addWidget(new QLabel(QStringLiteral("GPU")));
  bar->addWidget(gpu_);
  bar->addWidget(new QLabel(QStringLiteral("what if")));
  bar->addWidget(compare_);
  calibrate_ = new QCheckBox(QStringLiteral("Calibrate"));
  calibrate_->setToolTip(
      QStringLiteral("Learn the kernel floor, the achieved DRAM bandwidth and each model's share of "
                     "its datasheet prediction from the first iteration and predict with them; errors are then over "
                     "the other iterations (out of sample)"));
  bar->addWidget(calibrate_);
  bar->addWidget(more);
  // Where the GPU, the overheads and the benchmarks came from: a line on request, so a
  // laptop-height dock keeps its rows for the chart.
  QAction* sources = inputs->addAction(QStringLiteral("Show where the inputs come from"));
  sources->setCheckable(true);
  sources->setToolTip(
      QStringLiteral("A line under the figures: where the GPU, the overheads, the GEMM and convolution timings and the "
                     "shapes come from"));
  inputs->addSeparator();
  bar->addWidget(new QLabel(QStringLiteral("ops")));
  bar->addWidget(filter_, 1);
  bar->addWidget(makeExportButton(QStringLiteral("the predicted ops"), [this] { exportCurrent(); }));
  layout->addLayout(bar);
  status_ = new QLabel;
  status_->setWordWrap(true);
  sources_ = new QLabel;
  sources_->setWordWrap(true);
  layout->addWidget(status_);
  layout->addWidget(sources_);
  sources_->setVisible(false);
  connect(sources, &QAction::toggled, sources_, &QLabel::setVisible);

  tabs_ = new QTabWidget;
  layout->addWidget(tabs_, 1);
  plot_ = new QCustomPlot;
  plot_->setMinimumHeight(140);
  plot_->setContextMenuPolicy(Qt::CustomContextMenu);
  plot_->setMouseTracking(true);
  showPlotMessage(plot_, QStringLiteral("No trace loaded"), theme_);
  auto* scroll = new QScrollArea;
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setWidget(plot_);
  ops_ = makeTable(
      {QStringLiteral("Op"), QStringLiteral("Start (ms)"), QStringLiteral("Measured (µs)"),
       QStringLiteral("Predicted (µs)"), QStringLiteral("Error (%)"), QStringLiteral("Model"),
       QStringLiteral("What-if GPU (µs)"), QStringLiteral("What-if / measured"), QStringLiteral("Input dims")},
      {0, 8});
  ops_->setSortingEnabled(true);
  ops_->setToolTip(QStringLiteral("Activate a row to select the op in the timeline"));
  split_ = new AdaptiveSplitter;
  split_->addWidget(scroll);
  split_->addWidget(ops_);
  split_->setSizes({600, 250});
  connect(split_, &QSplitter::splitterMoved, this, [this] { userSplit_ = true; });
  split_->installEventFilter(this);
  tabs_->addTab(split_, QStringLiteral("Ops"));
  iterations_ = makeTable({QStringLiteral("Iteration"), QStringLiteral("Step"), QStringLiteral("Measured (ms)"),
                           QStringLiteral("Predicted (ms)"), QStringLiteral("Error (%)"),
                           QStringLiteral("GPU active measured (ms)"), QStringLiteral("GPU active predicted (ms)"),
                           QStringLiteral("What-if GPU (ms)"), QStringLiteral("What-if / predicted")});
  iterations_->setSortingEnabled(true);
  tabs_->addTab(iterations_, QStringLiteral("Iterations"));
  types_ = makeTable({QStringLiteral("Op"), QStringLiteral("Calls"), QStringLiteral("Modelled"),
                      QStringLiteral("Measured (ms)"), QStringLiteral("Predicted (ms)"), QStringLiteral("GMAE (%)"),
                      QStringLiteral("Mean |error| (%)"), QStringLiteral("Model"), QStringLiteral("What-if GPU (ms)")});
  types_->setSortingEnabled(true);
  tabs_->addTab(types_, QStringLiteral("Op types"));

  fillGpuCombos(QString::fromLatin1(kTraceDefault), QString::fromUtf8(kNoCompare));
  connect(gpu_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
  connect(compare_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
  connect(calibrate_, &QCheckBox::toggled, this, [this] { recompute(); });
  connect(filter_, &QComboBox::currentIndexChanged, this, [this] {
    redraw();
    fillTables();
  });
  connect(edit, &QAction::triggered, this, [this] {
    const GpuSpec* current = gpuNamed(gpu_->currentText());
    GpuSpec start = current ? *current : (results_ ? results_->main.setup.gpu : gpus_.gpus.front());
    GpuSpecDialog dialog(start, this);
    if (dialog.exec() != QDialog::Accepted) return;
    GpuSpec edited = dialog.spec();
    if (builtinGpuSpecs().find(edited.name)) edited.name += " (edited)";
    addGpu(edited);
  });
  inputs->addAction(QStringLiteral("Load GPU specs…"), this, [this] {
    const QString path =
        QFileDialog::getOpenFileName(this, QStringLiteral("GPU specs"), dialogStart(), QStringLiteral("JSON (*.json)"));
    QString error;
    if (!path.isEmpty() && !loadGpuSpecs(path, &error)) QMessageBox::warning(this, QStringLiteral("GPU specs"), error);
  });
  inputs->addAction(QStringLiteral("Load overheads (T1–T5 JSON)…"), this, [this] {
    const QString path =
        QFileDialog::getOpenFileName(this, QStringLiteral("Overheads"), dialogStart(), QStringLiteral("JSON (*.json)"));
    QString error;
    if (!path.isEmpty() && !loadOverheads(path, &error)) QMessageBox::warning(this, QStringLiteral("Overheads"), error);
  });
  inputs->addAction(QStringLiteral("Use this trace's overheads"), this, [this] {
    overheads_.reset();
    overheadsName_.clear();
    recompute();
  });
  inputs->addAction(QStringLiteral("Load GEMM or convolution microbenchmark (CSV)…"), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Microbenchmark"), dialogStart(),
                                                      QStringLiteral("CSV (*.csv)"));
    QString error;
    if (!path.isEmpty() && !loadMicrobenchmark(path, &error))
      QMessageBox::warning(this, QStringLiteral("Microbenchmark"), error);
  });
  inputs->addAction(QStringLiteral("Built-in microbenchmarks of the GPU (H100-SXM: convolutions)"), this,
                    [this] { setBuiltinMicrobenchmarks(true); });
  inputs->addAction(QStringLiteral("No microbenchmark (rooflines)"), this,
                    [this] { setBuiltinMicrobenchmarks(false); });
  connect(plot_, &QWidget::customContextMenuRequested, this, &PredictionPanel::contextMenu);
  connect(plot_, &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable* p, int index, QMouseEvent*) {
    const QVariantList ops = p->property("ops").toList();
    if (!results_ || index < 0 || index >= ops.size()) return;
    const size_t op = static_cast<size_t>(ops[index].toInt());
    if (op < results_->main.ops.size()) emit opActivated(results_->main.ops[op].op);
  });
  connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
    int index = -1;
    QCPAbstractPlottable* p = plot_->plottableAt(e->pos(), false, &index);
    const QStringList tips = p ? p->property("tips").toStringList() : QStringList();
    if (index >= 0 && index < tips.size()) QToolTip::showText(e->globalPosition().toPoint(), tips[index], plot_);
    else QToolTip::hideText();
  });
  connect(ops_, &QTableWidget::itemActivated, this, [this](QTableWidgetItem* item) {
    if (!results_) return;
    const size_t op = ops_->item(item->row(), 0)->data(Qt::UserRole).toULongLong();
    if (op < results_->main.ops.size()) emit opActivated(results_->main.ops[op].op);
  });
}

PredictionPanel::~PredictionPanel() { job_.supersede(); }

QString PredictionPanel::statusText() const {
  QTextDocument d;
  d.setHtml(status_->text());
  return d.toPlainText();
}

QString PredictionPanel::sourcesText() const { return sources_->text(); }

const GpuSpec* PredictionPanel::gpuNamed(const QString& name) const { return gpus_.find(name.toStdString()); }

void PredictionPanel::fillGpuCombos(const QString& keepMain, const QString& keepCompare) {
  const QSignalBlocker b1(gpu_), b2(compare_);
  gpu_->clear();
  compare_->clear();
  gpu_->addItem(QString::fromLatin1(kTraceDefault));
  compare_->addItem(QString::fromUtf8(kNoCompare));
  for (const GpuSpec& g : gpus_.gpus) {
    const QString name = QString::fromStdString(g.name);
    const QString tip = QStringLiteral("%1 SMs · DRAM %2 GB/s · FP32 %3 / BF16 %4 TFLOP/s · %5")
                            .arg(g.sms)
                            .arg(g.dramGBs)
                            .arg(g.fp32)
                            .arg(g.bf16)
                            .arg(QString::fromStdString(g.source));
    gpu_->addItem(name);
    gpu_->setItemData(gpu_->count() - 1, tip, Qt::ToolTipRole);
    compare_->addItem(name);
    compare_->setItemData(compare_->count() - 1, tip, Qt::ToolTipRole);
  }
  gpu_->setCurrentIndex(std::max(0, gpu_->findText(keepMain)));
  compare_->setCurrentIndex(std::max(0, compare_->findText(keepCompare)));
}

void PredictionPanel::addGpu(const GpuSpec& spec) {
  for (auto it = gpus_.gpus.begin(); it != gpus_.gpus.end(); ++it)
    if (it->name == spec.name) {
      gpus_.gpus.erase(it);
      break;
    }
  gpus_.gpus.push_back(spec);
  fillGpuCombos(QString::fromStdString(spec.name), compare_->currentText());
  recompute();
}

QString PredictionPanel::gpu() const { return gpu_->currentIndex() > 0 ? gpu_->currentText() : QString(); }

QString PredictionPanel::compareGpu() const {
  return compare_->currentIndex() > 0 ? compare_->currentText() : QString();
}

bool PredictionPanel::setGpus(const QString& gpu, const QString& compare) {
  if ((!gpu.isEmpty() && !gpuNamed(gpu)) || (!compare.isEmpty() && !gpuNamed(compare))) return false;
  fillGpuCombos(gpu.isEmpty() ? QString::fromLatin1(kTraceDefault) : gpu,
                compare.isEmpty() ? QString::fromUtf8(kNoCompare) : compare);
  recompute();
  return true;
}

bool PredictionPanel::loadGpuSpecs(const QString& path, QString* error) {
  auto set = parseFile(path, SideInputKind::GpuFile, error,
                       [](const std::string& text, std::string& e) { return parseGpuSpecs(text, e); });
  if (!set) return false;
  for (size_t i = 1; i < set->gpus.size(); ++i) gpus_.gpus.push_back(set->gpus[i]);
  addGpu(set->gpus.front());
  return true;
}

bool PredictionPanel::loadOverheads(const QString& path, QString* error) {
  auto model = parseFile(path, SideInputKind::Overheads, error,
                         [](const std::string& text, std::string& e) { return parseOverheadModel(text, e); });
  if (!model) return false;
  overheads_ = std::make_shared<const OverheadModel>(std::move(*model));
  overheadsName_ = QFileInfo(path).fileName();
  recompute();
  return true;
}

void PredictionPanel::setBuiltinMicrobenchmarks(bool on) {
  microbench_.reset();
  gemmBenchName_.clear();
  convBenchName_.clear();
  builtinMicrobench_ = on;
  recompute();
}

bool PredictionPanel::loadMicrobenchmark(const QString& path, QString* error) {
  // A copy: a prediction running on the worker may still read the current set.
  auto set = std::make_shared<Microbenchmarks>(microbench_ ? *microbench_ : Microbenchmarks{});
  const auto kind = parseFile(path, SideInputKind::Microbench, error, [&set](const std::string& text, std::string& e) {
    return addMicrobenchmarkCsv(*set, text, e);
  });
  if (!kind) return false;
  microbench_ = std::move(set);
  (*kind == MicrobenchKind::Gemm ? gemmBenchName_ : convBenchName_) = QFileInfo(path).fileName();
  recompute();
  return true;
}

void PredictionPanel::setExtraShapes(std::shared_ptr<const std::map<uint64_t, OpShapes>> shapes,
                                     const QString& source) {
  extraShapes_ = std::move(shapes);
  extraShapesName_ = source;
  recompute();
}

void PredictionPanel::setDocument(std::shared_ptr<const TraceDocument> doc) {
  extraShapes_.reset();  // they index the previous trace's ops
  extraShapesName_.clear();
  doc_ = std::move(doc);
  results_.reset();
  recompute();
}

void PredictionPanel::setDark(bool dark) {
  theme_.dark = dark;
  if (results_) redraw();
  else showPlotMessage(plot_, doc_ ? QStringLiteral("Predicting…") : QStringLiteral("No trace loaded"), theme_);
}

void PredictionPanel::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  if (stale_) recompute();
  fitChartInSplitter();
}

bool PredictionPanel::eventFilter(QObject* watched, QEvent* e) {
  // After the splitter has shared its new height out by its old proportions.
  if (watched == split_ && e->type() == QEvent::Resize)
    QMetaObject::invokeMethod(this, &PredictionPanel::fitChartInSplitter, Qt::QueuedConnection);
  return QWidget::eventFilter(watched, e);
}

void PredictionPanel::fitChartInSplitter() {
  // Side by side (a wide, short dock), the chart has the whole height already.
  if (userSplit_ || split_->orientation() != Qt::Vertical) return;
  const QList<int> sizes = split_->sizes();
  const int total = sizes.value(0) + sizes.value(1);
  if (sizes.size() != 2 || total <= 0) return;  // not laid out yet
  auto* scroll = qobject_cast<QScrollArea*>(split_->widget(0));
  const int frame = scroll ? scroll->height() - scroll->viewport()->height() : 0;
  const int chart = std::clamp(plot_->minimumHeight() + frame, 0, std::max(0, total - kMinTableHeight));
  if (sizes[0] < chart || sizes[0] > total - kMinTableHeight) split_->setSizes({chart, total - chart});
}

void PredictionPanel::recompute() {
  job_.supersede();
  if (!doc_) {
    showPlotMessage(plot_, QStringLiteral("No trace loaded"), theme_);
    status_->clear();
    sources_->clear();
    return;
  }
  // A hidden pane costs nothing: predicting reads every op's args (from the file, for
  // large traces) and simulates every iteration. Visibility is checked once the event
  // loop has run: a tabbed dock is laid out (and its hidden tab hidden) after show().
  stale_ = true;
  QTimer::singleShot(0, this, [this] {
    if (!stale_) return;  // an earlier request's turn already started the latest inputs
    if (!isVisible()) {
      results_.reset();
      return;
    }
    stale_ = false;
    startWorker();
  });
}

void PredictionPanel::showNoPrediction(const QString& why, const QString& inChart) {
  results_.reset();
  status_->setText(why);
  sources_->clear();
  showPlotMessage(plot_, inChart, theme_);
  for (QTableWidget* t : {ops_, iterations_, types_}) {
    t->clearContents();
    t->setRowCount(0);
  }
  emit resultsReady();
}

void PredictionPanel::startWorker() {
  // The setup as the command line decides it (perf/prediction_policy.h); the worker only
  // reads it and the document.
  PredictionRequest request;
  request.gpus = &gpus_;
  if (gpuNamed(gpu_->currentText())) request.gpuName = gpu_->currentText().toStdString();
  request.gpuNameSource = "chosen";
  request.calibrate = calibrate_->isChecked();
  request.rooflines = !builtinMicrobench_;
  request.microbench = microbench_;
  request.gemmBenchSource = gemmBenchName_.toStdString();
  request.convBenchSource = convBenchName_.toStdString();
  if (overheads_) {
    request.overheads = *overheads_;
    request.overheadsSource = overheadsName_.toStdString();
  }
  if (extraShapes_) {
    request.extraShapes = extraShapes_;
    request.extraShapesSource = "the execution trace " + extraShapesName_.toStdString();
  }
  PredictionPlan plan = planPrediction(*doc_->trace, request);
  needsGpu_ = plan.error == PlanError::NoGpuForTrace;
  refused_ = plan.error != PlanError::None;
  if (plan.error != PlanError::None) {
    // The command line's words; the fix in the pane's own terms.
    const QString message = QString::fromStdString(plan.message).toHtmlEscaped();
    if (needsGpu_)
      showNoPrediction(
          QStringLiteral("<b>%1</b> — pick one in the GPU list to predict on it.").arg(message),
          QStringLiteral("No GPU preset matches this trace's device.\nPick a GPU above (or Inputs \u25B8 Edit the "
                         "GPU's figures\u2026 to describe yours)."));
    else
      showNoPrediction(
          QStringLiteral("<b>Not predicted: %1</b> — untick Calibrate or pick the trace's GPU.").arg(message),
          QStringLiteral("Not predicted: %1").arg(QString::fromStdString(plan.message)));
    return;
  }
  const PredictionSetup main = *plan.setup;
  std::optional<PredictionSetup> compare;
  if (const GpuSpec* g = gpuNamed(compare_->currentText())) {
    compare = main;
    compare->gpu = *g;
    compare->gpuSource = "what if";
  }
  status_->setText(QStringLiteral("predicting…"));
  if (!results_) showPlotMessage(plot_, QStringLiteral("Predicting…"), theme_);
  std::shared_ptr<const TraceDocument> doc = doc_;
  std::shared_ptr<const Microbenchmarks> microbench = plan.microbench;  // alive while the worker runs
  job_.run(
      this,
      [doc, microbench, main, compare] {
        auto r = std::make_shared<PredictionResults>();
        const OpInputs inputs(*doc->trace);  // the ops' args read once for both GPUs
        r->main = runPrediction(*doc->trace, main, &inputs);
        if (compare) {
          PredictionSetup whatIf = *compare;  // the main GPU's calibration, not one fitted anew
          whatIf.calibrate = false;
          whatIf.withCalibratedRun = false;
          whatIf.carriedCalibration = r->main.calibration;
          r->compare = runPrediction(*doc->trace, whatIf, &inputs);
        }
        return std::shared_ptr<const PredictionResults>(std::move(r));
      },
      [](PredictionPanel* self, std::shared_ptr<const PredictionResults> r) { self->onResults(std::move(r)); },
      [](PredictionPanel* self, const QString& message) {
        self->status_->setText(QStringLiteral("the prediction failed: %1").arg(message));
        emit self->failed(QStringLiteral("Prediction"), message);
      });
}

void PredictionPanel::onResults(std::shared_ptr<const PredictionResults> r) {
  results_ = std::move(r);
  const PredictionResult& m = results_->main;
  double measured = 0, predicted = 0;
  for (const IterationPrediction& i : m.iterations) {
    measured += i.measuredUs;
    predicted += i.predictedUs;
  }
  const double n = std::max<double>(1, static_cast<double>(m.iterations.size()));
  const bool modelled = m.opError.count > 0;
  QString text = QStringLiteral("<b>%1</b>: ").arg(QString::fromStdString(m.setup.gpu.name));
  if (m.iterations.empty()) text += QStringLiteral("no ProfilerStep iterations to simulate");
  else if (const auto ratio = whatIfRatio(m))
    // Errors against another GPU's times are the what-if's speed-up, not the model's accuracy.
    text +=
        QStringLiteral("iteration measured %1 ms on %2, predicted %3 ms (%4× the measured; with measured kernels %5 %)")
            .arg(measured / n / 1e3, 0, 'f', 3)
            .arg(QString::fromStdString(m.setup.calibrationGpu->name))
            .arg(predicted / n / 1e3, 0, 'f', 3)
            .arg(*ratio, 0, 'f', 2)
            .arg(m.selfCheckErrorPctMean, 0, 'f', 1);
  else
    text +=
        QStringLiteral("iteration measured %1 ms, predicted %2 ms (mean |error| %3 %%4; with measured kernels %5 %)")
            .arg(measured / n / 1e3, 0, 'f', 3)
            .arg(predicted / n / 1e3, 0, 'f', 3)
            .arg(m.iterationErrorPctMean, 0, 'f', 1)
            .arg(m.traceInFit ? QStringLiteral(", <b>in sample</b>: the efficiency curves were fitted on it") : "")
            .arg(m.selfCheckErrorPctMean, 0, 'f', 1);
  // Figures over nothing are not figures: "GMAE 0.0 % over 0 ops" read as a perfect model.
  if (modelled && whatIfRatio(m))
    text += QStringLiteral(" · %L1 ops modelled · models cover %2 % of the GPU time")
                .arg(m.opError.count)
                .arg(100 * m.coverage, 0, 'f', 1);
  else if (modelled)
    text += QStringLiteral(" · per-op GMAE %1 % over %L2 ops · models cover %3 % of the GPU time")
                .arg(m.opError.gmaePct, 0, 'f', 1)
                .arg(m.opError.count)
                .arg(100 * m.coverage, 0, 'f', 1);
  else
    text += QStringLiteral(" · <b>no modelled ops</b>: none of the %L1 ops with GPU time has a model for its kind")
                .arg(m.ops.size());
  if (results_->compare && (!modelled || m.iterations.empty())) {
    text += QStringLiteral("<br>what if <b>%1</b>: nothing to compare (%2)")
                .arg(QString::fromStdString(results_->compare->setup.gpu.name),
                     modelled ? QStringLiteral("no iterations") : QStringLiteral("no modelled ops"));
  } else if (results_->compare) {
    double other = 0;
    for (const IterationPrediction& i : results_->compare->iterations) other += i.predictedUs;
    text += QStringLiteral("<br>what if <b>%1</b>: iteration %2 ms (%3× the prediction on %4)")
                .arg(QString::fromStdString(results_->compare->setup.gpu.name))
                .arg(other / n / 1e3, 0, 'f', 3)
                .arg(predicted > 0 ? other / predicted : 0, 0, 'f', 2)
                .arg(QString::fromStdString(m.setup.gpu.name));
  }
  if (m.calibratedRun && m.calibratedRun->errorPctMeanOutOfSample) {
    const CalibratedRun& cr = *m.calibratedRun;
    double calibrated = 0;
    for (const IterationPrediction& i : cr.iterations) calibrated += i.predictedUs;
    if (cr.carried)
      text += QStringLiteral(
                  "<br>calibrated on the trace's own GPU and carried over: iteration %1 ms (tick Calibrate to use it)")
                  .arg(calibrated / n / 1e3, 0, 'f', 3);
    else
      text += QStringLiteral(
                  "<br>calibrated on the first iteration: iteration %1 ms, mean |error| %2 % over the others "
                  "(tick Calibrate to use it)")
                  .arg(calibrated / n / 1e3, 0, 'f', 3)
                  .arg(*cr.errorPctMeanOutOfSample, 0, 'f', 1);
  }
  if (m.calibration) {
    QStringList shares;
    for (const auto& [model, e] : m.calibration->modelEfficiency)
      shares << QStringLiteral("%1 %2 %").arg(QString::fromStdString(model).toHtmlEscaped()).arg(100 * e, 0, 'f', 0);
    text += QStringLiteral(
                "<br>calibrated on the first iteration: kernel floor %1 µs (%L2 ops), DRAM at %3 % of the "
                "datasheet (%L4 ops)%5; errors over the other iterations")
                .arg(m.calibration->kernelFloorUs, 0, 'f', 2)
                .arg(m.calibration->floorSamples)
                .arg(100 * m.calibration->dramEfficiency, 0, 'f', 0)
                .arg(m.calibration->bandwidthSamples)
                .arg(shares.isEmpty() ? QString() : QStringLiteral("; ") + shares.join(QStringLiteral(", ")));
  } else if (!m.calibrationNote.empty()) {
    text += QStringLiteral("<br>not calibrated: %1").arg(QString::fromStdString(m.calibrationNote).toHtmlEscaped());
  }
  status_->setText(text);
  auto bench = [](const std::string& source) {
    return source.empty() ? QStringLiteral("roofline")
                          : QStringLiteral("microbenchmark (%1)").arg(QString::fromStdString(source));
  };
  sources_->setText(QStringLiteral("GPU: %1 · overheads: %2 · GEMMs: %3 · convolutions: %4 · shapes: %5 · %6")
                        .arg(QString::fromStdString(m.setup.gpuSource), QString::fromStdString(m.setup.overheadsSource),
                             bench(m.setup.gemmBenchSource), bench(m.setup.convBenchSource),
                             QString::fromStdString(m.setup.shapesSource),
                             QString::fromStdString(efficiencySource(m))));
  {
    const QString keep = filter_->currentText();
    const QSignalBlocker block(filter_);
    filter_->clear();
    filter_->addItem(QStringLiteral("all ops"));
    for (const OpTypeFigures& t : m.byOpType)
      if (t.modelled > 0) filter_->addItem(QString::fromStdString(t.name));
    filter_->setCurrentIndex(std::max(0, filter_->findText(keep)));
  }
  redraw();
  fillTables();
  emit resultsReady();
}

void PredictionPanel::redraw() {
  if (!results_ || !doc_) return;
  const QString file = QFileInfo(QString::fromStdString(doc_->path)).fileName();
  const QString title = QStringLiteral("Predicted vs measured GPU time per op · %1 · %2")
                            .arg(QString::fromStdString(results_->main.setup.gpu.name), file);
  plotPrediction(plot_, results_->main, *doc_->trace, theme_, title,
                 filter_->currentIndex() > 0 ? filter_->currentText() : QString());
  plot_->setMinimumHeight(std::max(200, plot_->property("minHeight").toInt()));
  fitChartInSplitter();
}

void PredictionPanel::fillTables() {
  if (!results_ || !doc_) return;
  const Trace& trace = *doc_->trace;
  const PredictionResult& m = results_->main;
  const PredictionResult* c = results_->compare ? &*results_->compare : nullptr;
  const QString filter = filter_->currentIndex() > 0 ? filter_->currentText() : QString();

  ops_->setSortingEnabled(false);
  ops_->clearContents();
  ops_->setRowCount(0);
  int row = 0;
  for (size_t i = 0; i < m.ops.size(); ++i) {
    const OpRow& op = m.ops[i];
    const QString name = QString::fromUtf8(trace.name(op.op));
    if (!filter.isEmpty() && name != filter) continue;
    ops_->setRowCount(row + 1);
    const double measured = static_cast<double>(op.measuredGpu) / 1e3;
    auto* first = textItem(name);
    first->setData(Qt::UserRole, static_cast<qulonglong>(i));
    QTableWidgetItem* predicted = op.predictedUs ? numberItem(*op.predictedUs, 2) : textItem(QString());
    QTableWidgetItem* error = op.predictedUs ? numberItem(errorPct(*op.predictedUs, measured), 1) : textItem(QString());
    // Items are created once: a table owns only the items set into it.
    const bool whatIf = c && i < c->ops.size() && c->ops[i].predictedUs;
    QTableWidgetItem* other = whatIf ? numberItem(*c->ops[i].predictedUs, 2) : textItem(QString());
    QTableWidgetItem* ratio =
        whatIf ? numberItem(measured > 0 ? *c->ops[i].predictedUs / measured : 0, 3) : textItem(QString());
    fillRow(ops_, row++,
            {first, numberItem(static_cast<double>(trace.start(op.op) - trace.minTs) / 1e6, 3), numberItem(measured, 2),
             predicted, error, textItem(QString::fromStdString(op.model)), other, ratio,
             textItem(QString::fromStdString(op.shapes))});
  }
  ops_->setSortingEnabled(true);

  iterations_->setSortingEnabled(false);
  iterations_->clearContents();
  iterations_->setRowCount(static_cast<int>(m.iterations.size()));
  for (size_t i = 0; i < m.iterations.size(); ++i) {
    const IterationPrediction& it = m.iterations[i];
    const bool whatIf = c && i < c->iterations.size();
    QTableWidgetItem* other = whatIf ? numberItem(c->iterations[i].predictedUs / 1e3, 3) : textItem(QString());
    QTableWidgetItem* ratio =
        whatIf ? numberItem(it.predictedUs > 0 ? c->iterations[i].predictedUs / it.predictedUs : 0, 3)
               : textItem(QString());
    fillRow(iterations_, static_cast<int>(i),
            {numberItem(static_cast<double>(it.index), 0), numberItem(static_cast<double>(it.number), 0),
             numberItem(it.measuredUs / 1e3, 3), numberItem(it.predictedUs / 1e3, 3), numberItem(it.errorPct(), 2),
             numberItem(it.gpuActiveMeasuredUs / 1e3, 3), numberItem(it.gpuActivePredictedUs / 1e3, 3), other, ratio});
  }
  iterations_->setSortingEnabled(true);

  types_->setSortingEnabled(false);
  types_->clearContents();
  types_->setRowCount(static_cast<int>(m.byOpType.size()));
  for (size_t i = 0; i < m.byOpType.size(); ++i) {
    const OpTypeFigures& t = m.byOpType[i];
    const OpTypeFigures* whatIf = nullptr;
    if (c)
      for (const OpTypeFigures& o : c->byOpType)
        if (o.name == t.name && o.modelled > 0) whatIf = &o;
    QTableWidgetItem* other = whatIf ? numberItem(whatIf->predictedUs / 1e3, 3) : textItem(QString());
    fillRow(types_, static_cast<int>(i),
            {textItem(QString::fromStdString(t.name)), numberItem(static_cast<double>(t.calls), 0),
             numberItem(static_cast<double>(t.modelled), 0), numberItem(t.measuredUs / 1e3, 3),
             t.modelled ? numberItem(t.predictedUs / 1e3, 3) : textItem(QString()),
             t.error.count ? numberItem(t.error.gmaePct, 1) : textItem(QString()),
             t.modelled ? numberItem(t.error.meanPct, 1) : textItem(QString()),
             textItem(QString::fromStdString(t.model)), other});
  }
  types_->setSortingEnabled(true);
}

bool PredictionPanel::exportTo(const QString& path, QString* error) {
  if (!results_ || !doc_) {
    if (error) *error = QStringLiteral("nothing predicted yet");
    return false;
  }
  const Trace& trace = *doc_->trace;
  const PredictionResult& r = results_->main;
  const std::string file = doc_->path;
  return exportPlotOrData(
      plot_, path, [&](bool json) { return json ? predictionJson(trace, r, file) : predictionCsv(trace, r); }, 1100,
      error, theme_.dark,
      [this](const ChartTheme& theme) {
        theme_ = theme;
        redraw();
      });
}

QString PredictionPanel::exportCurrent() {
  return exportWithDialog(this, QStringLiteral("prediction"),
                          [this](const QString& path, QString* error) { return exportTo(path, error); });
}

void PredictionPanel::contextMenu(const QPoint& pos) {
  showExportMenu(
      this, plot_->mapToGlobal(pos), QStringLiteral("prediction"),
      [this](const QString& path, QString* error) { return exportTo(path, error); }, "Export ops as CSV…",
      "Export report as JSON…");
}

}  // namespace opscope::ui
