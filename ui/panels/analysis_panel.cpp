#include "panels/analysis_panel.h"

#include <qcustomplot.h>

#include <cmath>
#include <iterator>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QThreadPool>
#include <QToolTip>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "analysis/overhead_model.h"
#include "analysis/sample_stats.h"
#include "charts/analysis_charts.h"
#include "charts/chart_builder.h"
#include "charts/chart_export.h"
#include "panels/critical_path_view.h"
#include "panels/op_kernels_view.h"
#include "panels/table_items.h"
#include "preferences.h"
#include "report/advice_report.h"
#include "report/analysis_report.h"
#include "report/breakdown_report.h"
#include "report/memory_report.h"
#include "report/multi_rank_report.h"
#include "save_file.h"
#include "worker.h"

namespace opscope::ui {

namespace {

constexpr ChartKind kCharts[] = {ChartKind::Overview,    ChartKind::Breakdown, ChartKind::OpKernels,
                                 ChartKind::KernelStats, ChartKind::Overheads, ChartKind::Streams,
                                 ChartKind::Ranks,       ChartKind::Memory,    ChartKind::Advice};
const char* const kTabNames[] = {"Overview", "Breakdown", "Op kernels", "Kernels",        "Overheads",
                                 "Streams",  "Ranks",     "Memory",     "Recommendations"};
constexpr int kChartCount = static_cast<int>(std::size(kCharts));

int chartIndex(ChartKind c) {
  for (int i = 0; i < kChartCount; ++i)
    if (kCharts[i] == c) return i;
  return 0;
}

double ms(TimeNs ns) { return static_cast<double>(ns) / 1e6; }

std::shared_ptr<AnalysisResults> compute(const Trace& trace, const KernelClassifier& classifier,
                                         std::optional<TimeWindow> window, QString label, std::optional<uint64_t> batch,
                                         std::optional<OverheadOptions> costs) {
  auto r = std::make_shared<AnalysisResults>();
  r->window = window;
  r->scopeLabel = std::move(label);
  OverviewOptions o;
  o.window = window;
  o.batchSize = batch;
  r->overview = computeOverview(trace, o);
  r->breakdown = deviceBreakdown(trace, window);
  r->mixes = opKernelMixes(trace, classifier, window, 8, 3);
  r->kernels = kernelStatistics(trace, classifier, window);
  r->estimate = estimateProfilerCosts(trace, window);
  OverheadOptions oo = costs ? *costs : OverheadOptions{};
  if (!costs) oo.costs = r->estimate.costs;
  oo.window = window;
  r->overheads = computeOverheads(trace, oo);
  r->streams = streamUsage(trace, classifier, window);
  r->ranks = rankTable(trace);  // the whole session: ranks are compared over all iterations
  r->memory = memoryTimeline(trace);
  r->advice = advise(trace, r->ranks);  // the whole trace: rules compare iterations and ranks
  std::optional<CriticalPathWindow> cw;
  if (window) {
    cw.emplace();
    cw->kind = CriticalPathWindow::Kind::Iteration;
    cw->start = window->start;
    cw->end = cw->wallEnd = window->end;  // the analysis extends it to the GPU work launched inside
    cw->label = r->scopeLabel.toStdString();
  } else {
    cw = criticalPathWindowOfTrace(trace);
  }
  if (cw) r->criticalPath = std::make_shared<const CriticalPath>(computeCriticalPath(trace, *cw));
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
  status_ = new QLabel;
  bar->addWidget(new QLabel(QStringLiteral("Scope:")));
  bar->addWidget(scope_);
  bar->addWidget(batch_);
  bar->addWidget(status_, 1);
  layout->addLayout(bar);
  tabs_ = new QTabWidget;
  layout->addWidget(tabs_, 1);

  for (int i = 0; i < kChartCount; ++i) {
    auto* plot = new QCustomPlot;
    plot->setMinimumHeight(120);
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    plot->setMouseTracking(true);
    plots_[i] = plot;
    showPlotMessage(plot, QStringLiteral("No trace loaded"), theme_);
    const ChartKind chart = kCharts[i];
    connect(plot, &QWidget::customContextMenuRequested, this,
            [this, chart](const QPoint& p) { plotContextMenu(chart, p); });
    connect(plot, &QCustomPlot::mouseMove, this, [this, plot](QMouseEvent* e) { hoverTip(plot, e); });
    connect(plot, &QCustomPlot::plottableClick, this, [this, chart](QCPAbstractPlottable* p, int index, QMouseEvent*) {
      if (!results_) return;
      if (chart == ChartKind::OpKernels) {
        const QVariantList segments = p->property("segments").toList();
        if (index < 0 || index >= segments.size()) return;
        const QPoint s = segments[index].toPoint();
        auto events = mixSegmentEvents(results_->mixes, s.x(), s.y());
        if (!events.empty())
          emit eventsActivated(p->name() + QStringLiteral(" kernels of this variant"), std::move(events));
        return;
      }
      const QStringList tips = p->property("tips").toStringList();
      if (index >= 0 && index < tips.size() && (chart == ChartKind::KernelStats || chart == ChartKind::Breakdown))
        emit nameActivated(tips[index].section('\n', 0, 0));
    });
  }
  auto page = [this](int i, QWidget* below, QWidget* above = nullptr) {
    auto* w = new QWidget;
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(0, 0, 0, 0);
    if (above) v->addWidget(above);
    auto* split = new QSplitter(Qt::Vertical);
    // A small dock scrolls the chart instead of squashing its labels together.
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(plots_[i]);
    split->addWidget(scroll);
    split->addWidget(below);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({600, 200});  // the chart first; the table is for reading off figures
    v->addWidget(split, 1);
    tabs_->addTab(w, QString::fromLatin1(kTabNames[i]));
  };
  overviewTable_ = makeTable({QStringLiteral("Figure"), QStringLiteral("Value")}, {1});
  page(0, overviewTable_);

  auto* bw = new QWidget;
  auto* bv = new QVBoxLayout(bw);
  bv->setContentsMargins(0, 0, 0, 0);
  breakdownFilter_ = new QLineEdit;
  breakdownFilter_->setPlaceholderText(QStringLiteral("Filter ops and kernels…"));
  breakdownFilter_->setClearButtonEnabled(true);
  breakdownTree_ = new QTreeWidget;
  breakdownTree_->setObjectName(QStringLiteral("breakdownTree"));
  breakdownTree_->setHeaderLabels({QStringLiteral("Stream / op / kernel"), QStringLiteral("Device time (ms)"),
                                   QStringLiteral("Share of stream"), QStringLiteral("GPU events")});
  breakdownTree_->setSortingEnabled(true);
  breakdownTree_->sortByColumn(1, Qt::DescendingOrder);
  breakdownTree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  breakdownTree_->header()->setStretchLastSection(false);
  for (int c = 1; c < breakdownTree_->columnCount(); ++c)
    breakdownTree_->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
  breakdownTree_->setToolTip(QStringLiteral("Activate a row to mark its GPU events in the timeline"));
  bv->addWidget(breakdownFilter_);
  bv->addWidget(breakdownTree_, 1);
  page(1, bw);
  connect(breakdownFilter_, &QLineEdit::textChanged, this, [this](const QString& text) {
    // Shows matching rows and the path to them.
    std::function<bool(QTreeWidgetItem*)> apply = [&](QTreeWidgetItem* item) {
      bool any = text.isEmpty() || item->text(0).contains(text, Qt::CaseInsensitive);
      for (int c = 0; c < item->childCount(); ++c) any = apply(item->child(c)) || any;
      item->setHidden(!any);
      return any;
    };
    for (int i = 0; i < breakdownTree_->topLevelItemCount(); ++i) apply(breakdownTree_->topLevelItem(i));
    if (!text.isEmpty()) breakdownTree_->expandAll();
  });
  // The chart follows the tree: a selected row with children shows them as bars.
  connect(breakdownTree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
    if (!results_ || !doc_) return;
    uint32_t focus = UINT32_MAX;
    if (item) {
      const uint32_t node = item->data(0, Qt::UserRole).toUInt();
      if (!results_->breakdown.nodes[node].children.empty()) focus = node;
      else if (results_->breakdown.nodes[node].parent != UINT32_MAX) focus = results_->breakdown.nodes[node].parent;
    }
    if (focus == breakdownFocus_) return;
    breakdownFocus_ = focus;
    const QString file = QFileInfo(QString::fromStdString(doc_->path)).fileName();
    plotBreakdown(plots_[1], results_->breakdown, *doc_->trace, theme_,
                  chartTitle(ChartKind::Breakdown, results_->scopeLabel, file), 15, breakdownFocus_);
    plots_[1]->setMinimumHeight(std::max(120, chartMinimumHeight(plots_[1])));
  });
  connect(breakdownTree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
    if (!results_) return;
    const BreakdownNode& n = results_->breakdown.nodes[item->data(0, Qt::UserRole).toUInt()];
    std::vector<EventRef> events;
    for (uint32_t i = n.firstEvent; i < n.endEvent; ++i)
      events.push_back(EventRef::unpack(results_->breakdown.events[i]));
    emit eventsActivated(item->text(0), std::move(events));
  });

