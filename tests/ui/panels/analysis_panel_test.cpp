// The Analysis dock on the offscreen platform: results for the whole trace and an
// iteration, tables filled, hover tips and click-to-mark, every export format.
#include <gtest/gtest.h>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include <qcustomplot.h>

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QSignalSpy>

#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QTest>
#include <QThread>
#include <QTreeWidget>
#include <cmath>
#include "perf/roofline.h"

#include "charts/analysis_charts.h"
#include "charts/chart_kinds.h"
#include "charts/chart_parts.h"
#include "charts/chart_theme.h"
#include "main_window.h"
#include "panels/adaptive_splitter.h"
#include "panels/analysis_panel.h"
#include "panels/critical_path_view.h"
#include "panels/op_kernels_view.h"
#include "panels/table_items.h"
#include "report/export_request.h"
#include "test_support.h"
#include "timeline/colors.h"
#include "timeline/timeline_renderer.h"
#include "timeline/timeline_widget.h"

namespace opscope::ui {
namespace {

const std::string kSample = OPSCOPE_SOURCE_DIR "/resources/sample/sample.pt.trace.json.gz";

bool waitForResults(AnalysisPanel* p) {
  QElapsedTimer t;
  t.start();
  while ((p->busy() || !p->results()) && t.elapsed() < 60000) {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);
  }
  return !p->busy() && p->results();
}

const std::string kMemoryView = OPSCOPE_SOURCE_DIR "/tests/data/tb_plugin/memory_view.json";

struct Fixture {
  MainWindow w{false};
  std::shared_ptr<const TraceDocument> doc;
  explicit Fixture(const std::string& path = kSample) {
    std::string error;
    doc = loadDocument(path, error);
    EXPECT_TRUE(doc) << error;
    w.resize(1600, 1000);
    w.show();
    w.setDocument(doc);
    w.analysisDock()->show();
    w.analysisDock()->raise();
  }
  AnalysisPanel* panel() { return w.analysis(); }
};

TEST(AnalysisPanel, ComputesEveryAnalysisAndFillsEveryTable) {
  Fixture f;
  ASSERT_TRUE(f.doc);
  ASSERT_TRUE(waitForResults(f.panel()));
  const AnalysisResults& r = *f.panel()->results();
  EXPECT_FALSE(r.request.window);
  // One result per kind of the catalog.
  EXPECT_EQ(r.byKind.size(), analysisCatalog().size());
  EXPECT_GT(r.value<Overview>("overview").gpuActive, 0);
  EXPECT_FALSE(r.value<DeviceBreakdown>("breakdown").roots.empty());
  EXPECT_FALSE(r.value<OpKernelMixes>("op-kernels").ops.empty());
  EXPECT_FALSE(r.value<KernelStats>("kernel-stats").kernels.empty());
  EXPECT_GT(r.value<OverheadsWithCosts>("overheads").overheads.topLevelOps, 0u);
  EXPECT_FALSE(r.value<StreamUsageReport>("streams").streams.empty());
  // A tab fills its tables when shown: visit each as a user would.
  for (const AnalysisKind* k : analysisCatalog()) {
    f.panel()->showChart(k->name);
    QApplication::processEvents();
  }
  f.panel()->showCriticalPath();
  QApplication::processEvents();
  for (QTableWidget* t : f.panel()->findChildren<QTableWidget*>()) {
    // The sample was recorded without profile_memory: no allocations or ops to list.
    if (t == f.panel()->memoryTable() || t == f.panel()->memoryOpTable()) {
      EXPECT_TRUE(r.value<MemoryTimeline>("memory").devices.empty());
      EXPECT_EQ(t->rowCount(), 0);
      continue;
    }
    // A kind's own CSV table holds its CSV's rows (the sample has no gpu_user_annotation
    // spans, so the Annotations table is rightly empty); the other tables are never empty.
    if (t->objectName().endsWith(QStringLiteral("-table"))) {
      const std::string name = t->objectName().chopped(6).toStdString();
      const AnalysisKind& kind = analysisNamed(name);
      const std::string csv = kind.csv(*r.of(name), *f.doc->trace, r.request);
      EXPECT_EQ(t->rowCount(), static_cast<int>(std::count(csv.begin(), csv.end(), '\n')) - 1) << name;
      continue;
    }
    EXPECT_GT(t->rowCount(), 0) << t->horizontalHeaderItem(0)->text().toStdString();
  }
  auto* tree = f.panel()->findChild<QTreeWidget*>(QStringLiteral("breakdownTree"));
  ASSERT_TRUE(tree);
  EXPECT_EQ(tree->topLevelItemCount(), static_cast<int>(r.value<DeviceBreakdown>("breakdown").roots.size()));
  // Every chart drew something (ranks: one rank is a message, ChartsKeepAReadableMinimumHeight).
  for (const char* c : {"overview", "breakdown", "op-kernels", "kernel-stats", "overheads", "streams"})
    EXPECT_GT(f.panel()->plot(c)->plottableCount(), 0) << c;
}

TEST(AnalysisPanel, KernelsOfOneOpByInputShapeMatchTheCore) {
  Fixture f;
  ASSERT_TRUE(waitForResults(f.panel()));
  f.panel()->showChart("op-kernels");  // a tab fills when shown
  OpKernelsView* view = f.panel()->opKernels();
  ASSERT_TRUE(view);
  auto waitTable = [view] {
    QElapsedTimer t;
    t.start();
    while ((view->busy() || !view->table()) && t.elapsed() < 60000) {
      QApplication::processEvents(QEventLoop::AllEvents, 20);
      QThread::msleep(2);
    }
    return !view->busy() && view->table();
  };
  // Offered by default: the op with the most device time.
  ASSERT_TRUE(waitTable());
  EXPECT_FALSE(view->table()->groups.empty());

  view->setOp(QStringLiteral("aten::layer_norm"), true);
  ASSERT_TRUE(waitTable());
  const OpKernelTable expected = opKernelTable(*f.doc->trace, KernelClassifier::builtin(), "aten::layer_norm", true);
  ASSERT_GT(expected.groups.size(), 0u);
  ASSERT_EQ(view->tree()->topLevelItemCount(), static_cast<int>(expected.groups.size()));
  uint64_t calls = 0;
  int kernels = 0;
  for (int i = 0; i < view->tree()->topLevelItemCount(); ++i) {
    QTreeWidgetItem* g = view->tree()->topLevelItem(i);
    EXPECT_TRUE(g->text(0).startsWith(QLatin1Char('['))) << g->text(0).toStdString();  // shapes as JSON
    calls += static_cast<uint64_t>(g->data(1, Qt::UserRole).toDouble());
    kernels += g->childCount();
  }
  uint64_t expectedCalls = 0;
  size_t expectedKernels = 0;
  for (const OpShapeGroup& g : expected.groups) {
    expectedCalls += g.calls;
    expectedKernels += g.kernels.size();
  }
  EXPECT_EQ(calls, expectedCalls);
  EXPECT_EQ(static_cast<size_t>(kernels), expectedKernels);

  // Ungrouped: one group holding every call.
  view->setOp(QStringLiteral("aten::layer_norm"), false);
  ASSERT_TRUE(waitTable());
  ASSERT_EQ(view->tree()->topLevelItemCount(), 1);
  EXPECT_EQ(static_cast<uint64_t>(view->tree()->topLevelItem(0)->data(1, Qt::UserRole).toDouble()), expectedCalls);

  // Activating a kernel searches it.
  QSignalSpy spy(f.panel(), &AnalysisPanel::nameActivated);
  QTreeWidgetItem* kernel = view->tree()->topLevelItem(0)->child(0);
  ASSERT_TRUE(kernel);
  emit view->tree()->itemActivated(kernel, 0);
  ASSERT_EQ(spy.count(), 1);
  // The row shows the short name; the search gets the full one (the tooltip).
  const QString searched = spy.at(0).at(0).toString();
  EXPECT_EQ(searched, kernel->toolTip(0));
  bool known = false;
  for (const OpShapeGroup& g : expected.groups)
    for (const OpKernelRow& k : g.kernels) known = known || searched.toStdString() == f.doc->trace->str(k.kernel);
  EXPECT_TRUE(known) << searched.toStdString();
  EXPECT_LE(kernel->text(0).size(), searched.size());

  view->setOp(QStringLiteral("no::such_op"), true);
  ASSERT_TRUE(waitTable());
  EXPECT_EQ(view->tree()->topLevelItemCount(), 0);
}

TEST(AnalysisPanel, BreakdownChartFollowsTheTreeSelection) {
  Fixture f;
  ASSERT_TRUE(waitForResults(f.panel()));
  f.panel()->showChart("breakdown");  // a tab fills when shown
  const DeviceBreakdown& b = f.panel()->results()->value<DeviceBreakdown>("breakdown");
  auto* tree = f.panel()->findChild<QTreeWidget*>(QStringLiteral("breakdownTree"));
  ASSERT_TRUE(tree);
  // The first op row under the first stream that has sub-levels of its own.
  QTreeWidgetItem* pick = nullptr;
  for (int i = 0; i < tree->topLevelItemCount() && !pick; ++i)
    for (int c = 0; c < tree->topLevelItem(i)->childCount() && !pick; ++c)
      if (tree->topLevelItem(i)->child(c)->childCount() > 0) pick = tree->topLevelItem(i)->child(c);
  ASSERT_TRUE(pick);
  const BreakdownNode& node = b.nodes[pick->data(0, Qt::UserRole).toUInt()];
  size_t expected = 0;  // children, looking through merged ProfilerStep levels
  for (uint32_t c : node.children) expected += b.nodes[c].allSteps ? b.nodes[c].children.size() : 1;
  tree->setCurrentItem(pick);
  QCustomPlot* plot = f.panel()->plot("breakdown");
  EXPECT_EQ(plot->plottableCount(), static_cast<int>(std::min<size_t>(expected, 15)));
  auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
  ASSERT_TRUE(title);
  // The title as set (what is drawn is cut at the end when the chart is narrow).
  const QString full = title->property("fullText").toString();
  EXPECT_TRUE(full.contains(QStringLiteral("inside"))) << full.toStdString();
  EXPECT_TRUE(full.startsWith(title->text().chopped(1))) << title->text().toStdString();
  // A stream row shows that stream's first level only.
  tree->setCurrentItem(tree->topLevelItem(0));
  EXPECT_GT(plot->plottableCount(), 0);
}

TEST(AnalysisPanel, ChartsKeepAReadableMinimumHeight) {
  Fixture f;
  ASSERT_TRUE(waitForResults(f.panel()));
  for (const char* c : {"overview", "breakdown", "op-kernels", "kernel-stats", "overheads", "streams"}) {
    QCustomPlot* p = f.panel()->plot(c);
    EXPECT_GE(chartMinimumHeight(p), 200) << c;
    EXPECT_GE(p->minimumHeight(), chartMinimumHeight(p)) << c;
  }
  // The sample is one rank: its ranks chart is a message saying why, not a one-row heatmap.
  QCustomPlot* ranks = f.panel()->plot("ranks");
  EXPECT_EQ(ranks->axisRectCount(), 0);
  auto* note = qobject_cast<QCPTextElement*>(ranks->plotLayout()->element(0, 0));
  ASSERT_TRUE(note);
  EXPECT_TRUE(note->property("fullText").toString().contains(QStringLiteral("One rank"))) << note->text().toStdString();
}

TEST(AnalysisPanel, IterationScopeUsesItsWindow) {
  Fixture f;
  ASSERT_TRUE(waitForResults(f.panel()));
  const TimeNs whole = f.panel()->results()->value<Overview>("overview").wall;
  f.panel()->setScope(2);
  ASSERT_TRUE(waitForResults(f.panel()));
  const AnalysisResults& r = *f.panel()->results();
  ASSERT_TRUE(r.request.window);
  EXPECT_EQ(r.request.window->start, f.doc->trace->iterations[2].start);
  EXPECT_LT(r.value<Overview>("overview").wall, whole);
  EXPECT_EQ(r.value<Overview>("overview").iterations, 1u);
}

TEST(AnalysisPanel, CriticalPathTabListsTheSegmentsAndMarksThePath) {
  Fixture f;
  ASSERT_TRUE(f.doc);
  f.panel()->setScope(1);
  ASSERT_TRUE(waitForResults(f.panel()));
  const auto& path = f.panel()->results()->criticalPath;
  ASSERT_TRUE(path && path->ok());
  // The same path the command line computes for that iteration.
  const CriticalPath cli = computeCriticalPath(*f.doc->trace, *criticalPathWindowOfIteration(*f.doc->trace, 1));
  EXPECT_EQ(path->events, cli.events);
  EXPECT_EQ(path->length(), cli.length());
  CriticalPathView* view = f.panel()->criticalPath();
  EXPECT_EQ(view->segmentTable()->rowCount(), static_cast<int>(path->segments.size()));
  EXPECT_GT(view->categoryTable()->rowCount(), 0);
  // Double-clicking a segment of an op selects that op on the timeline.
  int row = -1;
  for (int r = 0; r < view->segmentTable()->rowCount() && row < 0; ++r)
    if (path->segments[static_cast<size_t>(view->segmentTable()->item(r, 0)->data(Qt::UserRole).toInt())].event !=
        kNoRef)
      row = r;
  ASSERT_GE(row, 0);
  const CriticalPathSegment& s =
      path->segments[static_cast<size_t>(view->segmentTable()->item(row, 0)->data(Qt::UserRole).toInt())];
  emit view->segmentTable()->cellDoubleClicked(row, 0);
  ASSERT_TRUE(f.w.timeline()->selected());
  EXPECT_EQ(f.w.timeline()->selected()->packed(), s.event);
  // Marking: every event of the path, and its edges between tracks.
  QSignalSpy marked(f.panel(), &AnalysisPanel::pathMarked);
  QSignalSpy events(f.panel(), &AnalysisPanel::eventsActivated);
  view->mark();
  ASSERT_EQ(marked.count(), 1);
  ASSERT_EQ(events.count(), 1);
  EXPECT_EQ(events.at(0).at(1).value<std::vector<EventRef>>().size(), path->events.size());
  EXPECT_FALSE(view->arrows().empty());
  for (const PathArrow& a : view->arrows()) EXPECT_NE(a.from.track, a.to.track);
}

TEST(AnalysisPanel, ClickingAnOpKernelSegmentMarksItsKernels) {
  Fixture f;
  ASSERT_TRUE(waitForResults(f.panel()));
  const OpKernelMixes& m = f.panel()->results()->value<OpKernelMixes>("op-kernels");
  ASSERT_FALSE(m.ops.empty());
  const MixSegment& seg = m.ops[0].variants[0].segments[0];
  const std::vector<EventRef> events = mixSegmentEvents(m, 0, seg.cls);
  ASSERT_GE(events.size(), seg.count);
  f.w.markEvents(QStringLiteral("test"), events);
  ASSERT_TRUE(f.w.timeline()->selected());
  EXPECT_EQ(f.w.searchMatchCount(), events.size());
  EXPECT_TRUE(f.w.searchStatus().contains(QStringLiteral("test")));
  // Hover texts exist for the bars.
  QCustomPlot* plot = f.panel()->plot("op-kernels");
  bool tipped = false;
  for (int i = 0; i < plot->plottableCount(); ++i)
    for (const QString& t : plot->plottable(i)->property("tips").toStringList()) {
      tipped = tipped || !t.isEmpty();
    }
  EXPECT_TRUE(tipped);
}

TEST(AnalysisPanel, ExportsEveryChartAsPdfPngSvgCsvAndJson) {
  Fixture f;
  ASSERT_TRUE(waitForResults(f.panel()));
  QApplication::processEvents();
  const std::string dir = test::tempPath("analysis_exports");
  ASSERT_EQ(std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str()), 0);
  for (const char* c : {"overview", "breakdown", "op-kernels", "kernel-stats", "overheads", "streams", "ranks"}) {
    for (const char* suffix : {"pdf", "png", "svg", "csv", "json"}) {
      const QString path = QString::fromStdString(dir) + "/" + c + "." + suffix;
      QString error;
      ASSERT_TRUE(f.panel()->exportChart(c, path, &error)) << error.toStdString();
      QFile file(path);
      ASSERT_TRUE(file.open(QIODevice::ReadOnly));
      const QByteArray head = file.read(8);
      EXPECT_GT(file.size(), 200) << path.toStdString();
      if (QLatin1String(suffix) == QLatin1String("pdf")) {
        EXPECT_TRUE(head.startsWith("%PDF-"));
      }
      if (QLatin1String(suffix) == QLatin1String("svg")) {
        EXPECT_TRUE(head.startsWith("<?xml"));
      }
      if (QLatin1String(suffix) == QLatin1String("png")) {
        const QImage image(path);
        ASSERT_FALSE(image.isNull());
        EXPECT_GE(image.width(), 900);
        // Not blank: more than the background colour.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7) {
          for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
        }
        EXPECT_GT(colours.size(), 5) << path.toStdString();
      }
    }
  }
  QString error;
  EXPECT_FALSE(f.panel()->exportChart("overview", QString::fromStdString(dir) + "/x.bmp", &error));
  EXPECT_FALSE(error.isEmpty());
  EXPECT_FALSE(f.panel()->exportChart("overview", QStringLiteral("/nonexistent-dir/x.pdf"), &error));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace opscope::ui

