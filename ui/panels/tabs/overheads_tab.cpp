#include "panels/tabs/overheads_tab.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QTableWidget>

#include "analysis/overhead_model.h"
#include "analysis/sample_stats.h"
#include "dialog_folder.h"
#include "panels/table_items.h"
#include "save_file.h"

namespace opscope::ui {

OverheadsTab::OverheadsTab(const AnalysisKind& kind) : AnalysisTab(kind) {
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
      edited_ = true;
      emit recomputeRequested();
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
  op_ = new QComboBox;
  op_->setToolTip(QStringLiteral("T2, T3 and T5 of one op, or of all ops"));
  connect(op_, &QComboBox::currentIndexChanged, this, [this] { redraw(); });
  auto* save = new QPushButton(QStringLiteral("Save overheads…"));
  save->setToolTip(QStringLiteral("The overheads JSON the prediction pane and the notebook read"));
  connect(save, &QPushButton::clicked, this, [this] {
    if (!hasResults()) return;
    const QString path =
        QFileDialog::getSaveFileName(this, QStringLiteral("Save overheads"),
                                     dialogStart(QStringLiteral("overheads.json")), QStringLiteral("JSON (*.json)"));
    if (path.isEmpty()) return;
    QString error;
    const auto& o = analysisValue<OverheadsWithCosts>(result());
    if (!saveBytes(path, overheadModelJson(overheadModel(o.overheads)), &error))
      QMessageBox::warning(this, QStringLiteral("Save overheads"), error);
  });
  ch->addWidget(logScale_);
  ch->addWidget(op_, 1);
  ch->addWidget(save);
  table_ = makeTable(
      {QStringLiteral("Type"), QStringLiteral("Op / launch"), QStringLiteral("Samples"), QStringLiteral("Mean (µs)"),
       QStringLiteral("Std (µs)"), QStringLiteral("Median (µs)"), QStringLiteral("p90 (µs)")},
      {1});
  table_->setSortingEnabled(true);
  // The cost controls scroll sideways in a narrow dock instead of widening the window.
  auto* controlsScroll = new QScrollArea;
  controlsScroll->setWidget(controls);
  controlsScroll->setWidgetResizable(true);
  controlsScroll->setFrameShape(QFrame::NoFrame);
  controlsScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  controlsScroll->setFixedHeight(controls->sizeHint().height() + 14);
  setAbove(controlsScroll);
  setBelow(table_);
}

ChartOptions OverheadsTab::chartOptions() const {
  ChartOptions o;
  o.logScale = logScale_->isChecked();
  if (op_->currentIndex() > 0) o.op = op_->currentText();
  return o;
}

CostOverrides OverheadsTab::costs() const {
  CostOverrides c;
  if (!edited_) return c;
  c.cpuEventUs = cpuCost_->value();
  c.gpuEventUs = gpuCost_->value();
  c.launchLengthUs = launchCost_->value();
  c.t1MaxGapUs = t1Gap_->value();
  return c;
}

void OverheadsTab::fill() {
  const OverheadsWithCosts& r = analysisValue<OverheadsWithCosts>(result());
  {
    const ProfilerCosts& c = r.overheads.costs;
    const QSignalBlocker b1(cpuCost_), b2(gpuCost_), b3(launchCost_), b4(t1Gap_), b5(op_);
    cpuCost_->setValue(c.cpuEvent);
    gpuCost_->setValue(c.gpuEvent);
    launchCost_->setValue(c.launchLength);
    t1Gap_->setValue(r.overheads.t1MaxGapUs);
    cpuCost_->setToolTip(
        QStringLiteral("CPU_EVENT_OVERHEAD, estimated: %1").arg(QString::fromStdString(r.estimate.cpuEventMethod)));
    gpuCost_->setToolTip(
        QStringLiteral("GPU_EVENT_OVERHEAD: %1").arg(QString::fromStdString(r.estimate.gpuEventMethod)));
    launchCost_->setToolTip(QStringLiteral("KERNEL_LAUNCH_LENGTH, estimated: %1")
                                .arg(QString::fromStdString(r.estimate.launchLengthMethod)));
    const QString current = op_->currentText();
    op_->clear();
    op_->addItem(QStringLiteral("all ops"));
    for (const OpOverheads& op : r.overheads.ops) op_->addItem(QString::fromStdString(op.name));
    const int keep = op_->findText(current);
    op_->setCurrentIndex(keep > 0 ? keep : 0);
  }
  table_->setSortingEnabled(false);
  table_->setRowCount(0);
  auto addStats = [&](const QString& type, const QString& name, const std::vector<double>& v) {
    if (v.empty()) return;
    const SampleStats s = describe(v);
    const int at = table_->rowCount();
    table_->insertRow(at);
    fillRow(table_, at,
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
  table_->setSortingEnabled(true);
  table_->setColumnWidth(1, 360);
}

}  // namespace opscope::ui