  mixTable_ =
      makeTable({QStringLiteral("Op"), QStringLiteral("Variant"), QStringLiteral("Calls"), QStringLiteral("Kernel"),
                 QStringLiteral("Class"), QStringLiteral("Time (ms)"), QStringLiteral("Share of variant (%)")},
                {0, 3});
  opKernels_ = new OpKernelsView;
  connect(opKernels_, &OpKernelsView::nameActivated, this, &AnalysisPanel::nameActivated);
  connect(opKernels_, &OpKernelsView::failed, this, &AnalysisPanel::failed);
  mixTabs_ = new QTabWidget;
  mixTabs_->setDocumentMode(true);
  mixTabs_->addTab(mixTable_, QStringLiteral("Variants"));
  mixTabs_->addTab(opKernels_, QStringLiteral("Kernels of one op, by input shape"));
  page(2, mixTabs_);
  kernelTable_ = makeTable({QStringLiteral("Kernel"), QStringLiteral("Class"), QStringLiteral("Count"),
                            QStringLiteral("Total (ms)"), QStringLiteral("Mean (µs)"), QStringLiteral("Min (µs)"),
                            QStringLiteral("Max (µs)"), QStringLiteral("Std (µs)"), QStringLiteral("Share (%)")});
  kernelTable_->setSortingEnabled(true);
  kernelTable_->setToolTip(QStringLiteral("Activate a row to search that kernel in the timeline"));
  connect(kernelTable_, &QTableWidget::itemActivated, this, [this](QTableWidgetItem* item) {
    emit nameActivated(kernelTable_->item(item->row(), 0)->data(Qt::UserRole).toString());
  });
  page(3, kernelTable_);