namespace opscope::ui {
namespace {

// Of 256 ranks every 8th is labelled, and the straggler (rank 77) with its excess; the
// labels of ranks 72 and 80 would be written over its label, so they are left out.
TEST(RankCharts, AStragglersLabelIsNotWrittenOverItsNeighbours) {
  RankTable t;
  for (int r = 0; r < 256; ++r) {
    RankRow row;
    row.rank = r;
    row.iterationWall = {r == 77 ? 125000 : 100000};
    t.rows.push_back(row);
  }
  t.maxIterations = 1;
  t.collectivesMeasured = false;
  t.stragglers = {Straggler{77, 125, 25.0}};
  QCustomPlot plot;
  plot.resize(900, 700);
  plotRanks(&plot, t, ChartTheme{}, QStringLiteral("ranks"));
  QCPColorMap* iterations = nullptr;
  for (int i = 0; i < plot.plottableCount(); ++i)
    if (auto* m = qobject_cast<QCPColorMap*>(plot.plottable(i)))
      if (m->keyAxis()->label().contains(QStringLiteral("iteration"))) iterations = m;
  ASSERT_NE(iterations, nullptr);
  auto* ticker = dynamic_cast<QCPAxisTickerText*>(iterations->valueAxis()->ticker().data());
  ASSERT_NE(ticker, nullptr);
  const QMap<double, QString> ticks = ticker->ticks();
  EXPECT_EQ(ticks.value(77), QStringLiteral("rank 77 · +25.0 %"));
  EXPECT_FALSE(ticks.contains(72));
  EXPECT_FALSE(ticks.contains(80));
  EXPECT_EQ(ticks.value(64), QStringLiteral("rank 64"));
  EXPECT_EQ(ticks.value(88), QStringLiteral("rank 88"));
  EXPECT_EQ(ticks.size(), 32 - 2 + 1);
}

// The Ranks chart's two heatmaps: ranks × iterations (its axis says "iteration") and
// ranks × kernels.
void findRankHeatmaps(QCustomPlot& plot, QCPColorMap*& iterations, QCPColorMap*& kernels) {
  for (int i = 0; i < plot.plottableCount(); ++i)
    if (auto* m = qobject_cast<QCPColorMap*>(plot.plottable(i)))
      (m->keyAxis()->label().contains(QStringLiteral("iteration")) ? iterations : kernels) = m;
}

// More ranks than the heatmap has pixel rows: runs of ranks, each drawn as its slowest
// (its furthest from the median for kernels). Drawn a rank a cell, QCPColorMap's unsmoothed
// scaling showed one rank in ~11 here and none of the straggler's neighbours: the
// straggler's row was left out whenever it fell between two shown ones.
// atPixel: also through the pixel at the straggler's height (a pixel row is ~11 ranks, so
// only for a rank away from its run's edges).
void checkGroupedStraggler(int kSlow, bool atPixel) {
  SCOPED_TRACE("straggler: rank " + std::to_string(kSlow));
  constexpr int kRanks = 5000;
  RankTable t;
  t.kernelNames = {"ampere_sgemm_128x64_tn"};
  for (int r = 0; r < kRanks; ++r) {
    RankRow row;
    row.rank = r;
    row.iterationWall = {100000 + (r % 7) * 100, r == kSlow ? 140000 : 100000};
    row.kernelTime = {r == kSlow ? 30000 : 20000};
    t.rows.push_back(row);
  }
  t.maxIterations = 2;
  t.collectivesMeasured = false;
  t.stragglers = {Straggler{kSlow, 120, 20.0}};
  QCustomPlot plot;
  plot.resize(900, 1300);
  plot.setViewport(QRect(0, 0, 900, 1300));  // laid out at that size without being shown
  plotRanks(&plot, t, ChartTheme{}, QStringLiteral("ranks"));
  plot.replot();
  QCPColorMap* kernels = nullptr;
  QCPColorMap* iterations = nullptr;
  findRankHeatmaps(plot, iterations, kernels);
  ASSERT_NE(iterations, nullptr);
  ASSERT_NE(kernels, nullptr);
  // At most one heatmap row a pixel row of the rect.
  const int rows = iterations->data()->valueSize();
  EXPECT_LT(rows, kRanks);
  EXPECT_LE(rows, iterations->valueAxis()->axisRect()->height());
  // The straggler's row, found where its rank is on the (row-counting) rank axis: the
  // cell there holds its time, and its tip names it.
  const auto tipOf = [](const QCPColorMap* map, int key, int value) {
    return map->property("tips").toStringList().value(value * map->data()->keySize() + key);
  };
  int key = -1, value = -1;
  iterations->data()->coordToCell(1, kSlow, &key, &value);
  EXPECT_NEAR(iterations->data()->cell(key, value), 0.14, 1e-9);  // 140 µs in ms
  const QString tip = tipOf(iterations, key, value);
  EXPECT_TRUE(tip.contains(QStringLiteral("slowest: rank %1, wall time").arg(kSlow))) << tip.toStdString();
  EXPECT_TRUE(tip.startsWith(QStringLiteral("ranks "))) << tip.toStdString();
  if (atPixel) {
    const QImage image = plot.toPixmap(900, 1300).toImage();
    const QPoint at(static_cast<int>(iterations->keyAxis()->coordToPixel(1)),
                    static_cast<int>(iterations->valueAxis()->coordToPixel(kSlow)));
    EXPECT_EQ(image.pixelColor(at), QColor(iterations->gradient().color(0.14, iterations->dataRange())))
        << image.pixelColor(at).name().toStdString();
    EXPECT_EQ(chartTipAt(&plot, at), tip);
  }
  // Every other row of iteration 1 is 100 µs; of iteration 0, its run's slowest (r % 7 == 6).
  int hot = 0;
  for (int v = 0; v < rows; ++v) {
    hot += iterations->data()->cell(1, v) > 0.1 + 1e-9;
    EXPECT_NEAR(iterations->data()->cell(0, v), 0.1006, 1e-9) << "row " << v;
  }
  EXPECT_EQ(hot, 1);
  // The kernel heatmap: the straggler's +50 % in its row, named in the tip.
  kernels->data()->coordToCell(0, kSlow, &key, &value);
  EXPECT_NEAR(kernels->data()->cell(key, value), 50.0, 1e-9);
  const QString kernelTip = tipOf(kernels, key, value);
  EXPECT_TRUE(kernelTip.contains(QStringLiteral("furthest from the median: rank %1").arg(kSlow)))
      << kernelTip.toStdString();
  if (atPixel) {
    EXPECT_EQ(chartTipAt(&plot, QPoint(static_cast<int>(kernels->keyAxis()->coordToPixel(0)),
                                       static_cast<int>(kernels->valueAxis()->coordToPixel(kSlow)))),
              kernelTip);
  }
}

// 5000 ranks in 448 rows of 11-12 ranks: the straggler first (3772), in the middle (3777)
// and last (3782) of its run, and 3783, first of the next (the last of its run when runs
// were cut by their top edge: drawn a row above its label, its tip the next run's).
TEST(RankCharts, ManyMoreRanksThanPixelRowsShowEachRunsSlowestAndTheStragglerIsNeverLeftOut) {
  for (int slow : {3772, 3777, 3782, 3783}) checkGroupedStraggler(slow, slow == 3777);
}

// The kernel panel of the Ranks chart: each rank against the median rank of a kernel,
// unknown cells left empty, tips naming the rank, the kernel and the excess.
TEST(RankCharts, KernelTimePerRankIsComparedWithTheMedianRankAndTipsNameIt) {
  RankTable t;
  t.kernelNames = {"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>(Params)",
                   "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)"};
  for (int r = 0; r < 3; ++r) {
    RankRow row;
    row.rank = r;
    row.iterationWall = {100000};
    row.kernelTime = {r == 2 ? 150000 : 100000, r == 1 ? -1 : 40000};  // rank 2's GEMMs take 1.5×
    t.rows.push_back(row);
  }
  t.maxIterations = 1;
  t.collectivesMeasured = false;
  QCustomPlot plot;
  plot.resize(900, 700);
  plotRanks(&plot, t, ChartTheme{}, QStringLiteral("ranks"));
  plot.replot();
  QCPColorMap* kernels = nullptr;
  QCPColorMap* iterations = nullptr;
  findRankHeatmaps(plot, iterations, kernels);
  ASSERT_NE(kernels, nullptr);
  ASSERT_NE(iterations, nullptr);
  // One iteration a rank is drawn (QCPColorMap draws nothing for a one-cell dimension):
  // the cell's centre is painted in the scale's colour, not left as the background.
  const QImage image = plot.toPixmap(900, 700).toImage();
  const QPoint one(static_cast<int>(iterations->keyAxis()->coordToPixel(0)),
                   static_cast<int>(iterations->valueAxis()->coordToPixel(1)));
  const QColor drawn = image.pixelColor(one);
  EXPECT_NE(drawn, iterations->keyAxis()->axisRect()->backgroundBrush().color()) << drawn.name().toStdString();
  EXPECT_EQ(iterations->data()->cell(0, 1), iterations->data()->cell(1, 1));
  EXPECT_NEAR(iterations->data()->cell(0, 1), 0.1, 1e-9);  // 100 µs in ms
  EXPECT_NEAR(kernels->data()->cell(0, 2), 50.0, 1e-9);    // 150 against the median 100
  EXPECT_NEAR(kernels->data()->cell(0, 0), 0.0, 1e-9);
  EXPECT_TRUE(std::isnan(kernels->data()->cell(1, 1)));  // not in rank 1's list
  // The GEMM column is labelled by its template argument, not "void" or "Kernel".
  auto* ticker = dynamic_cast<QCPAxisTickerText*>(kernels->keyAxis()->ticker().data());
  ASSERT_NE(ticker, nullptr);
  EXPECT_TRUE(ticker->ticks().value(0).startsWith(QStringLiteral("Kernel<cutlass_80_tensorop_s1")))
      << ticker->ticks().value(0).toStdString();
  EXPECT_TRUE(ticker->ticks().value(1).startsWith(QStringLiteral("ncclDevKernel_AllReduce")))
      << ticker->ticks().value(1).toStdString();
  const QPoint cell(static_cast<int>(kernels->keyAxis()->coordToPixel(0)),
                    static_cast<int>(kernels->valueAxis()->coordToPixel(2)));
  const QString tip = chartTipAt(&plot, cell);
  EXPECT_TRUE(tip.startsWith(QStringLiteral("rank 2 · void cutlass::Kernel"))) << tip.toStdString();
  EXPECT_TRUE(tip.contains(QStringLiteral("+50.0 %"))) << tip.toStdString();
  const QPoint unknown(static_cast<int>(kernels->keyAxis()->coordToPixel(1)),
                       static_cast<int>(kernels->valueAxis()->coordToPixel(1)));
  EXPECT_TRUE(chartTipAt(&plot, unknown).contains(QStringLiteral("not among this rank's top kernels")));
  // The one iteration's cells (drawn as two) tip their own rank, not the next row's.
  const QPoint iteration(static_cast<int>(iterations->keyAxis()->coordToPixel(0.1)),
                         static_cast<int>(iterations->valueAxis()->coordToPixel(1)));
  const QString iterationTip = chartTipAt(&plot, iteration);
  EXPECT_TRUE(iterationTip.startsWith(QStringLiteral("rank 1, iteration 0"))) << iterationTip.toStdString();
}

}  // namespace
}  // namespace opscope::ui

