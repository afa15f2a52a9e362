#include "panels/diff_panel.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QResizeEvent>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

#include "charts/analysis_charts.h"
#include "charts/chart_export.h"
#include "charts/diff_chart.h"
#include "panels/adaptive_splitter.h"
#include "panels/table_items.h"
#include "report/diff_report.h"
#include "worker.h"

namespace opscope::ui {

namespace {

double ms(TimeNs ns) { return static_cast<double>(ns) / 1e6; }

QString fileName(const TraceDocument* d) {
  return d ? QFileInfo(QString::fromStdString(d->path)).fileName() : QString();
}

}  // namespace

DiffPanel::DiffPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  heading_ = new QLabel(QStringLiteral("File ▸ Compare with… opens a second trace to compare with this one."));
  heading_->setWordWrap(true);
  layout->addWidget(heading_);
  auto* bar = new QHBoxLayout;
  rows_ = new QComboBox;
  rows_->addItems({QStringLiteral("GPU work"), QStringLiteral("Host work")});
  rows_->setItemData(0, QStringLiteral("GPU kernels, memcpys and memsets"), Qt::ToolTipRole);
  rows_->setItemData(1, QStringLiteral("CPU ops, annotations and runtime calls"), Qt::ToolTipRole);
  rangeA_ = new QComboBox;
  rangeB_ = new QComboBox;
  // As wide as a short range name: the bar fits a laptop's bottom dock.
  for (QComboBox* box : {rangeA_, rangeB_}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(9);
  }
  rangeA_->setToolTip(QStringLiteral("The part of A compared"));
  rangeB_->setToolTip(QStringLiteral("The part of B compared (B may be A itself: two iterations of one run)"));
  perIteration_ = new QCheckBox(QStringLiteral("per iteration"));
  perIteration_->setToolTip(
      QStringLiteral("Totals divided by each side's number of iterations (runs profiled for different step counts)"));
  filter_ = new QLineEdit;
  filter_->setPlaceholderText(QStringLiteral("filter names (substring)"));
  filter_->setClearButtonEnabled(true);
  filter_->setMinimumWidth(80);
  bar->addWidget(rows_);
  bar->addWidget(new QLabel(QStringLiteral("A:")));
  bar->addWidget(rangeA_);
  bar->addWidget(new QLabel(QStringLiteral("B:")));
  bar->addWidget(rangeB_);
  bar->addWidget(perIteration_);
  bar->addWidget(filter_, 1);
  bar->addWidget(makeExportButton(QStringLiteral("every row"), [this] { exportCurrent(); }));
  layout->addLayout(bar);
  auto* split = new AdaptiveSplitter;
  plot_ = new QCustomPlot;
  plot_->setMinimumHeight(120);
  plot_->setMouseTracking(true);
  plot_->setContextMenuPolicy(Qt::CustomContextMenu);
  showPlotMessage(plot_, QStringLiteral("Nothing compared yet"), theme_);
  table_ = makeTable({QStringLiteral("Name"), QStringLiteral("Input shapes"), QStringLiteral("Count A"),
                      QStringLiteral("Count B"), QStringLiteral("Total A (ms)"), QStringLiteral("Total B (ms)"),
                      QStringLiteral("Delta (ms)"), QStringLiteral("Ratio B/A")},
                     {0, 1});
  split->addWidget(plot_);
  split->addWidget(table_);
  split->setSizes({320, 260});
  layout->addWidget(split, 1);

  connect(rows_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
  connect(filter_, &QLineEdit::textChanged, this, [this] { refresh(); });
  connect(rangeA_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
  connect(rangeB_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
  connect(perIteration_, &QCheckBox::toggled, this, [this] { recompute(); });
  connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
    const QString tip = chartTipAt(plot_, e->pos());
    if (tip.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(e->globalPosition().toPoint(), tip, plot_);
  });
  connect(plot_, &QWidget::customContextMenuRequested, this, &DiffPanel::contextMenu);
  plot_->installEventFilter(this);
  connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
    if (QTableWidgetItem* item = table_->item(row, 0)) emit nameActivated(item->data(Qt::UserRole).toString());
  });
}

void DiffPanel::fillRanges(QComboBox* box, const TraceDocument* doc) {
  const QSignalBlocker block(box);
  box->clear();
  box->addItem(QStringLiteral("whole trace"), -1);
  if (!doc) return;
  const auto& its = doc->trace->iterations;
  for (size_t i = 0; i < its.size(); ++i)
    box->addItem(QStringLiteral("iteration %1 (step %2)").arg(i).arg(its[i].number), static_cast<int>(i));
}