  auto* controls = new QWidget;
  auto* ch = new QHBoxLayout(controls);
  ch->setContentsMargins(0, 0, 0, 0);
  auto spin = [&](const QString& label, const QString& tip) {
    auto* s = new QDoubleSpinBox;
    s->setRange(0, 10000);
    s->setDecimals(2);
    s->setSingleStep(0.5);
    s->setSuffix(QStringLiteral(" µs"));
    s->setToolTip(tip);
    ch->addWidget(new QLabel(label));
    ch->addWidget(s);
    connect(s, &QDoubleSpinBox::editingFinished, this, [this] {
      costsEdited_ = true;
      recompute();
    });
    return s;
  };
  cpuCost_ = spin(QStringLiteral("CPU event"),
                  QStringLiteral("CPU_EVENT_OVERHEAD: the profiler's cost per recorded host event"));
  gpuCost_ = spin(QStringLiteral("GPU event"),
                  QStringLiteral("GPU_EVENT_OVERHEAD: CUPTI's cost per launch (not measurable from one trace)"));
  launchCost_ = spin(QStringLiteral("launch"), QStringLiteral("KERNEL_LAUNCH_LENGTH: a launch call as recorded"));
  t1Gap_ = spin(QStringLiteral("T1 gaps below"), QStringLiteral("Longer gaps between ops are data loading, not T1"));
  logScale_ = new QCheckBox(QStringLiteral("log counts"));
  connect(logScale_, &QCheckBox::toggled, this, [this] { redraw(); });
  overheadOp_ = new QComboBox;
  overheadOp_->setToolTip(QStringLiteral("T2, T3 and T5 of one op, or of all ops"));
  connect(overheadOp_, &QComboBox::currentIndexChanged, this, [this] { redraw(); });
  auto* save = new QPushButton(QStringLiteral("Save overheads…"));
  save->setToolTip(QStringLiteral("The overheads JSON the prediction pane and the notebook read"));
  connect(save, &QPushButton::clicked, this, [this] {
    if (!results_) return;
    const QString path = QFileDialog::getSaveFileName(
        this, QStringLiteral("Save overheads"), QStringLiteral("overheads.json"), QStringLiteral("JSON (*.json)"));
    if (path.isEmpty()) return;
    QString error;
    if (!saveBytes(path, overheadModelJson(overheadModel(results_->overheads)), &error))
      QMessageBox::warning(this, QStringLiteral("Save overheads"), error);
  });
  ch->addWidget(logScale_);
  ch->addWidget(overheadOp_, 1);
  ch->addWidget(save);
  overheadTable_ = makeTable(
      {QStringLiteral("Type"), QStringLiteral("Op / launch"), QStringLiteral("Samples"), QStringLiteral("Mean (µs)"),
       QStringLiteral("Std (µs)"), QStringLiteral("Median (µs)"), QStringLiteral("p90 (µs)")},
      {1});
  overheadTable_->setSortingEnabled(true);
  // The cost controls scroll sideways in a narrow dock instead of widening the window.
  auto* controlsScroll = new QScrollArea;
  controlsScroll->setWidget(controls);
  controlsScroll->setWidgetResizable(true);
  controlsScroll->setFrameShape(QFrame::NoFrame);
  controlsScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  controlsScroll->setFixedHeight(controls->sizeHint().height() + 14);
  page(4, overheadTable_, controlsScroll);
  streamTable_ =
      makeTable({QStringLiteral("Stream"), QStringLiteral("Events"), QStringLiteral("Busy (ms)"),
                 QStringLiteral("Idle (ms)"), QStringLiteral("Host wait (ms)"), QStringLiteral("Other idle (ms)"),
                 QStringLiteral("Utilisation (%)"), QStringLiteral("Communication (ms)")});
  page(5, streamTable_);
  rankTable_ = makeTable({QStringLiteral("Rank"), QStringLiteral("Iterations"), QStringLiteral("Mean iteration (ms)"),
                          QStringLiteral("Over the median (%)"), QStringLiteral("Collectives (ms)"),
                          QStringLiteral("Waiting (ms)"), QStringLiteral("Compute (ms)"), QStringLiteral("Overlap (%)"),
                          QStringLiteral("Clock offset (µs)")});
  page(6, rankTable_);
  memoryTable_ =
      makeTable({QStringLiteral("Size (MiB)"), QStringLiteral("Allocated by op"), QStringLiteral("Allocated at (ms)"),
                 QStringLiteral("Freed at (ms)"), QStringLiteral("Address")},
                {1});
  memoryOpTable_ = makeTable({QStringLiteral("Op"), QStringLiteral("Allocations"), QStringLiteral("Allocated (MiB)"),
                              QStringLiteral("Increase (MiB)"), QStringLiteral("Self allocations"),
                              QStringLiteral("Self allocated (MiB)"), QStringLiteral("Self increase (MiB)")});
  memoryOpTable_->setToolTip(
      QStringLiteral("With children: events anywhere inside the op; self: those whose innermost op it is. "
                     "Increase = allocated − freed. Activate a row to search the op in the timeline."));
  connect(memoryOpTable_, &QTableWidget::itemActivated, this, [this](QTableWidgetItem* item) {
    emit nameActivated(memoryOpTable_->item(item->row(), 0)->data(Qt::UserRole).toString());
  });
  memoryTabs_ = new QTabWidget;
  memoryTabs_->setDocumentMode(true);
  memoryTabs_->addTab(memoryTable_, QStringLiteral("Live allocations"));
  memoryTabs_->addTab(memoryOpTable_, QStringLiteral("By op"));
  memoryNote_ = new QLabel;
  memoryNote_->setWordWrap(true);
  page(7, memoryTabs_, memoryNote_);
  adviceTable_ = makeTable(
      {QStringLiteral("Finding"), QStringLiteral("At stake (ms)"), QStringLiteral("Share (%)"), QStringLiteral("Try")},
      {0, 3});
  adviceTable_->setWordWrap(true);
  page(8, adviceTable_);
  // A finding's example event, selected on the timeline.
  connect(adviceTable_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
    if (!results_ || !adviceTable_->item(row, 0)) return;
    const int index = adviceTable_->item(row, 0)->data(Qt::UserRole).toInt();
    if (index < 0 || index >= static_cast<int>(results_->advice.size())) return;
    const Advice& a = results_->advice[static_cast<size_t>(index)];
    if (a.where) emit eventsActivated(QString::fromStdString(a.id), {*a.where});
  });
  // A click on a device's curve lists the allocations live at that time.
  connect(plots_[7], &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
    if (!results_) return;
    for (QCPAxisRect* rect : plots_[7]->axisRects())
      if (rect->rect().contains(e->pos()) && rect->property("device").isValid()) {
        const double ms = rect->axis(QCPAxis::atBottom)->pixelToCoord(e->pos().x());
        showLiveMemory(static_cast<size_t>(rect->property("device").toInt()),
                       doc_->trace->minTs + static_cast<TimeNs>(ms * 1e6));
      }
  });

  criticalPath_ = new CriticalPathView;
  criticalPathTab_ = tabs_->addTab(criticalPath_, QStringLiteral("Critical path"));
  connect(criticalPath_, &CriticalPathView::eventsActivated, this, &AnalysisPanel::eventsActivated);
  connect(criticalPath_, &CriticalPathView::pathMarked, this, &AnalysisPanel::pathMarked);

  connect(scope_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
  connect(batch_, &QSpinBox::editingFinished, this, [this] { recompute(); });
}

