// The Compare dock: File > Compare with… on a B made from the sample by stretching one
// kernel and removing another; the chart, table, filter and exports say exactly that.
#include <gtest/gtest.h>

#include <qcustomplot.h>

#include <QApplication>
#include <QDockWidget>
#include <QTableWidget>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "charts/analysis_charts.h"
#include "charts/diff_chart.h"
#include "main_window.h"
#include "panels/diff_panel.h"
#include "test_support.h"
#include "timeline/time_view.h"
#include "timeline/timeline_widget.h"
#include "ui/ui_wait.h"

namespace opscope::ui {
namespace {

const std::string kSample = OPSCOPE_SOURCE_DIR "/resources/sample/sample.pt.trace.json.gz";

using test::waitUntil;

// The sample with every ampere_sgemm kernel 1.5× as long and its memset gone.
std::string writeChangedSample() {
  auto j = nlohmann::json::parse(test::gunzip(test::readFile(kSample)));
  nlohmann::json kept = nlohmann::json::array();
  for (auto& e : j["traceEvents"]) {
    if (e.value("cat", "") == "gpu_memset") continue;
    if (e.value("name", "").rfind("ampere_sgemm", 0) == 0 && e.contains("dur")) e["dur"] = e["dur"].get<double>() * 1.5;
    kept.push_back(e);
  }
  j["traceEvents"] = kept;
  const std::string path = test::tempPath("diff_b.json");
  std::ofstream(path) << j.dump();
  return path;
}

TEST(DiffPanel, CompareWithShowsTheStretchedAndTheRemovedKernels) {
  const std::string b = writeChangedSample();
  std::string error;
  auto doc = loadDocument(kSample, error);
  ASSERT_TRUE(doc) << error;
  MainWindow w{false};
  w.resize(1400, 900);
  w.show();
  w.setDocument(doc);
  w.compareWith(QString::fromStdString(b));
  ASSERT_TRUE(waitUntil([&] { return !w.diff()->busy() && w.diff()->result() && w.diff()->traceB(); }));
  EXPECT_TRUE(w.diffDock()->isVisible());
  QTableWidget* t = w.diff()->table();
  ASSERT_GT(t->rowCount(), 2);
  // Largest change first: the stretched GEMM, slower in B; then the memset only in A.
  EXPECT_EQ(t->item(0, 0)->data(Qt::UserRole).toString(), QStringLiteral("ampere_sgemm_128x64_tn"));
  EXPECT_GT(t->item(0, 6)->data(Qt::DisplayRole).toDouble(), 7.0);
  EXPECT_EQ(t->item(1, 0)->data(Qt::UserRole).toString(), QStringLiteral("Memset (Device)"));
  EXPECT_EQ(t->item(1, 7)->text(), QStringLiteral("only in A"));
  EXPECT_DOUBLE_EQ(t->item(2, 6)->data(Qt::DisplayRole).toDouble(), 0.0);  // nothing else changed
  // The chart holds the two changed rows, each with its tip.
  QCustomPlot* plot = w.diff()->plot();
  plot->replot();
  QCPBars* slower = nullptr;
  for (int i = 0; i < plot->plottableCount(); ++i)
    if (auto* bars = qobject_cast<QCPBars*>(plot->plottable(i)); bars && bars->name() == QStringLiteral("slower in B"))
      slower = bars;
  ASSERT_TRUE(slower);
  ASSERT_EQ(slower->dataCount(), 1);
  const double key = slower->data()->at(0)->key, value = slower->data()->at(0)->value;
  const QPoint bar(static_cast<int>(slower->valueAxis()->coordToPixel(value / 2)),
                   static_cast<int>(slower->keyAxis()->coordToPixel(key)));
  EXPECT_TRUE(chartTipAt(plot, bar).startsWith(QStringLiteral("ampere_sgemm_128x64_tn")))
      << chartTipAt(plot, bar).toStdString();
  // The filter keeps the matching rows only; CPU ops show their input shapes.
  w.diff()->setFilter(QStringLiteral("memset"));
  EXPECT_EQ(t->rowCount(), 1);
  w.diff()->setFilter(QString());
  w.diff()->setShowKernels(false);
  EXPECT_FALSE(t->isColumnHidden(1));
  EXPECT_EQ(t->rowCount(), static_cast<int>(w.diff()->result()->ops.size()));
  // The data exports as opscope diff's JSON contract.
  const std::string json = test::tempPath("diff_export.json");
  QString exportError;
  ASSERT_TRUE(w.diff()->exportChart(QString::fromStdString(json), &exportError)) << exportError.toStdString();
  const auto j = nlohmann::json::parse(test::readFile(json));
  EXPECT_EQ(j["kernels"][0]["name"], "ampere_sgemm_128x64_tn");
  EXPECT_EQ(j["kernels"][1]["count_b"], 0);

  // Two iterations of the open trace: the first against the last.
  w.compareWith(QString());
  ASSERT_TRUE(waitUntil([&] { return !w.diff()->busy() && w.diff()->result(); }));
  EXPECT_EQ(w.diff()->traceB(), doc.get());
  EXPECT_EQ(w.diff()->result()->iterationWallA.size(), 1u);
  EXPECT_EQ(w.diff()->result()->iterationWallB.size(), 1u);
  // Opening another trace clears the comparison.
  w.setDocument(doc);
  EXPECT_EQ(w.diff()->result(), nullptr);
  std::filesystem::remove(b);
  std::filesystem::remove(json);
}

}  // namespace
}  // namespace opscope::ui