void DiffPanel::compare(std::shared_ptr<const TraceDocument> a, std::shared_ptr<const TraceDocument> b) {
  a_ = std::move(a);
  b_ = std::move(b);
  fillRanges(rangeA_, a_.get());
  fillRanges(rangeB_, b_.get());
  recompute();
}

void DiffPanel::compareWithFile(std::shared_ptr<const TraceDocument> a, const QString& path) {
  emit loading(QStringLiteral("Loading %1 to compare…").arg(QFileInfo(path).fileName()));
  const std::string file = QFile::encodeName(path).toStdString();
  struct Outcome {
    std::shared_ptr<const TraceDocument> b;
    std::string error;
  };
  loadB_.run(
      this,
      [file] {
        Outcome o;
        o.b = loadDocument(file, o.error);
        return o;
      },
      [path, a](DiffPanel* self, Outcome o) {
        emit self->loading(QString());
        if (!o.b) {
          emit self->failed(QStringLiteral("Compare with"),
                            QStringLiteral("%1: %2").arg(path, QString::fromStdString(o.error)));
          return;
        }
        self->compare(a, std::move(o.b));
      },
      [path](DiffPanel* self, const QString& message) {
        emit self->loading(QString());
        emit self->failed(QStringLiteral("Compare with"), QStringLiteral("%1: %2").arg(path, message));
      });
}

void DiffPanel::clear() {
  a_.reset();
  b_.reset();
  result_.reset();
  job_.supersede();
  loadB_.supersede();  // a trace loading to compare with the previous one
  fillRanges(rangeA_, nullptr);
  fillRanges(rangeB_, nullptr);
  heading_->setText(QStringLiteral("File ▸ Compare with… opens a second trace to compare with this one."));
  table_->setRowCount(0);
  showPlotMessage(plot_, QStringLiteral("Nothing compared yet"), theme_);
}

void DiffPanel::setDark(bool dark) {
  theme_.dark = dark;
  refresh();
}

void DiffPanel::setIterations(int a, int b) {
  const QSignalBlocker blockA(rangeA_), blockB(rangeB_);
  rangeA_->setCurrentIndex(std::max(0, rangeA_->findData(a)));
  rangeB_->setCurrentIndex(std::max(0, rangeB_->findData(b)));
  recompute();
}

void DiffPanel::setShowKernels(bool kernels) { rows_->setCurrentIndex(kernels ? 0 : 1); }

void DiffPanel::setFilter(const QString& text) { filter_->setText(text); }

void DiffPanel::recompute() {
  if (!a_ || !b_) return;
  DiffOptions options;
  options.perIteration = perIteration_->isChecked();
  const int ia = rangeA_->currentData().toInt(), ib = rangeB_->currentData().toInt();
  if (ia >= 0) options.windowA = iterationWindow(a_->trace->iterations, static_cast<size_t>(ia), 1);
  if (ib >= 0) options.windowB = iterationWindow(b_->trace->iterations, static_cast<size_t>(ib), 1);
  heading_->setText(QStringLiteral("<b>A</b> %1 · %2 &nbsp;&nbsp; <b>B</b> %3 · %4 &nbsp;&nbsp; comparing…")
                        .arg(fileName(a_.get()).toHtmlEscaped(), rangeA_->currentText(),
                             fileName(b_.get()).toHtmlEscaped(), rangeB_->currentText()));
  std::shared_ptr<const TraceDocument> a = a_, b = b_;
  const TimeNs alignA = options.windowA ? options.windowA->start : a->trace->minTs;
  const TimeNs alignB = options.windowB ? options.windowB->start : b->trace->minTs;
  job_.run(
      this, [a, b, options] { return std::make_shared<const TraceDiff>(diffTraces(*a->trace, *b->trace, options)); },
      [b, alignA, alignB](DiffPanel* self, std::shared_ptr<const TraceDiff> d) {
        self->result_ = std::move(d);
        self->refresh();
        emit self->compared(b, alignA, alignB);
      },
      [](DiffPanel* self, const QString& message) {
        showPlotMessage(self->plot_, QStringLiteral("Comparison failed: %1").arg(message), self->theme_);
      });
}

bool DiffPanel::eventFilter(QObject* watched, QEvent* e) {
  // The chart's row count follows its height.
  if (watched == plot_ && e->type() == QEvent::Resize && result_) {
    auto* re = static_cast<QResizeEvent*>(e);
    if (re->oldSize().height() != re->size().height()) QTimer::singleShot(0, this, [this] { refresh(); });
  }
  return QWidget::eventFilter(watched, e);
}