AnalysisPanel::~AnalysisPanel() = default;

QCustomPlot* AnalysisPanel::plot(ChartKind chart) const { return plots_[chartIndex(chart)]; }

void AnalysisPanel::setDocument(std::shared_ptr<const TraceDocument> doc) {
  doc_ = std::move(doc);
  results_.reset();
  costsEdited_ = false;
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
  redraw();
}

void AnalysisPanel::setScope(int iteration) {
  const int index = scope_->findData(iteration);
  if (index >= 0) scope_->setCurrentIndex(index);
}

void AnalysisPanel::showChart(ChartKind chart) { tabs_->setCurrentIndex(chartIndex(chart)); }

void AnalysisPanel::showOpKernels(const QString& op, bool byShape) {
  showChart(ChartKind::OpKernels);
  mixTabs_->setCurrentWidget(opKernels_);
  opKernels_->setOp(op, byShape);
}

OverheadOptions AnalysisPanel::overheadOptions() const {
  OverheadOptions o;
  o.costs.cpuEvent = cpuCost_->value();
  o.costs.gpuEvent = gpuCost_->value();
  o.costs.launchLength = launchCost_->value();
  o.t1MaxGapUs = t1Gap_->value();
  return o;
}

void AnalysisPanel::setKernelClassifier(std::shared_ptr<const KernelClassifier> classifier) {
  classifier_ = std::move(classifier);
  opKernels_->setKernelClassifier(classifier_);
  if (doc_) recompute();
}

void AnalysisPanel::recompute() {
  const quint64 generation = ++generation_;
  if (!doc_) {
    for (QCustomPlot* p : plots_) showPlotMessage(p, QStringLiteral("No trace loaded"), theme_);
    status_->setText(QString());
    return;
  }
  const int iteration = scope_->currentData().toInt();
  std::optional<TimeWindow> window;
  QString label = QStringLiteral("whole trace");
  if (iteration >= 0) {
    window = iterationWindow(doc_->trace->iterations, static_cast<size_t>(iteration), 1);
    label = QStringLiteral("iteration %1").arg(iteration);
  }
  std::optional<uint64_t> batch;
  if (batch_->value() > 0) batch = static_cast<uint64_t>(batch_->value());
  std::optional<OverheadOptions> costs;
  if (costsEdited_) costs = overheadOptions();
  ++pending_;
  status_->setText(QStringLiteral("computing…"));
  if (!results_)  // a new scope keeps the previous charts until its results arrive
    for (QCustomPlot* p : plots_) showPlotMessage(p, QStringLiteral("Computing the analyses…"), theme_);
  std::shared_ptr<const TraceDocument> doc = doc_;
  std::shared_ptr<const KernelClassifier> classifier = classifier_;
  runOnWorker(
      this,
      [doc, classifier, window, label, batch, costs] {
        return std::shared_ptr<const AnalysisResults>(compute(*doc->trace, *classifier, window, label, batch, costs));
      },
      [generation](AnalysisPanel* self, std::shared_ptr<const AnalysisResults> r) {
        self->onResults(generation, std::move(r));
      },
      [generation](AnalysisPanel* self, const QString& message) { self->onFailed(generation, message); });
}

void AnalysisPanel::onFailed(quint64 generation, const QString& message) {
  --pending_;
  if (generation != generation_) return;  // superseded
  status_->setText(QStringLiteral("the analyses failed: %1").arg(message));
  if (!results_)
    for (QCustomPlot* p : plots_) showPlotMessage(p, QStringLiteral("The analyses failed: %1").arg(message), theme_);
  emit failed(QStringLiteral("Analyses"), message);
}

