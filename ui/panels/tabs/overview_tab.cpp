// The Overview tab: the overview chart over a table of its figures.
#include <QTableWidget>

#include "analysis/overview.h"
#include "panels/analysis_tab.h"
#include "panels/table_items.h"

namespace opscope::ui {

namespace {

double ms(TimeNs ns) { return static_cast<double>(ns) / 1e6; }

class OverviewTab : public AnalysisTab {
 public:
  explicit OverviewTab(const AnalysisKind& kind) : AnalysisTab(kind) {
    table_ = makeTable({QStringLiteral("Figure"), QStringLiteral("Value")}, {1});
    setBelow(table_);
  }

 protected:
  void fill() override {
    const Overview& o = analysisValue<Overview>(result());
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
      figures.insert(3, {QStringLiteral("%1 utilisation").arg(kind),
                         QStringLiteral("%1 %").arg(100 * o.gpuUtilisation, 0, 'f', 1)});
      figures.insert(3, {QStringLiteral("%1 idle").arg(kind), QStringLiteral("%1 ms").arg(ms(o.gpuIdle), 0, 'f', 3)});
      figures.insert(3, {QStringLiteral("%1 active (union of all streams)").arg(kind),
                         QStringLiteral("%1 ms").arg(ms(o.gpuActive), 0, 'f', 3)});
    }
    for (size_t p = 0; p < o.breakdown.size(); ++p)
      figures.append({QStringLiteral("Step time: %1").arg(QString::fromLatin1(stepPartName(static_cast<StepPart>(p)))),
                      QStringLiteral("%1 ms (%2 %)")
                          .arg(ms(o.breakdown[p]), 0, 'f', 3)
                          .arg(o.wall ? 100.0 * static_cast<double>(o.breakdown[p]) / static_cast<double>(o.wall) : 0,
                               0, 'f', 1)});
    for (const StreamActivity& s : o.streams)
      figures.append({QString::fromStdString(s.label), QStringLiteral("busy %1 ms (%2 %), %L3 events")
                                                           .arg(ms(s.busy), 0, 'f', 3)
                                                           .arg(100 * s.utilisation, 0, 'f', 1)
                                                           .arg(s.events)});
    table_->setRowCount(static_cast<int>(figures.size()));
    for (int i = 0; i < figures.size(); ++i)
      fillRow(table_, i, {textItem(figures[i].first), textItem(figures[i].second)});
    table_->resizeColumnToContents(0);
  }

 private:
  QTableWidget* table_ = nullptr;
};

}  // namespace

AnalysisTab* makeOverviewTab(const AnalysisKind& kind) { return new OverviewTab(kind); }

}  // namespace opscope::ui
