#include "panels/analysis_panel.h"

#include <qcustomplot.h>

#include <future>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "analysis/overview.h"
#include "charts/chart_export.h"
#include "panels/critical_path_view.h"
#include "panels/tabs/memory_tab.h"
#include "panels/tabs/op_kernels_tab.h"
#include "panels/tabs/overheads_tab.h"
#include "preferences.h"

namespace opscope::ui {

namespace {

// Every kind of the catalog for one scope, and the scope's critical path. The critical
// path (the longest single item: 4 s on a 1 GB trace) runs on a thread of its own beside
// the catalog's light kinds, and the heavy ones (AnalysisKind::heavy) after it, so that a
// 2-core machine settles sooner without the two largest peaks of memory adding up. Both
// only read the trace (lazy args open the file per read).
std::shared_ptr<const AnalysisResults> computeAll(const Trace& trace, const KernelClassifier& classifier,
                                                  AnalysisRequest request, QString label) {
  std::optional<CriticalPathWindow> cw;
  if (request.window) {
    cw.emplace();
    cw->kind = CriticalPathWindow::Kind::Iteration;
    cw->start = request.window->start;
    cw->end = cw->wallEnd = request.window->end;  // the analysis extends it to the GPU work launched inside
    cw->label = request.scopeLabel;
  } else {
    cw = criticalPathWindowOfTrace(trace);
  }
  std::future<std::shared_ptr<const CriticalPath>> path;
  if (cw)
    path = std::async(std::launch::async, [&trace, w = *cw] {
      return std::make_shared<const CriticalPath>(computeCriticalPath(trace, w));
    });
  auto r = std::make_shared<AnalysisResults>();
  request.classifier = &classifier;
  const std::vector<const AnalysisKind*>& kinds = analysisCatalog();
  std::vector<std::shared_ptr<const AnalysisResult>> results(kinds.size());
  for (const bool heavy : {false, true}) {
    if (heavy && path.valid()) r->criticalPath = path.get();  // rethrows what the thread threw
    for (size_t i = 0; i < kinds.size(); ++i)
      if (kinds[i]->heavy == heavy) results[i] = computeAnalysis(*kinds[i], trace, request);
  }
  for (size_t i = 0; i < kinds.size(); ++i) r->byKind.emplace_back(kinds[i], std::move(results[i]));
  request.classifier = nullptr;  // the results outlive the worker's classifier reference
  r->request = std::move(request);
  r->scopeLabel = std::move(label);
  return r;
}

}  // namespace

AnalysisPanel::AnalysisPanel(QWidget* parent) : QWidget(parent), classifier_(builtinKernelClassifier()) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* bar = new QHBoxLayout;
  scope_ = new QComboBox;
  scope_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  scope_->setMinimumContentsLength(18);  // "Iteration 12 (#1234)" whole, without widening the dock
  scope_->setToolTip(QStringLiteral("What the analyses cover: the whole trace or one ProfilerStep iteration"));
  batch_ = new QSpinBox;
  batch_->setRange(0, 1 << 30);
  batch_->setSpecialValueText(QStringLiteral("batch size: —"));
  batch_->setPrefix(QStringLiteral("batch size: "));
  batch_->setToolTip(QStringLiteral("Samples per iteration, for the throughput in samples/s"));
  // Both shrink below their preferred widths in a narrow dock (Op tree and Details open
  // beside it at 1280x720 left 480 px, and the row's preferred widths put the Export
  // button past the edge, behind a scroll bar): a minimum width replaces their wider
  // minimum size hints, the size hints still apply where there is room.
  scope_->setMinimumWidth(120);
  batch_->setMinimumWidth(100);
  status_ = new ElidedLabel;
  bar->addWidget(new QLabel(QStringLiteral("Scope:")));
  bar->addWidget(scope_);
  bar->addWidget(batch_);
  bar->addWidget(status_, 1);
  auto* exportButton = new QToolButton;
  exportButton->setText(QStringLiteral("Export…"));
  exportButton->setToolTip(QStringLiteral("Export this tab's chart (PDF, PNG, SVG) or its data (CSV, JSON)"));
  connect(exportButton, &QToolButton::clicked, this, [this] { exportCurrent(); });
  bar->addWidget(exportButton);
  layout->addLayout(bar);
  tabs_ = new QTabWidget;
  layout->addWidget(tabs_, 1);