void AnalysisPanel::onResults(quint64 generation, std::shared_ptr<const AnalysisResults> results) {
  --pending_;
  if (generation != generation_) return;  // superseded
  results_ = std::move(results);
  breakdownFocus_ = UINT32_MAX;  // node ids belong to the previous results
  {
    const ProfilerCosts& c = results_->overheads.costs;
    const QSignalBlocker b1(cpuCost_), b2(gpuCost_), b3(launchCost_), b4(t1Gap_), b5(overheadOp_);
    cpuCost_->setValue(c.cpuEvent);
    gpuCost_->setValue(c.gpuEvent);
    launchCost_->setValue(c.launchLength);
    t1Gap_->setValue(results_->overheads.t1MaxGapUs);
    cpuCost_->setToolTip(QStringLiteral("CPU_EVENT_OVERHEAD, estimated: %1")
                             .arg(QString::fromStdString(results_->estimate.cpuEventMethod)));
    gpuCost_->setToolTip(
        QStringLiteral("GPU_EVENT_OVERHEAD: %1").arg(QString::fromStdString(results_->estimate.gpuEventMethod)));
    launchCost_->setToolTip(QStringLiteral("KERNEL_LAUNCH_LENGTH, estimated: %1")
                                .arg(QString::fromStdString(results_->estimate.launchLengthMethod)));
    const QString current = overheadOp_->currentText();
    overheadOp_->clear();
    overheadOp_->addItem(QStringLiteral("all ops"));
    for (const OpOverheads& op : results_->overheads.ops) overheadOp_->addItem(QString::fromStdString(op.name));
    const int keep = overheadOp_->findText(current);
    overheadOp_->setCurrentIndex(keep > 0 ? keep : 0);
  }
  const Overview& ov = results_->overview;
  const QString busy = ov.hasDevice ? QStringLiteral("%1 %2 % busy")
                                          .arg(QString::fromStdString(ov.deviceKind))
                                          .arg(100.0 * ov.gpuUtilisation, 0, 'f', 1)
                                    : QStringLiteral("CPU-only job");
  status_->setText(QStringLiteral("%1 · %2 · costs %3")
                       .arg(results_->scopeLabel, busy,
                            costsEdited_ ? QStringLiteral("as set") : QStringLiteral("estimated from the trace")));
  fillTables();
  redraw();
  QStringList ops;
  for (const OpMix& m : results_->mixes.ops) ops << QString::fromUtf8(doc_->trace->str(m.name));
  opKernels_->setScope(doc_, results_->window, ops);
  emit resultsReady();
}

void AnalysisPanel::redraw() {
  if (!results_ || !doc_) return;
  const AnalysisResults& r = *results_;
  const Trace& trace = *doc_->trace;
  const QString file = QFileInfo(QString::fromStdString(doc_->path)).fileName();
  auto title = [&](ChartKind c) { return chartTitle(c, r.scopeLabel, file); };
  plotOverview(plots_[0], r.overview, theme_, title(ChartKind::Overview));
  plotBreakdown(plots_[1], r.breakdown, trace, theme_, title(ChartKind::Breakdown), 15, breakdownFocus_);
  plotOpKernelMix(plots_[2], r.mixes, trace, theme_, title(ChartKind::OpKernels));
  plotKernelStats(plots_[3], r.kernels, trace, theme_, title(ChartKind::KernelStats));
  const QString op = overheadOp_->currentIndex() > 0 ? overheadOp_->currentText() : QString();
  plotOverheads(plots_[4], r.overheads, theme_, title(ChartKind::Overheads), logScale_->isChecked(), op);
  plotStreams(plots_[5], r.streams, theme_, title(ChartKind::Streams));
  plotRanks(plots_[6], r.ranks, theme_, title(ChartKind::Ranks));
  plotMemory(plots_[7], r.memory, trace, theme_, title(ChartKind::Memory));
  plotAdvice(plots_[8], r.advice, theme_, title(ChartKind::Advice));
  for (QCustomPlot* p : plots_) p->setMinimumHeight(std::max(120, chartMinimumHeight(p)));
}

void AnalysisPanel::showCriticalPath() { tabs_->setCurrentIndex(criticalPathTab_); }

