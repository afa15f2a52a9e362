// The Ranks tab: iteration time, collectives and clock offsets per rank.
#include <QTableWidget>
#include <cmath>

#include "analysis/sample_stats.h"
#include "panels/analysis_tab.h"
#include "panels/table_items.h"
#include "ranks/rank_table.h"

namespace opscope::ui {

namespace {

double ms(TimeNs ns) { return static_cast<double>(ns) / 1e6; }

class RanksTab : public AnalysisTab {
 public:
  explicit RanksTab(const AnalysisKind& kind) : AnalysisTab(kind) {
    table_ = makeTable({QStringLiteral("Rank"), QStringLiteral("Iterations"), QStringLiteral("Mean iteration (ms)"),
                        QStringLiteral("Over the median (%)"), QStringLiteral("Collectives (ms)"),
                        QStringLiteral("Waiting (ms)"), QStringLiteral("Compute (ms)"), QStringLiteral("Overlap (%)"),
                        QStringLiteral("Clock offset (µs)")});
    setBelow(table_);
  }

 protected:
  void fill() override {
    const RankTable& t = analysisValue<RankTable>(result());
    std::vector<double> means;
    for (const RankRow& k : t.rows) {
      double sum = 0;
      for (TimeNs w : k.iterationWall) sum += ms(w);
      means.push_back(k.iterationWall.empty() ? std::nan("") : sum / static_cast<double>(k.iterationWall.size()));
    }
    std::vector<double> present;
    for (double m : means)
      if (!std::isnan(m)) present.push_back(m);
    const double median = present.empty() ? 0 : medianOf(present);
    table_->setRowCount(static_cast<int>(t.rows.size()));
    for (size_t i = 0; i < t.rows.size(); ++i) {
      const RankRow& k = t.rows[i];
      const double over = median > 0 && !std::isnan(means[i]) ? (means[i] / median - 1) * 100 : std::nan("");
      const double overlap = k.collectives.total
                                 ? 100.0 * static_cast<double>(k.overlapTime) / static_cast<double>(k.collectives.total)
                                 : 0;
      fillRow(table_, static_cast<int>(i),
              {numberItem(static_cast<double>(k.rank), 0), numberItem(static_cast<double>(k.iterationWall.size()), 0),
               std::isnan(means[i]) ? textItem(QStringLiteral("–")) : numberItem(means[i], 3),
               std::isnan(over) ? textItem(QStringLiteral("–")) : numberItem(over, 1),
               numberItem(ms(k.collectives.total), 3), numberItem(ms(k.collectives.wait), 3),
               numberItem(ms(k.computeTime), 3), numberItem(overlap, 1),
               k.clockOffset ? numberItem(static_cast<double>(*k.clockOffset) / 1000.0, 3)
                             : textItem(QStringLiteral("–"))});
    }
  }

 private:
  QTableWidget* table_ = nullptr;
};

}  // namespace

AnalysisTab* makeRanksTab(const AnalysisKind& kind) { return new RanksTab(kind); }

}  // namespace opscope::ui