namespace opscope::ui {
namespace {

TEST(DiffPanel, TheComparedTraceShowsUnderTheOpenOneAndFollowsItsZoom) {
  const std::string b = writeChangedSample();
  std::string error;
  auto doc = loadDocument(kSample, error);
  ASSERT_TRUE(doc) << error;
  MainWindow w{false};
  w.resize(1400, 900);
  w.show();
  w.setDocument(doc);
  EXPECT_FALSE(w.timelineB()->isVisible());
  w.compareWith(QString::fromStdString(b));
  ASSERT_TRUE(waitUntil([&] { return !w.diff()->busy() && w.diff()->result() && w.timelineB()->data(); }));
  EXPECT_TRUE(w.timelineB()->isVisible());
  // Whole traces line up at their starts: zooming A shows the same span of B.
  const TimeNs a0 = doc->trace->minTs, b0 = w.timelineB()->data()->trace->minTs;
  w.timeline()->showRange(a0 + 5'000'000, a0 + 6'000'000);
  EXPECT_EQ(w.timelineB()->view().start - b0, w.timeline()->view().start - a0);
  EXPECT_DOUBLE_EQ(w.timelineB()->view().nsPerPx, w.timeline()->view().nsPerPx);
  // And the other way round.
  w.timelineB()->showRange(b0 + 10'000'000, b0 + 12'000'000);
  EXPECT_EQ(w.timelineB()->view().start - b0, w.timeline()->view().start - a0);
  // Iteration 3 of A against iteration 5 of B: aligned at those iterations' starts.
  w.diff()->setIterations(3, 5);
  ASSERT_TRUE(waitUntil([&] { return !w.diff()->busy(); }));
  const TimeNs i3 = doc->trace->iterations.at(3).start, i5 = w.timelineB()->data()->trace->iterations.at(5).start;
  w.timeline()->showRange(i3, i3 + 2'000'000);
  EXPECT_EQ(w.timelineB()->view().start - i5, w.timeline()->view().start - i3);
  // One shared selection: what is selected in A is marked over B at the aligned time.
  const EventRef k = test::slicesNamed(*doc->trace, "ampere_sgemm_128x64_tn").at(20);
  w.timeline()->select(k, false);
  ASSERT_TRUE(w.timelineB()->linkedMark());
  EXPECT_EQ(w.timelineB()->linkedMark()->start - i5, doc->trace->start(k) - i3);
  EXPECT_EQ(w.timelineB()->linkedMark()->end - w.timelineB()->linkedMark()->start, doc->trace->dur(k));
  // Both timelines follow the theme.
  w.setDarkTheme(true);
  EXPECT_EQ(w.timelineB()->theme(), Theme::Dark);
  w.setDarkTheme(false);
  // Closing the Compare dock closes B's timeline.
  w.diffDock()->toggleViewAction()->trigger();
  EXPECT_FALSE(w.timelineB()->isVisible());
  std::filesystem::remove(b);
}

// Drift fixed: the chart's tips were formatted by the command line's reportDuration
// ("1.500 ms" whatever Preferences ▸ Time unit said).
TEST(DiffPanel, TheChartsDurationsFollowTheUsersTimeUnit) {
  const DiffRow row{"ampere_sgemm", "", 2, 3, 1'500'000, 2'000'000, DiffRow::Match::kName, {}, {}};
  QCustomPlot plot;
  setTimeUnit(TimeUnit::Us);
  plotDiff(&plot, {&row}, ChartTheme{}, QStringLiteral("diff"));
  setTimeUnit(TimeUnit::Auto);
  QString tips;
  for (int i = 0; i < plot.plottableCount(); ++i) tips += plot.plottable(i)->property("tips").toStringList().join('|');
  EXPECT_TRUE(tips.contains(QStringLiteral("A: 2 × 1500 µs · B: 3 × 2000 µs · +500 µs"))) << tips.toStdString();
}

}  // namespace
}  // namespace opscope::ui