  for (const AnalysisKind* kind : analysisCatalog()) {
    AnalysisTab* tab = makeAnalysisTab(*kind);
    kindTabs_.push_back(tab);
    tabs_->addTab(tab, QString::fromUtf8(kind->tab.data(), static_cast<int>(kind->tab.size())));
    connect(tab, &AnalysisTab::eventsActivated, this, &AnalysisPanel::eventsActivated);
    connect(tab, &AnalysisTab::nameActivated, this, &AnalysisPanel::nameActivated);
    connect(tab, &AnalysisTab::failed, this, &AnalysisPanel::failed);
    connect(tab, &AnalysisTab::recomputeRequested, this, [this] { recompute(); });
    const std::string_view name = kind->name;
    connect(tab->plot(), &QWidget::customContextMenuRequested, this, [this, name](const QPoint& p) {
      showExportMenu(this, plot(name)->mapToGlobal(p), QString::fromUtf8(name.data(), static_cast<int>(name.size())),
                     [this, name](const QString& path, QString* error) { return exportChart(name, path, error); });
    });
  }
  criticalPath_ = new CriticalPathView;
  criticalPathTab_ = tabs_->addTab(criticalPath_, QStringLiteral("Critical path"));
  connect(criticalPath_, &CriticalPathView::eventsActivated, this, &AnalysisPanel::eventsActivated);
  connect(criticalPath_, &CriticalPathView::pathMarked, this, &AnalysisPanel::pathMarked);

  connect(scope_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
  connect(batch_, &QSpinBox::editingFinished, this, [this] { recompute(); });
}

AnalysisPanel::~AnalysisPanel() = default;

QString AnalysisPanel::exportCurrent() {
  for (size_t i = 0; i < kindTabs_.size(); ++i)
    if (tabs_->currentWidget() == kindTabs_[i]) {
      const std::string_view name = analysisCatalog()[i]->name;
      return exportWithDialog(
          this, QString::fromUtf8(name.data(), static_cast<int>(name.size())),
          [this, name](const QString& path, QString* error) { return exportChart(name, path, error); });
    }
  return {};  // the critical path: its table and the timeline's marks, no chart
}

AnalysisTab* AnalysisPanel::tab(std::string_view kind) const {
  for (AnalysisTab* t : kindTabs_)
    if (t->kind().name == kind) return t;
  return nullptr;
}

QCustomPlot* AnalysisPanel::plot(std::string_view kind) const {
  AnalysisTab* t = tab(kind);
  if (t) t->ensureDrawn();
  return t ? t->plot() : nullptr;
}

OpKernelsView* AnalysisPanel::opKernels() const {
  auto* t = dynamic_cast<OpKernelsTab*>(tab("op-kernels"));
  return t ? t->opKernels() : nullptr;
}

QTableWidget* AnalysisPanel::memoryTable() const {
  auto* t = dynamic_cast<MemoryTab*>(tab("memory"));
  if (t) t->ensureDrawn();
  return t ? t->liveTable() : nullptr;
}

QTableWidget* AnalysisPanel::memoryOpTable() const {
  auto* t = dynamic_cast<MemoryTab*>(tab("memory"));
  if (t) t->ensureDrawn();
  return t ? t->byOpTable() : nullptr;
}

void AnalysisPanel::showLiveMemory(size_t device, TimeNs t) {
  if (auto* m = dynamic_cast<MemoryTab*>(tab("memory"))) m->showLiveMemory(device, t);
}

void AnalysisPanel::setDocument(std::shared_ptr<const TraceDocument> doc) {
  doc_ = std::move(doc);
  results_.reset();
  if (auto* o = dynamic_cast<OverheadsTab*>(tab("overheads"))) o->resetCosts();
  QSignalBlocker block(scope_);
  scope_->clear();
  scope_->addItem(QStringLiteral("Whole trace"), -1);
  if (doc_)
    for (size_t i = 0; i < doc_->trace->iterations.size(); ++i)
      scope_->addItem(QStringLiteral("Iteration %1 (#%2)").arg(i).arg(doc_->trace->iterations[i].number),
                      static_cast<int>(i));
  recompute();
}

void AnalysisPanel::setDark(bool dark) {
  theme_.dark = dark;
  for (AnalysisTab* t : kindTabs_) t->setTheme(theme_);
}

void AnalysisPanel::setScope(int iteration) {
  const int index = scope_->findData(iteration);
  if (index >= 0) scope_->setCurrentIndex(index);
}

void AnalysisPanel::showChart(std::string_view kind) {
  if (AnalysisTab* t = tab(kind)) tabs_->setCurrentWidget(t);
}

void AnalysisPanel::showOpKernels(const QString& op, bool byShape) {
  showChart("op-kernels");
  if (auto* t = dynamic_cast<OpKernelsTab*>(tab("op-kernels"))) t->showOp(op, byShape);
}

void AnalysisPanel::setKernelClassifier(std::shared_ptr<const KernelClassifier> classifier) {
  classifier_ = std::move(classifier);
  for (AnalysisTab* t : kindTabs_) t->setKernelClassifier(classifier_);
  if (doc_) recompute();
}

void AnalysisPanel::recompute() {
  if (!doc_) {
    job_.supersede();
    stale_ = false;
    for (AnalysisTab* t : kindTabs_) t->showMessage(QStringLiteral("No trace loaded"));
    status_->setFullText(QString());
    return;
  }
  // A hidden dock costs nothing: every analysis and the critical path of a 1 GB trace
  // take seconds of both cores and a gigabyte while the user looks at the timeline.
  // Visibility is checked once the event loop has run (a tabbed dock hides its other
  // tabs after show()); showEvent starts what was left.
  stale_ = true;
  if (!results_)
    for (AnalysisTab* t : kindTabs_) t->showMessage(QStringLiteral("The analyses run when this panel is shown"));
  QTimer::singleShot(0, this, [this] {
    if (stale_ && isVisible()) startJob();
  });
}

void AnalysisPanel::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  if (stale_) startJob();
}

