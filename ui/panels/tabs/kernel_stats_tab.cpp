// The Kernels tab: kernel statistics over a sortable table; a bar or a row searches
// its kernel in the timeline.
#include <qcustomplot.h>

#include <QTableWidget>

#include "analysis/kernel_stats.h"
#include "panels/analysis_tab.h"
#include "panels/table_items.h"

namespace opscope::ui {

namespace {

class KernelStatsTab : public AnalysisTab {
 public:
  explicit KernelStatsTab(const AnalysisKind& kind) : AnalysisTab(kind) {
    table_ = makeTable({QStringLiteral("Kernel"), QStringLiteral("Class"), QStringLiteral("Count"),
                        QStringLiteral("Total (ms)"), QStringLiteral("Mean (µs)"), QStringLiteral("Min (µs)"),
                        QStringLiteral("Max (µs)"), QStringLiteral("Std (µs)"), QStringLiteral("Share (%)")});
    table_->setSortingEnabled(true);
    table_->setToolTip(QStringLiteral("Activate a row to search that kernel in the timeline"));
    connect(table_, &QTableWidget::itemActivated, this, [this](QTableWidgetItem* item) {
      emit nameActivated(table_->item(item->row(), 0)->data(Qt::UserRole).toString());
    });
    connect(plot(), &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable* p, int index, QMouseEvent*) {
      const QStringList tips = p->property("tips").toStringList();
      if (hasResults() && index >= 0 && index < tips.size()) emit nameActivated(tips[index].section('\n', 0, 0));
    });
    setBelow(table_);
  }

 protected:
  void fill() override {
    const KernelStats& k = analysisValue<KernelStats>(result());
    const Trace& trace = *doc().trace;
    table_->setSortingEnabled(false);
    table_->setRowCount(static_cast<int>(k.kernels.size()));
    int row = 0;
    for (const KernelStat& s : k.kernels)
      fillRow(table_, row++,
              {nameItem(trace.str(s.name)),
               textItem(s.cls >= 0 ? QString::fromStdString(k.classes[static_cast<size_t>(s.cls)]) : "other"),
               numberItem(static_cast<double>(s.count), 0), numberItem(static_cast<double>(s.total) / 1e6, 3),
               numberItem(s.mean / 1e3, 2), numberItem(static_cast<double>(s.min) / 1e3, 2),
               numberItem(static_cast<double>(s.max) / 1e3, 2), numberItem(s.stddev / 1e3, 2),
               numberItem(100 * s.share, 2)});
    table_->setSortingEnabled(true);
    table_->sortByColumn(3, Qt::DescendingOrder);
    table_->setColumnWidth(0, 420);
  }

 private:
  QTableWidget* table_ = nullptr;
};

}  // namespace

AnalysisTab* makeKernelStatsTab(const AnalysisKind& kind) { return new KernelStatsTab(kind); }

}  // namespace opscope::ui
