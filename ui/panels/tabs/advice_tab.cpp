// The Recommendations tab: findings by time at stake; a double click selects a
// finding's example event in the timeline.
#include <QTableWidget>

#include "analysis/advice.h"
#include "panels/analysis_tab.h"
#include "panels/table_items.h"

namespace opscope::ui {

namespace {

class AdviceTab : public AnalysisTab {
 public:
  explicit AdviceTab(const AnalysisKind& kind) : AnalysisTab(kind) {
    table_ = makeTable({QStringLiteral("Finding"), QStringLiteral("At stake (ms)"), QStringLiteral("Share (%)"),
                        QStringLiteral("Try")},
                       {0, 3});
    table_->setWordWrap(true);
    connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
      if (!hasResults() || !table_->item(row, 0)) return;
      const auto& advice = analysisValue<std::vector<Advice>>(result());
      const int index = table_->item(row, 0)->data(Qt::UserRole).toInt();
      if (index < 0 || index >= static_cast<int>(advice.size())) return;
      const Advice& a = advice[static_cast<size_t>(index)];
      if (a.where) emit eventsActivated(QString::fromStdString(a.id), {*a.where});
    });
    setBelow(table_);
  }

 protected:
  void fill() override {
    const auto& advice = analysisValue<std::vector<Advice>>(result());
    // Most time at stake first; the row remembers its finding.
    table_->setSortingEnabled(false);
    table_->setRowCount(static_cast<int>(advice.size()));
    for (size_t i = 0; i < advice.size(); ++i) {
      const Advice& a = advice[i];
      QTableWidgetItem* finding = textItem(QString::fromStdString(a.title));
      finding->setData(Qt::UserRole, static_cast<int>(i));
      fillRow(table_, static_cast<int>(i),
              {finding, numberItem(static_cast<double>(a.atStake) / 1e6, 3), numberItem(a.sharePct, 1),
               textItem(QString::fromStdString(a.action))});
    }
    table_->resizeRowsToContents();
  }

 private:
  QTableWidget* table_ = nullptr;
};

}  // namespace

AnalysisTab* makeAdviceTab(const AnalysisKind& kind) { return new AdviceTab(kind); }

}  // namespace opscope::ui