void AnalysisPanel::startJob() {
  stale_ = false;
  if (!doc_) return;
  AnalysisRequest request;
  const int iteration = scope_->currentData().toInt();
  QString label = QStringLiteral("whole trace");
  if (iteration >= 0) {
    request.window = iterationWindow(doc_->trace->iterations, static_cast<size_t>(iteration), 1);
    label = QStringLiteral("iteration %1").arg(iteration);
  }
  request.scopeLabel = label.toStdString();
  if (batch_->value() > 0) request.batchSize = static_cast<uint64_t>(batch_->value());
  if (auto* o = dynamic_cast<OverheadsTab*>(tab("overheads"))) request.costs = o->costs();
  status_->setFullText(QStringLiteral("computing…"));
  if (!results_)  // a new scope keeps the previous charts until its results arrive
    for (AnalysisTab* t : kindTabs_) t->showMessage(QStringLiteral("Computing the analyses…"));
  std::shared_ptr<const TraceDocument> doc = doc_;
  std::shared_ptr<const KernelClassifier> classifier = classifier_;
  job_.run(
      this, [doc, classifier, request, label] { return computeAll(*doc->trace, *classifier, request, label); },
      [](AnalysisPanel* self, std::shared_ptr<const AnalysisResults> r) { self->onResults(std::move(r)); },
      [](AnalysisPanel* self, const QString& message) { self->onFailed(message); });
}

void AnalysisPanel::onFailed(const QString& message) {
  status_->setFullText(QStringLiteral("the analyses failed: %1").arg(message));
  if (!results_)
    for (AnalysisTab* t : kindTabs_) t->showMessage(QStringLiteral("The analyses failed: %1").arg(message));
  emit failed(QStringLiteral("Analyses"), message);
}

void AnalysisPanel::onResults(std::shared_ptr<const AnalysisResults> results) {
  results_ = std::move(results);
  const Overview& ov = results_->value<Overview>("overview");
  const QString busy = ov.hasDevice ? QStringLiteral("%1 %2 % busy")
                                          .arg(QString::fromStdString(ov.deviceKind))
                                          .arg(100.0 * ov.gpuUtilisation, 0, 'f', 1)
                                    : QStringLiteral("CPU-only job");
  const bool costsSet = results_->request.costs.cpuEventUs.has_value();
  status_->setFullText(QStringLiteral("%1 · %2 · costs %3")
                           .arg(results_->scopeLabel, busy,
                                costsSet ? QStringLiteral("as set") : QStringLiteral("estimated from the trace")));
  criticalPath_->setPath(doc_, results_->criticalPath, results_->scopeLabel);
  for (AnalysisTab* t : kindTabs_) t->setResults(doc_, results_);
  emit resultsReady();
}

void AnalysisPanel::showCriticalPath() { tabs_->setCurrentIndex(criticalPathTab_); }

bool AnalysisPanel::exportChart(std::string_view kind, const QString& path, QString* error) {
  AnalysisTab* t = tab(kind);
  if (t) t->ensureDrawn();
  if (!results_ || !t) {
    if (error) *error = QStringLiteral("no analysis yet");
    return false;
  }
  return exportPlotOrData(
      t->plot(), path, [t](bool json) { return t->dataText(json); }, 900, error, theme_.dark,
      [t](const ChartTheme& theme) { t->setTheme(theme); });
}

}  // namespace opscope::ui