void AnalysisPanel::fillTables() {
  const AnalysisResults& r = *results_;
  const Trace& trace = *doc_->trace;
  criticalPath_->setPath(doc_, r.criticalPath, r.scopeLabel);
  // Recommendations, most time at stake first; the row remembers its finding.
  adviceTable_->setSortingEnabled(false);
  adviceTable_->setRowCount(static_cast<int>(r.advice.size()));
  for (size_t i = 0; i < r.advice.size(); ++i) {
    const Advice& a = r.advice[i];
    QTableWidgetItem* finding = textItem(QString::fromStdString(a.title));
    finding->setData(Qt::UserRole, static_cast<int>(i));
    fillRow(
        adviceTable_, static_cast<int>(i),
        {finding, numberItem(ms(a.atStake), 3), numberItem(a.sharePct, 1), textItem(QString::fromStdString(a.action))});
  }
  adviceTable_->resizeRowsToContents();
  // Memory: the allocations live at the first device's peak until a click picks a time.
  memoryDevice_ = 0;
  memoryTime_ = r.memory.devices.empty() ? 0 : r.memory.devices[0].peakTs;
  fillMemoryTable();
  fillMemoryOpTable();
  // Without addresses (older PyTorch) nothing can be listed as live: show the ops.
  if (!r.memory.devices.empty() && r.memory.devices[0].allocations.empty())
    memoryTabs_->setCurrentWidget(memoryOpTable_);
  // Overview.
  const Overview& o = r.overview;
  QList<QPair<QString, QString>> figures = {
      {QStringLiteral("Wall time"), QStringLiteral("%1 ms").arg(ms(o.wall), 0, 'f', 3)},
      {QStringLiteral("Host runtime (without data loading)"),
       QStringLiteral("%1 ms").arg(ms(o.hostRuntime), 0, 'f', 3)},
      {QStringLiteral("Data loading"), QStringLiteral("%1 ms").arg(ms(o.dataLoading), 0, 'f', 3)},
      {QStringLiteral("Iterations"), QString::number(o.iterations)},
      {QStringLiteral("Throughput"), o.samplesPerSecond
                                         ? QStringLiteral("%1 samples/s").arg(*o.samplesPerSecond, 0, 'f', 1)
                                         : QStringLiteral("set a batch size")},
      {QStringLiteral("Ops · launches"), QStringLiteral("%L1 · %L2").arg(o.ops).arg(o.launches)},
      {QStringLiteral("Kernels · memcpys · memsets"),
       QStringLiteral("%L1 · %L2 · %L3").arg(o.kernels).arg(o.memcpys).arg(o.memsets)}};
  if (o.hasDevice) {
    const QString kind = QString::fromStdString(o.deviceKind);
    figures.insert(
        3, {QStringLiteral("%1 utilisation").arg(kind), QStringLiteral("%1 %").arg(100 * o.gpuUtilisation, 0, 'f', 1)});
    figures.insert(3, {QStringLiteral("%1 idle").arg(kind), QStringLiteral("%1 ms").arg(ms(o.gpuIdle), 0, 'f', 3)});
    figures.insert(3, {QStringLiteral("%1 active (union of all streams)").arg(kind),
                       QStringLiteral("%1 ms").arg(ms(o.gpuActive), 0, 'f', 3)});
  }
  for (size_t p = 0; p < o.breakdown.size(); ++p)
    figures.append(
        {QStringLiteral("Step time: %1").arg(QString::fromLatin1(stepPartName(static_cast<StepPart>(p)))),
         QStringLiteral("%1 ms (%2 %)")
             .arg(ms(o.breakdown[p]), 0, 'f', 3)
             .arg(o.wall ? 100.0 * static_cast<double>(o.breakdown[p]) / static_cast<double>(o.wall) : 0, 0, 'f', 1)});
  for (const StreamActivity& s : o.streams)
    figures.append({QString::fromStdString(s.label), QStringLiteral("busy %1 ms (%2 %), %L3 events")
                                                         .arg(ms(s.busy), 0, 'f', 3)
                                                         .arg(100 * s.utilisation, 0, 'f', 1)
                                                         .arg(s.events)});
  overviewTable_->setRowCount(static_cast<int>(figures.size()));
  for (int i = 0; i < figures.size(); ++i)
    fillRow(overviewTable_, i, {textItem(figures[i].first), textItem(figures[i].second)});
  overviewTable_->resizeColumnToContents(0);

  // Breakdown tree.
  breakdownTree_->setSortingEnabled(false);
  breakdownTree_->clear();
  const DeviceBreakdown& b = r.breakdown;
  std::function<void(QTreeWidgetItem*, uint32_t)> add = [&](QTreeWidgetItem* parent, uint32_t n) {
    const BreakdownNode& node = b.nodes[n];
    auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(breakdownTree_);
    const QString label = QString::fromStdString(breakdownLabel(trace, node));
    item->setText(0, label);
    item->setToolTip(0, label);
    item->setData(0, Qt::UserRole, n);
    item->setData(1, Qt::DisplayRole, QString::number(ms(node.time), 'f', 3).toDouble());
    item->setData(2, Qt::DisplayRole, QString::number(100 * node.share, 'f', 1).toDouble());
    item->setData(3, Qt::DisplayRole, static_cast<qulonglong>(node.count));
    for (int c = 1; c < 4; ++c) item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    for (uint32_t c : node.children) add(item, c);
  };
  for (uint32_t root : b.roots) add(nullptr, root);
  breakdownTree_->setSortingEnabled(true);
  for (int i = 0; i < breakdownTree_->topLevelItemCount(); ++i) breakdownTree_->topLevelItem(i)->setExpanded(true);

  // Op kernel mixes.
  int rows = 0;
  for (const OpMix& op : r.mixes.ops)
    for (const OpVariant& v : op.variants) rows += static_cast<int>(v.segments.size());
  mixTable_->setRowCount(rows);
  int row = 0;
  for (const OpMix& op : r.mixes.ops)
    for (size_t v = 0; v < op.variants.size(); ++v)
      for (const MixSegment& s : op.variants[v].segments) {
        fillRow(mixTable_, row++,
                {nameItem(trace.str(op.name)), numberItem(static_cast<double>(v + 1), 0),
                 numberItem(static_cast<double>(op.variants[v].calls), 0), nameItem(trace.str(s.kernel)),
                 textItem(s.cls >= 0 ? QString::fromStdString(r.mixes.classes[static_cast<size_t>(s.cls)]) : "other"),
                 numberItem(ms(s.time), 3), numberItem(100 * s.fraction, 1)});
      }

  // Kernel statistics.
  kernelTable_->setSortingEnabled(false);
  kernelTable_->setRowCount(static_cast<int>(r.kernels.kernels.size()));
  row = 0;
  for (const KernelStat& k : r.kernels.kernels)
    fillRow(kernelTable_, row++,
            {nameItem(trace.str(k.name)),
             textItem(k.cls >= 0 ? QString::fromStdString(r.kernels.classes[static_cast<size_t>(k.cls)]) : "other"),
             numberItem(static_cast<double>(k.count), 0), numberItem(ms(k.total), 3), numberItem(k.mean / 1e3, 2),
             numberItem(static_cast<double>(k.min) / 1e3, 2), numberItem(static_cast<double>(k.max) / 1e3, 2),
             numberItem(k.stddev / 1e3, 2), numberItem(100 * k.share, 2)});
  kernelTable_->setSortingEnabled(true);
  kernelTable_->sortByColumn(3, Qt::DescendingOrder);
  kernelTable_->setColumnWidth(0, 420);

  // Overheads.
  overheadTable_->setSortingEnabled(false);
  overheadTable_->setRowCount(0);
  auto addStats = [&](const QString& type, const QString& name, const std::vector<double>& v) {
    if (v.empty()) return;
    const SampleStats s = describe(v);
    const int at = overheadTable_->rowCount();
    overheadTable_->insertRow(at);
    fillRow(overheadTable_, at,
            {textItem(type), textItem(name), numberItem(static_cast<double>(s.count), 0), numberItem(s.mean, 2),
             numberItem(s.stddev, 2), numberItem(s.median, 2), numberItem(s.p90, 2)});
  };
  addStats(QStringLiteral("T1"), QStringLiteral("(between ops)"), r.overheads.t1);
  for (const OpOverheads& op : r.overheads.ops) {
    addStats(QStringLiteral("T2"), QString::fromStdString(op.name), op.t2);
    addStats(QStringLiteral("T3"), QString::fromStdString(op.name), op.t3);
    addStats(QStringLiteral("T5"), QString::fromStdString(op.name), op.t5);
  }
  for (const LaunchOverheads& l : r.overheads.t4) addStats(QStringLiteral("T4"), QString::fromStdString(l.name), l.t4);
  overheadTable_->setSortingEnabled(true);
  overheadTable_->setColumnWidth(1, 360);

  // Streams.
  streamTable_->setRowCount(static_cast<int>(r.streams.streams.size()));
  row = 0;
  for (const StreamUsage& s : r.streams.streams)
    fillRow(streamTable_, row++,
            {textItem(QString::fromStdString(s.label)), numberItem(static_cast<double>(s.events), 0),
             numberItem(ms(s.busy), 3), numberItem(ms(s.idle), 3), numberItem(ms(s.idleHostWait), 3),
             numberItem(ms(s.idleOther), 3), numberItem(100 * s.utilisation, 1), numberItem(ms(s.communication), 3)});
  streamTable_->resizeColumnToContents(0);
  // Ranks.
  std::vector<double> means;
  for (const RankRow& k : r.ranks.rows) {
    double sum = 0;
    for (TimeNs w : k.iterationWall) sum += ms(w);
    means.push_back(k.iterationWall.empty() ? std::nan("") : sum / static_cast<double>(k.iterationWall.size()));
  }
  std::vector<double> present;
  for (double m : means)
    if (!std::isnan(m)) present.push_back(m);
  const double median = present.empty() ? 0 : medianOf(present);
  rankTable_->setRowCount(static_cast<int>(r.ranks.rows.size()));
  row = 0;
  for (size_t i = 0; i < r.ranks.rows.size(); ++i) {
    const RankRow& k = r.ranks.rows[i];
    const double over = median > 0 && !std::isnan(means[i]) ? (means[i] / median - 1) * 100 : std::nan("");
    fillRow(
        rankTable_, row++,
        {numberItem(static_cast<double>(k.rank), 0), numberItem(static_cast<double>(k.iterationWall.size()), 0),
         std::isnan(means[i]) ? textItem(QStringLiteral("–")) : numberItem(means[i], 3),
         std::isnan(over) ? textItem(QStringLiteral("–")) : numberItem(over, 1), numberItem(ms(k.collectives.total), 3),
         numberItem(ms(k.collectives.wait), 3), numberItem(ms(k.computeTime), 3),
         numberItem(k.collectives.total
                        ? 100.0 * static_cast<double>(k.overlapTime) / static_cast<double>(k.collectives.total)
                        : 0,
                    1),
         k.clockOffset ? numberItem(static_cast<double>(*k.clockOffset) / 1000.0, 3) : textItem(QStringLiteral("–"))});
  }
}

