// The Streams tab: busy, idle and overlap per stream over a table of the same.
#include <QTableWidget>

#include "analysis/stream_usage.h"
#include "panels/analysis_tab.h"
#include "panels/table_items.h"

namespace opscope::ui {

namespace {

double ms(TimeNs ns) { return static_cast<double>(ns) / 1e6; }

class StreamsTab : public AnalysisTab {
 public:
  explicit StreamsTab(const AnalysisKind& kind) : AnalysisTab(kind) {
    table_ =
        makeTable({QStringLiteral("Stream"), QStringLiteral("Events"), QStringLiteral("Busy (ms)"),
                   QStringLiteral("Idle (ms)"), QStringLiteral("Host wait (ms)"), QStringLiteral("Other idle (ms)"),
                   QStringLiteral("Utilisation (%)"), QStringLiteral("Communication (ms)")});
    setBelow(table_);
  }

 protected:
  void fill() override {
    const StreamUsageReport& r = analysisValue<StreamUsageReport>(result());
    table_->setRowCount(static_cast<int>(r.streams.size()));
    int row = 0;
    for (const StreamUsage& s : r.streams)
      fillRow(table_, row++,
              {textItem(QString::fromStdString(s.label)), numberItem(static_cast<double>(s.events), 0),
               numberItem(ms(s.busy), 3), numberItem(ms(s.idle), 3), numberItem(ms(s.idleHostWait), 3),
               numberItem(ms(s.idleOther), 3), numberItem(100 * s.utilisation, 1), numberItem(ms(s.communication), 3)});
    table_->resizeColumnToContents(0);
  }

 private:
  QTableWidget* table_ = nullptr;
};

}  // namespace

AnalysisTab* makeStreamsTab(const AnalysisKind& kind) { return new StreamsTab(kind); }

}  // namespace opscope::ui
