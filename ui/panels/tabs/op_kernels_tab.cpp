#include "panels/tabs/op_kernels_tab.h"

#include <qcustomplot.h>

#include <QTabWidget>
#include <QTableWidget>

#include "analysis/op_kernel_mix.h"
#include "charts/analysis_charts.h"
#include "panels/op_kernels_view.h"
#include "panels/table_items.h"

namespace opscope::ui {

OpKernelsTab::OpKernelsTab(const AnalysisKind& kind) : AnalysisTab(kind) {
  mixTable_ =
      makeTable({QStringLiteral("Op"), QStringLiteral("Variant"), QStringLiteral("Calls"), QStringLiteral("Kernel"),
                 QStringLiteral("Class"), QStringLiteral("Time (ms)"), QStringLiteral("Share of variant (%)")},
                {0, 3});
  opKernels_ = new OpKernelsView;
  connect(opKernels_, &OpKernelsView::nameActivated, this, &AnalysisTab::nameActivated);
  connect(opKernels_, &OpKernelsView::failed, this, &AnalysisTab::failed);
  mixTabs_ = new QTabWidget;
  mixTabs_->setDocumentMode(true);
  mixTabs_->addTab(mixTable_, QStringLiteral("Variants"));
  mixTabs_->addTab(opKernels_, QStringLiteral("Kernels of one op, by input shape"));
  setBelow(mixTabs_);
  connect(plot(), &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable* p, int index, QMouseEvent*) {
    if (!hasResults()) return;
    const auto* mixes = analysisValueIf<OpKernelMixes>(&result());
    const QVariantList segments = p->property("segments").toList();
    if (!mixes || index < 0 || index >= segments.size()) return;
    const QPoint s = segments[index].toPoint();
    auto events = mixSegmentEvents(*mixes, s.x(), s.y());
    if (!events.empty())
      emit eventsActivated(p->name() + QStringLiteral(" kernels of this variant"), std::move(events));
  });
}

void OpKernelsTab::showOp(const QString& op, bool byShape) {
  mixTabs_->setCurrentWidget(opKernels_);
  opKernels_->setOp(op, byShape);
}

void OpKernelsTab::setKernelClassifier(std::shared_ptr<const KernelClassifier> classifier) {
  opKernels_->setKernelClassifier(std::move(classifier));
}

void OpKernelsTab::fill() {
  const auto* mixes = analysisValueIf<OpKernelMixes>(&result());
  if (!mixes) return;
  const Trace& trace = *doc().trace;
  int rows = 0;
  for (const OpMix& op : mixes->ops)
    for (const OpVariant& v : op.variants) rows += static_cast<int>(v.segments.size());
  mixTable_->setRowCount(rows);
  int row = 0;
  for (const OpMix& op : mixes->ops)
    for (size_t v = 0; v < op.variants.size(); ++v)
      for (const MixSegment& s : op.variants[v].segments) {
        fillRow(mixTable_, row++,
                {nameItem(trace.str(op.name)), numberItem(static_cast<double>(v + 1), 0),
                 numberItem(static_cast<double>(op.variants[v].calls), 0), nameItem(trace.str(s.kernel)),
                 textItem(s.cls >= 0 ? QString::fromStdString(mixes->classes[static_cast<size_t>(s.cls)]) : "other"),
                 numberItem(static_cast<double>(s.time) / 1e6, 3), numberItem(100 * s.fraction, 1)});
      }
  QStringList ops;
  for (const OpMix& m : mixes->ops) ops << QString::fromUtf8(trace.str(m.name));
  opKernels_->setScope(document(), results().request.window, ops);
}

}  // namespace opscope::ui