void AnalysisPanel::showLiveMemory(size_t device, TimeNs t) {
  const bool otherDevice = device != memoryDevice_;
  memoryDevice_ = device;
  memoryTime_ = t;
  fillMemoryTable();
  if (otherDevice) fillMemoryOpTable();
}

void AnalysisPanel::fillMemoryOpTable() {
  const MemoryTimeline& m = results_->memory;
  memoryOpTable_->setSortingEnabled(false);
  memoryOpTable_->setRowCount(0);
  if (memoryDevice_ >= m.devices.size()) return;
  const auto& byOp = m.devices[memoryDevice_].byOp;
  // Most allocated first, as TensorBoard lists it; the user may sort by any column.
  std::vector<const std::pair<const std::string, OpMemory>*> rows;
  rows.reserve(byOp.size());
  for (const auto& entry : byOp) rows.push_back(&entry);
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto* a, const auto* b) { return a->second.allocBytes > b->second.allocBytes; });
  const auto mib = [](int64_t b) { return static_cast<double>(b) / (1024.0 * 1024.0); };
  memoryOpTable_->setRowCount(static_cast<int>(rows.size()));
  for (size_t i = 0; i < rows.size(); ++i) {
    const OpMemory& o = rows[i]->second;
    fillRow(memoryOpTable_, static_cast<int>(i),
            {nameItem(rows[i]->first), numberItem(static_cast<double>(o.allocs), 0), numberItem(mib(o.allocBytes), 3),
             numberItem(mib(o.increase), 3), numberItem(static_cast<double>(o.selfAllocs), 0),
             numberItem(mib(o.selfAllocBytes), 3), numberItem(mib(o.selfIncrease), 3)});
  }
  memoryOpTable_->setSortingEnabled(true);
}