namespace opscope::ui {
namespace {

// The Memory tab on TensorBoard's memory-view fixture (tests/data/tb_plugin): the curve
// per device, the allocations live at the first device's peak, and a click on the curve
// listing those live at another time.
TEST(AnalysisPanel, MemoryTabListsTheAllocationsLiveAtTheClickedTime) {
  Fixture f(kMemoryView);
  ASSERT_TRUE(f.doc);
  MainWindow& w = f.w;
  const auto& doc = f.doc;
  w.analysis()->showChart("memory");
  ASSERT_TRUE(waitForResults(w.analysis()));
  const MemoryTimeline& m = w.analysis()->results()->value<MemoryTimeline>("memory");
  ASSERT_EQ(m.devices.size(), 2u);
  const DeviceMemory& gpu = m.devices[0];
  QTableWidget* table = w.analysis()->memoryTable();
  EXPECT_EQ(table->rowCount(), static_cast<int>(liveAllocations(gpu, gpu.peakTs).size()));
  EXPECT_GT(table->rowCount(), 0);
  // The timeline gained the counter tracks.
  int memoryCounters = 0;
  for (const CounterSeries& c : doc->trace->counters)
    memoryCounters += doc->trace->str(c.name).rfind("Memory ", 0) == 0;
  EXPECT_EQ(memoryCounters, 2);  // allocated for GPU 0 and for the CPU (no totals recorded: no reserved)
  // Before the first allocation nothing is live.
  w.analysis()->showLiveMemory(0, doc->trace->minTs);
  EXPECT_EQ(table->rowCount(), 0);
  // A click on the GPU curve at the peak's time lists the peak's allocations again.
  QCustomPlot* plot = w.analysis()->plot("memory");
  plot->replot();
  QCPAxisRect* rect = nullptr;
  for (QCPAxisRect* r : plot->axisRects())
    if (r->property("device").toInt() == 0 && r->property("device").isValid()) rect = r;
  ASSERT_TRUE(rect);
  const double x =
      rect->axis(QCPAxis::atBottom)->coordToPixel(static_cast<double>(gpu.peakTs - doc->trace->minTs) / 1e6);
  QTest::mouseClick(plot, Qt::LeftButton, Qt::NoModifier,
                    QPoint(static_cast<int>(std::lround(x)) + 1, rect->center().y()));
  EXPECT_EQ(table->rowCount(), static_cast<int>(liveAllocations(gpu, gpu.peakTs).size()));

  // By op: one row per op of the device, the figures of memoryTimeline's byOp, most
  // allocated first (aten::to makes the GPU copies of this trace).
  QTableWidget* ops = w.analysis()->memoryOpTable();
  ASSERT_EQ(ops->rowCount(), static_cast<int>(gpu.byOp.size()));
  ASSERT_GT(ops->rowCount(), 1);
  double previous = 1e300;
  for (int row = 0; row < ops->rowCount(); ++row) {
    const std::string name = ops->item(row, 0)->data(Qt::UserRole).toString().toStdString();
    ASSERT_TRUE(gpu.byOp.count(name)) << name;
    const OpMemory& o = gpu.byOp.at(name);
    EXPECT_EQ(ops->item(row, 1)->data(Qt::DisplayRole).toDouble(), static_cast<double>(o.allocs)) << name;
    EXPECT_NEAR(ops->item(row, 2)->data(Qt::DisplayRole).toDouble(),
                static_cast<double>(o.allocBytes) / (1024.0 * 1024.0), 1e-3)
        << name;
    EXPECT_NEAR(ops->item(row, 6)->data(Qt::DisplayRole).toDouble(),
                static_cast<double>(o.selfIncrease) / (1024.0 * 1024.0), 1e-3)
        << name;
    EXPECT_LE(static_cast<double>(o.allocBytes), previous) << name;
    previous = static_cast<double>(o.allocBytes);
  }
  // The host's ops once a click picks the CPU's curve.
  w.analysis()->showLiveMemory(1, m.devices[1].peakTs);
  EXPECT_EQ(ops->rowCount(), static_cast<int>(m.devices[1].byOp.size()));
  // Activating an op row searches it in the timeline.
  QSignalSpy searched(w.analysis(), &AnalysisPanel::nameActivated);
  emit ops->itemActivated(ops->item(0, 2));
  ASSERT_EQ(searched.count(), 1);
  EXPECT_EQ(searched.at(0).at(0).toString(), ops->item(0, 0)->data(Qt::UserRole).toString());
}

// The timeline's memory counter tracks mark their peak: a red notch and dashed line at
// the peak's time, nowhere else on the track.
TEST(AnalysisPanel, TheTimelineMarksTheMemoryPeak) {
  Fixture f(kMemoryView);
  ASSERT_TRUE(f.doc);
  const auto& doc = f.doc;
  TimelineWidget* tl = f.w.timeline();
  tl->fitAll();
  const Trace& t = *doc->trace;
  // The GPU's allocated series and its layout entry.
  std::optional<uint32_t> counter;
  for (uint32_t i = 0; i < t.counters.size(); ++i)
    if (t.str(t.counters[i].name) == "Memory allocated · GPU 0 (MiB)") counter = i;
  ASSERT_TRUE(counter);
  const CounterSeries& c = t.counters[*counter];
  const auto peak = std::max_element(c.value.begin(), c.value.end());
  const TimeNs peakTs = c.ts[static_cast<size_t>(peak - c.value.begin())];
  const LayoutEntry* entry = nullptr;
  for (const LayoutEntry& e : tl->layout().entries)
    if (e.kind == LayoutEntry::Kind::Counter && e.index == *counter) entry = &e;
  ASSERT_TRUE(entry);
  tl->setScrollY(std::max(0, entry->y - 20));
  const QImage img = tl->grab().toImage();
  const TimelineGeometry g = tl->geometryNow();
  const int y = g.events.top() + entry->y - tl->scrollY() + 2;  // inside the notch
  const int x = static_cast<int>(std::lround(g.events.left() + tl->view().toPx(peakTs)));
  const Rgb arrow = paletteFor(tl->theme()).arrow;
  const QColor mark(arrow.r, arrow.g, arrow.b);
  const auto isMark = [&](int px, int py) {
    const QColor p = img.pixelColor(px, py);
    return std::abs(p.red() - mark.red()) < 30 && std::abs(p.green() - mark.green()) < 30 &&
           std::abs(p.blue() - mark.blue()) < 30;
  };
  bool notch = false;
  for (int dx = -2; dx <= 2; ++dx) notch = notch || isMark(x + dx, y);
  EXPECT_TRUE(notch) << "no peak marker at x " << x;
  // Left of the peak (its label goes right when there is room) the track has no mark.
  int elsewhere = 0;
  for (int px = g.events.left(); px < x - 8; ++px)
    for (int py = y; py < y + entry->height - 4; ++py) elsewhere += isMark(px, py);
  EXPECT_EQ(elsewhere, 0);
}

// Drift fixed: the window's Overview ignored the user's kernel classes (the command
// line's `export --chart overview` used them), so a collective kernel the user's rules
// call "nccl" was compute in the window and communication on the command line.
TEST(AnalysisPanel, TheOverviewUsesTheUsersKernelClassesAsTheCommandLineDoes) {
  const std::string path = test::tempPath("custom_collective.json");
  std::ofstream(path) << R"([
    {"ph":"X","cat":"cpu_op","name":"step","pid":1,"tid":1,"ts":0,"dur":100},
    {"ph":"X","cat":"kernel","name":"my_allreduce_kernel","pid":0,"tid":7,"ts":10,"dur":40,"args":{"stream":7}},
    {"ph":"X","cat":"kernel","name":"sgemm_a","pid":0,"tid":7,"ts":60,"dur":20,"args":{"stream":7}}])";
  std::string error;
  auto doc = loadDocument(path, error);
  ASSERT_TRUE(doc) << error;
  auto rules = KernelClassifier::fromJson(R"({"rules":[{"class":"nccl","pattern":"my_allreduce"}]})", error);
  ASSERT_TRUE(rules) << error;
  KernelClassifier all = KernelClassifier::builtin();
  all.prepend(*rules);
  auto classifier = std::make_shared<const KernelClassifier>(all);
  AnalysisPanel panel;
  panel.show();  // a hidden panel computes nothing
  panel.setKernelClassifier(classifier);
  panel.setDocument(doc);
  ASSERT_TRUE(waitForResults(&panel));
  const Overview& o = panel.results()->value<Overview>("overview");
  EXPECT_EQ(o.breakdown[static_cast<size_t>(StepPart::Communication)], 40'000);
  // The same figure as the command line's data export with the same rules.
  ExportRequest request;
  request.chart = &analysisNamed("overview");
  request.file = path;
  const auto exported = nlohmann::json::parse(exportDataText(*doc->trace, request, all));
  const std::string window = panel.tab("overview")->dataText(true);
  EXPECT_EQ(nlohmann::json::parse(window), exported);
  std::remove(path.c_str());
}

// Every kind of the catalog has its tab, in catalog order, and a drawing.
TEST(AnalysisPanel, EveryKindOfTheCatalogHasItsTabAndItsChart) {
  AnalysisPanel panel;
  auto* tabs = panel.findChild<QTabWidget*>();
  ASSERT_TRUE(tabs);
  const auto& kinds = analysisCatalog();
  ASSERT_EQ(tabs->count(), static_cast<int>(kinds.size()) + 1);  // + the critical path
  for (size_t i = 0; i < kinds.size(); ++i) {
    EXPECT_EQ(tabs->tabText(static_cast<int>(i)).toStdString(), std::string(kinds[i]->tab));
    EXPECT_TRUE(chartDrawing(kinds[i]->name)) << kinds[i]->name;
    EXPECT_TRUE(panel.plot(kinds[i]->name)) << kinds[i]->name;
  }
  for (const ChartDrawing* d : chartDrawings()) EXPECT_TRUE(findAnalysis(d->name)) << d->name << " draws no kind";
}

// The window in its dark theme exports pictures on white (a PDF of a dark chart is
// unreadable printed); the chart on screen stays dark.
TEST(AnalysisPanel, ExportsAreOnWhiteInTheDarkTheme) {
  Fixture f;
  ASSERT_TRUE(waitForResults(f.panel()));
  f.w.setDarkTheme(true);
  QApplication::processEvents();
  const QString path = QString::fromStdString(test::tempPath("dark_overview.png"));
  QString error;
  ASSERT_TRUE(f.panel()->exportChart("overview", path, &error)) << error.toStdString();
  const QImage image(path);
  ASSERT_FALSE(image.isNull());
  EXPECT_EQ(QColor(image.pixel(2, 2)), QColor(Qt::white));
  const QImage shown = f.panel()->findChild<QCustomPlot*>(QStringLiteral("overview"))->toPixmap(200, 100).toImage();
  EXPECT_EQ(QColor(shown.pixel(2, 2)), ChartTheme{true}.background());
  f.w.setDarkTheme(false);
  std::filesystem::remove(path.toStdString());
}

// An empty chart's note wraps (one line of 90 characters lost both ends in a 1280x720
// dock) and keeps every word.
TEST(ChartParts, AnEmptyNoteWrapsAndKeepsEveryWord) {
  QCustomPlot plot;
  const ChartTheme theme{false};
  const QString note =
      QStringLiteral("no gpu_user_annotation spans: Kineto draws them for record_function ranges that launch GPU work");
  parts::emptyNote(plot.axisRect(), note, theme);
  ASSERT_EQ(plot.itemCount(), 1);
  const auto* item = qobject_cast<QCPItemText*>(plot.item(0));
  ASSERT_NE(item, nullptr);
  const QStringList lines = item->text().split(QLatin1Char('\n'));
  EXPECT_GE(lines.size(), 2);
  for (const QString& line : lines) EXPECT_LE(line.size(), 60) << line.toStdString();
  EXPECT_EQ(lines.join(QLatin1Char(' ')), note);
}

// Bars named by long kernel names in a narrow chart (the Analysis dock at 1280x720 beside
// both side docks): the names are elided in the middle so that every value text ends
// inside the bars' rect ("190.34 ms · 42" was cut there); a wide chart keeps whole names.
TEST(ChartParts, LongBarNamesAreElidedSoEveryValueTextFits) {
  const QStringList labels = {QStringLiteral("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t"),
                              QStringLiteral("cutlass_80_tensorop_s1688gemm_256x64_16x4_tn_align1"),
                              QStringLiteral("multi_tensor_apply_kernel<float, 4, AdamFunctor<float>>"),
                              QStringLiteral("relu")};
  const std::vector<double> values = {190.34, 46.6, 38.45, 0.2};
  const QStringList texts = {QStringLiteral("190.34 ms · 42.3 %"), QStringLiteral("46.60 ms · 10.4 %"),
                             QStringLiteral("38.45 ms · 8.5 %"), QStringLiteral("0.20 ms · 0.0 %")};
  const std::vector<QColor> colors(4, QColor(Qt::darkBlue));
  const ChartTheme theme{false};
  const auto names = [](QCustomPlot& plot) {
    QStringList out;
    const auto ticker = qSharedPointerCast<QCPAxisTickerText>(plot.axisRect()->axis(QCPAxis::atLeft)->ticker());
    for (const QString& t : ticker->ticks()) out << t;
    return out;
  };
  for (const int width : {460, 1400}) {
    SCOPED_TRACE(width);
    QCustomPlot plot;
    plot.resize(width, 200);
    plot.show();  // the viewport follows the widget's size once it is shown
    QApplication::processEvents();
    parts::horizontalBars(plot.axisRect(), labels, values, colors, texts, labels, QStringLiteral("ms"), theme);
    plot.replot();
    QApplication::processEvents();  // the queued layout with the elided names
    plot.replot();
    const QCPAxisRect* rect = plot.axisRect();
    ASSERT_EQ(plot.itemCount(), 4);
    for (int i = 0; i < plot.itemCount(); ++i) {
      const auto* text = qobject_cast<QCPItemText*>(plot.item(i));
      ASSERT_NE(text, nullptr);
      const double right = text->position->pixelPosition().x() + text->padding().left() +
                           QFontMetrics(text->font()).horizontalAdvance(text->text());
      EXPECT_LE(right, rect->right() + 1) << text->text().toStdString() << " in a rect to " << rect->right();
    }
    const QStringList shown = names(plot);
    ASSERT_EQ(shown.size(), labels.size());
    const bool elided =
        std::any_of(shown.begin(), shown.end(), [](const QString& s) { return s.contains(QChar(0x2026)); });
    EXPECT_EQ(elided, width < 1000) << shown.join(QStringLiteral(" | ")).toStdString();
    EXPECT_TRUE(shown.contains(QStringLiteral("relu")));  // a short name stays whole
  }
}

// A message wrapped onto more lines than the layout first gave it room for is laid out
// again: a one-rank Ranks tab at 1280x720 cut its first and last lines.
TEST(ChartTheme, AWrappedMessageIsGivenTheHeightOfEveryLine) {
  QCustomPlot plot;
  plot.resize(420, 300);
  plot.show();
  QApplication::processEvents();
  const ChartTheme theme{false};
  showPlotMessage(
      &plot,
      QStringLiteral("Ranks: iteration time, collectives, top kernels · whole trace · a_long_file_name.json.gz"
                     "\n\nOne rank: there is nothing to compare it with. Open the folder of every rank's "
                     "trace (File > Open folder of ranks) to see stragglers, collective waits and per-rank "
                     "kernels; this rank's figures are in the table."),
      theme);
  for (int i = 0; i < 3; ++i) QApplication::processEvents();  // the queued layout with the wrapped lines
  auto* text = qobject_cast<QCPTextElement*>(plot.plotLayout()->element(0, 0));
  ASSERT_NE(text, nullptr);
  const int lines = static_cast<int>(text->text().count(QLatin1Char('\n'))) + 1;
  EXPECT_GE(lines, 6) << text->text().toStdString();  // wrapped at 420 px
  EXPECT_GE(text->rect().height(), lines * QFontMetrics(text->font()).lineSpacing())
      << lines << " lines in " << text->rect().height() << " px";
}

// Table numbers read in fixed point (the default delegate drew 1.06892e+06 for a start
// in µs) and sort by value, not by text.
TEST(TableItems, NumbersShowInFixedPointAndSortByValue) {
  QTableWidget t(3, 1);
  t.setItem(0, 0, numberItem(1068915, 0));
  t.setItem(1, 0, numberItem(9.5, 3));
  t.setItem(2, 0, numberItem(337084416, 0));
  EXPECT_EQ(t.item(0, 0)->text(), QStringLiteral("1068915"));
  EXPECT_EQ(t.item(1, 0)->text(), QStringLiteral("9.500"));
  EXPECT_EQ(t.item(2, 0)->text(), QStringLiteral("337084416"));
  // What the table draws: the delegate's text for the cell's display value.
  const QStyledItemDelegate delegate;
  EXPECT_EQ(delegate.displayText(t.item(0, 0)->data(Qt::DisplayRole), QLocale::c()), QStringLiteral("1068915"));
  t.sortItems(0, Qt::AscendingOrder);
  EXPECT_EQ(t.item(0, 0)->text(), QStringLiteral("9.500"));
  EXPECT_EQ(t.item(1, 0)->text(), QStringLiteral("1068915"));
  EXPECT_EQ(t.item(2, 0)->text(), QStringLiteral("337084416"));
}

TEST(AdaptiveSplitter, ChartBesideTheTableWhenWideAndShort) {
  EXPECT_EQ(AdaptiveSplitter::orientationFor({950, 250}), Qt::Horizontal);  // a laptop's bottom dock
  EXPECT_EQ(AdaptiveSplitter::orientationFor({950, 600}), Qt::Vertical);
  EXPECT_EQ(AdaptiveSplitter::orientationFor({1000, 400}), Qt::Vertical);
  EXPECT_EQ(AdaptiveSplitter::orientationFor({600, 100}), Qt::Vertical);  // too narrow for two
  AdaptiveSplitter split;
  split.addWidget(new QWidget);
  split.addWidget(new QWidget);
  split.resize(1000, 300);
  split.show();
  QApplication::processEvents();
  EXPECT_EQ(split.orientation(), Qt::Horizontal);
  EXPECT_NEAR(split.sizes()[0], 600, 20);  // the chart keeps three fifths
  split.resize(500, 600);
  QApplication::processEvents();
  EXPECT_EQ(split.orientation(), Qt::Vertical);
  EXPECT_NEAR(split.sizes()[0], 450, 20);  // over its table the chart takes three quarters
}

// The window opens a trace with the Analysis dock closed: the dock computes nothing
// (every analysis and the critical path of a 1 GB trace took seconds of both cores and
// a gigabyte behind the timeline); opening it computes, and a tab other than the current
// one fills its table when it is shown (filling every tab at once stalled the window
// 0.5 s on 1 GB).
TEST(AnalysisPanel, AHiddenDockComputesNothingAndATabFillsWhenShown) {
  std::string error;
  auto doc = loadDocument(kSample, error);
  ASSERT_TRUE(doc) << error;
  MainWindow w{false};
  w.resize(1280, 720);
  w.show();
  w.setDocument(doc);
  for (int i = 0; i < 20; ++i) {
    QApplication::processEvents(QEventLoop::AllEvents, 10);
    QThread::msleep(5);
  }
  ASSERT_FALSE(w.analysisDock()->isVisible());
  EXPECT_FALSE(w.analysis()->busy());
  EXPECT_FALSE(w.analysis()->results());
  w.analysisDock()->show();
  w.analysisDock()->raise();
  w.analysis()->showChart("overview");
  ASSERT_TRUE(waitForResults(w.analysis()));
  auto* streams = w.analysis()->tab("streams")->findChild<QTableWidget*>();
  ASSERT_TRUE(streams);
  EXPECT_EQ(streams->rowCount(), 0);
  w.analysis()->showChart("streams");
  QApplication::processEvents();
  EXPECT_GT(streams->rowCount(), 0);
  // Closed again and given another trace: nothing computed until it is opened.
  w.analysisDock()->hide();
  w.setDocument(doc);
  for (int i = 0; i < 20; ++i) QApplication::processEvents(QEventLoop::AllEvents, 10);
  EXPECT_FALSE(w.analysis()->busy());
  EXPECT_FALSE(w.analysis()->results());
}

// The Roofline tab: a point per op and shape with FLOPs, its tip naming it, and a click
// selecting that op's longest call (TraceLens' Qwen trace on an H100).
TEST(AnalysisPanel, RooflinePointsTipAndSelectTheLongestCall) {
  Fixture f(OPSCOPE_SOURCE_DIR "/tests/data/tracelens/h100_Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz");
  ASSERT_TRUE(waitForResults(f.panel()));
  const RooflineAnalysis& a = f.panel()->results()->value<RooflineAnalysis>("roofline");
  ASSERT_TRUE(a.roof) << a.gpuSource;
  EXPECT_EQ(a.roof->gpu.name, "H100-SXM");
  QCustomPlot* plot = f.panel()->plot("roofline");
  ASSERT_TRUE(plot);
  QCPAbstractPlottable* point = nullptr;
  for (int i = 0; i < plot->plottableCount() && !point; ++i)
    if (!plot->plottable(i)->property("ops").toList().isEmpty()) point = plot->plottable(i);
  ASSERT_TRUE(point);
  const QString tip = point->property("tips").toStringList().value(0);
  EXPECT_TRUE(tip.contains(QStringLiteral("TFLOP/s"))) << tip.toStdString();
  QSignalSpy events(f.panel(), &AnalysisPanel::eventsActivated);
  emit plot->plottableClick(point, 0, nullptr);
  ASSERT_EQ(events.count(), 1);
  const auto refs = events.at(0).at(1).value<std::vector<EventRef>>();
  ASSERT_EQ(refs.size(), 1u);
  EXPECT_EQ(refs[0].packed(), point->property("ops").toList().front().toULongLong());
  EXPECT_TRUE(tip.startsWith(QString::fromStdString(std::string(f.doc->trace->name(refs[0]))))) << tip.toStdString();
}

}  // namespace
}  // namespace opscope::ui