void DiffPanel::refresh() {
  if (!result_) return;
  const bool kernels = rows_->currentIndex() == 0;
  const std::vector<DiffRow>& all = kernels ? result_->kernels : result_->ops;
  const QString needle = filter_->text().trimmed();
  std::vector<const DiffRow*> shown;
  for (const DiffRow& r : all)
    if (needle.isEmpty() || QString::fromStdString(r.name).contains(needle, Qt::CaseInsensitive) ||
        QString::fromStdString(r.shape).contains(needle, Qt::CaseInsensitive))
      shown.push_back(&r);
  // As many changed rows as the chart has room for (17 px a row under its title and
  // axis), so labels never overlap; a resize draws again.
  const size_t fit = static_cast<size_t>(std::clamp((plot_->height() - 90) / 17, 3, kChartRows));
  std::vector<const DiffRow*> changed;
  for (const DiffRow* r : shown)
    if (r->delta() != 0 && changed.size() < fit) changed.push_back(r);
  TimeNs gpuA = 0, gpuB = 0;
  for (const DiffRow& r : result_->kernels) addTo(gpuA, r.totalA), addTo(gpuB, r.totalB);
  heading_->setText(QStringLiteral("<b>A</b> %1 · %2 &nbsp;&nbsp; <b>B</b> %3 · %4 &nbsp;&nbsp; GPU time %5 → %6 ms")
                        .arg(fileName(a_.get()).toHtmlEscaped(), rangeA_->currentText(),
                             fileName(b_.get()).toHtmlEscaped(), rangeB_->currentText())
                        .arg(ms(gpuA), 0, 'f', 3)
                        .arg(ms(gpuB), 0, 'f', 3));
  plotDiff(plot_, changed, theme_,
           QStringLiteral("%1: largest changes, B − A")
               .arg(kernels ? QStringLiteral("GPU kernels") : QStringLiteral("Host (ops, annotations, runtime)")));
  table_->setSortingEnabled(false);
  table_->setRowCount(static_cast<int>(shown.size()));
  table_->setColumnHidden(1, kernels);
  for (size_t i = 0; i < shown.size(); ++i) {
    const DiffRow& r = *shown[i];
    QTableWidgetItem* ratio = r.countB == 0   ? textItem(QStringLiteral("only in A"))
                              : r.countA == 0 ? textItem(QStringLiteral("only in B"))
                              : r.totalA > 0
                                  ? numberItem(static_cast<double>(r.totalB) / static_cast<double>(r.totalA), 3)
                                  : textItem(QStringLiteral("–"));
    QTableWidgetItem* name = nameItem(r.name);
    if (r.match != DiffRow::Match::kName)
      name->setToolTip(QStringLiteral("%1\nmatched by %2\nA: %3\nB: %4")
                           .arg(QString::fromStdString(r.name), QString::fromLatin1(matchName(r.match)),
                                QString::fromStdString(joinedNames(r.namesA)),
                                QString::fromStdString(joinedNames(r.namesB))));
    fillRow(table_, static_cast<int>(i),
            {name, textItem(QString::fromStdString(r.shape)), numberItem(static_cast<double>(r.countA), 0),
             numberItem(static_cast<double>(r.countB), 0), numberItem(ms(r.totalA), 3), numberItem(ms(r.totalB), 3),
             numberItem(ms(r.delta()), 3), ratio});
  }
  table_->setSortingEnabled(true);
}

std::string DiffPanel::dataText(bool json) const {
  if (!result_) return {};
  DiffLabels labels;
  labels.a = a_ ? a_->path : std::string();
  labels.b = b_ ? b_->path : std::string();
  const int ia = rangeA_->currentData().toInt(), ib = rangeB_->currentData().toInt();
  if (ia >= 0) labels.iterationsA = std::to_string(ia);
  if (ib >= 0) labels.iterationsB = std::to_string(ib);
  labels.perIteration = perIteration_->isChecked();
  return json ? traceDiffJson(*result_, labels) : traceDiffCsv(*result_);
}

bool DiffPanel::exportChart(const QString& path, QString* error) {
  if (!result_) {
    if (error) *error = QStringLiteral("nothing compared yet");
    return false;
  }
  return exportPlotOrData(
      plot_, path, [this](bool json) { return dataText(json); }, 900, error, theme_.dark,
      [this](const ChartTheme& theme) {
        theme_ = theme;
        refresh();
      });
}

QString DiffPanel::exportCurrent() {
  return exportWithDialog(this, QStringLiteral("diff"),
                          [this](const QString& path, QString* error) { return exportChart(path, error); });
}

void DiffPanel::contextMenu(const QPoint& pos) {
  showExportMenu(this, plot_->mapToGlobal(pos), QStringLiteral("diff"),
                 [this](const QString& path, QString* error) { return exportChart(path, error); });
}

}  // namespace opscope::ui