void AnalysisPanel::fillMemoryTable() {
  const MemoryTimeline& m = results_->memory;
  memoryTable_->setSortingEnabled(false);
  if (memoryDevice_ >= m.devices.size()) {
    memoryTable_->setRowCount(0);
    memoryNote_->setText(m.devices.empty() ? QStringLiteral("No [memory] events in this trace.") : QString());
    return;
  }
  const DeviceMemory& d = m.devices[memoryDevice_];
  const Trace& trace = *doc_->trace;
  const std::vector<const MemoryAllocation*> live = liveAllocations(d, memoryTime_);
  const size_t rows = std::min<size_t>(live.size(), 5000);
  memoryTable_->setRowCount(static_cast<int>(rows));
  auto ms = [&](TimeNs t) { return static_cast<double>(t - trace.minTs) / 1e6; };
  for (size_t i = 0; i < rows; ++i) {
    const MemoryAllocation& a = *live[i];
    fillRow(memoryTable_, static_cast<int>(i),
            {numberItem(static_cast<double>(a.bytes) / (1024.0 * 1024.0), 3),
             a.op ? nameItem(trace.name(*a.op)) : textItem(QStringLiteral("(no op)")), numberItem(ms(a.alloc), 3),
             a.free == std::numeric_limits<TimeNs>::max() ? textItem(QStringLiteral("still live"))
                                                          : numberItem(ms(a.free), 3),
             textItem(QStringLiteral("0x%1").arg(a.addr, 0, 16))});
  }
  memoryTable_->setSortingEnabled(true);
  int64_t total = 0;
  for (const MemoryAllocation* a : live) total = satAdd(total, a->bytes);
  memoryNote_->setText(
      d.allocations.empty()
          ? QStringLiteral("%1: this trace records no allocation addresses (older PyTorch), so live allocations cannot "
                           "be told apart; the curve is the running sum of its events.")
                .arg(QString::fromStdString(d.label))
          : QStringLiteral("%1 at %2 ms: %L3 allocations live, %4 MiB%5. Click a curve to see another time.")
                .arg(QString::fromStdString(d.label))
                .arg(ms(memoryTime_), 0, 'f', 3)
                .arg(live.size())
                .arg(static_cast<double>(total) / (1024.0 * 1024.0), 0, 'f', 1)
                .arg(memoryTime_ == d.peakTs ? QStringLiteral(" (the peak)") : QString()));
}

void AnalysisPanel::hoverTip(QCustomPlot* plot, QMouseEvent* e) {
  const QString tip = chartTipAt(plot, e->pos());
  if (tip.isEmpty()) QToolTip::hideText();
  else QToolTip::showText(e->globalPosition().toPoint(), tip, plot);
}

QString AnalysisPanel::dataText(ChartKind chart, bool json) const {
  const AnalysisResults& r = *results_;
  const Trace& trace = *doc_->trace;
  const std::string& path = doc_->path;
  std::string text;
  switch (chart) {
    case ChartKind::Overview:
      text = json ? overviewJson(r.overview, trace, path) : overviewCsv(r.overview);
      break;
    case ChartKind::Breakdown:
      text = json ? deviceBreakdownJson(r.breakdown, trace, path) : deviceBreakdownCsv(r.breakdown, trace);
      break;
    case ChartKind::OpKernels:
      text = json ? opKernelMixJson(r.mixes, trace, path) : opKernelMixCsv(r.mixes, trace);
      break;
    case ChartKind::KernelStats:
      text = json ? kernelStatsJson(r.kernels, trace, path) : kernelStatsCsv(r.kernels, trace);
      break;
    case ChartKind::Overheads:
      text = json ? overheadsJson(r.overheads, &r.estimate) : overheadsCsv(r.overheads);
      break;
    case ChartKind::Streams:
      text = json ? streamUsageJson(r.streams, trace, path) : streamUsageCsv(r.streams);
      break;
    case ChartKind::Ranks:
      text = json ? rankTableJson(r.ranks, path) : rankTableCsv(r.ranks);
      break;
    case ChartKind::Memory:
      text = json ? memoryJson(r.memory, trace, path) : memoryCsv(r.memory, trace);
      break;
    case ChartKind::Advice:
      text = json ? adviceJson(r.advice, trace, path) : adviceCsv(r.advice);
      break;
  }
  return QString::fromStdString(text);
}

bool AnalysisPanel::exportChart(ChartKind chart, const QString& path, QString* error) {
  if (!results_) {
    if (error) *error = QStringLiteral("no analysis yet");
    return false;
  }
  return exportPlotOrData(
      plot(chart), path, [&](bool json) { return dataText(chart, json).toStdString(); }, 900, error);
}

void AnalysisPanel::plotContextMenu(ChartKind chart, const QPoint& pos) {
  showExportMenu(this, plot(chart)->mapToGlobal(pos), QString::fromLatin1(chartName(chart)),
                 [this, chart](const QString& path, QString* error) { return exportChart(chart, path, error); });
}

}  // namespace opscope::ui
