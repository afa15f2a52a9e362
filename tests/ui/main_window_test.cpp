// Widget tests under the offscreen platform: the window on the bundled sample, zoom
// and pan by keys, selection by mouse, the details panel, search, area selection,
// exports and loading through the worker (including cancel and errors).
#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <filesystem>
#include <fstream>
#include <set>

#include "hierarchy/queries.h"
#include "load_job.h"
#include "main_window.h"
#include "panels/cluster_view.h"
#include "panels/details_panel.h"
#include "panels/op_tree_panel.h"
#include "panels/range_stats_panel.h"
#include "ranks/rank_metrics.h"
#include "test_support.h"
#include "timeline/timeline_widget.h"

namespace opscope::ui {
namespace {

const std::string kSample = OPSCOPE_SOURCE_DIR "/resources/sample/sample.pt.trace.json.gz";

std::shared_ptr<const TraceDocument> sampleDoc() {
  std::string error;
  auto doc = loadDocument(kSample, error);
  EXPECT_TRUE(doc) << error;
  return doc;
}

struct Window {
  MainWindow w{false};
  std::shared_ptr<const TraceDocument> doc = sampleDoc();
  Window() {
    w.resize(1600, 1000);
    w.show();
    w.setDocument(doc);
    QApplication::processEvents();
  }
  TimelineWidget* tl() { return w.timeline(); }
  const Trace& trace() { return *doc->trace; }
};

EventRef firstKernel(const Trace& t) {
  for (uint32_t tr = 0; tr < t.tracks.size(); ++tr)
    for (uint32_t i = 0; i < t.slices(tr).size(); ++i)
      if (t.slices(tr).kind[i] == SliceKind::Kernel && launchOf(t, {tr, i})) return {tr, i};
  ADD_FAILURE() << "no linked kernel";
  return {};
}

TEST(MainWindow, ShowsTheWholeTraceWithATrackPerThreadAndStream) {
  Window win;
  ASSERT_TRUE(win.doc);
  const TimeView v = win.tl()->view();
  const double w = win.tl()->geometryNow().events.width();
  EXPECT_GE(v.toPx(win.trace().minTs), 0);
  EXPECT_LE(v.toPx(win.trace().maxTs), w);
  int gpu = 0, headers = 0;
  for (const LayoutEntry& e : win.tl()->layout().entries) {
    if (e.kind == LayoutEntry::Kind::ProcessHeader) ++headers;
    if (e.kind == LayoutEntry::Kind::Slices && win.trace().tracks[e.index].kind == TrackKind::GpuStream) {
      ++gpu;
      EXPECT_EQ(e.label.rfind("GPU 0 \xC2\xB7 stream ", 0), 0u) << e.label;
    }
  }
  EXPECT_EQ(gpu, 3);
  EXPECT_GE(headers, 2);
}

TEST(MainWindow, KeysZoomAtTheCursorAndPan) {
  Window win;
  const TimeView before = win.tl()->view();
  win.tl()->setFocus();
  QTest::keyClick(win.tl(), Qt::Key_W);
  QTest::keyClick(win.tl(), Qt::Key_W);
  const TimeView zoomed = win.tl()->view();
  EXPECT_LT(zoomed.nsPerPx, before.nsPerPx / 1.5);
  QTest::keyClick(win.tl(), Qt::Key_D);
  EXPECT_GT(win.tl()->view().start, zoomed.start);
  QTest::keyClick(win.tl(), Qt::Key_A);
  QTest::keyClick(win.tl(), Qt::Key_A);
  EXPECT_LT(win.tl()->view().start, zoomed.start);
  QTest::keyClick(win.tl(), Qt::Key_S);
  EXPECT_GT(win.tl()->view().nsPerPx, zoomed.nsPerPx);
  QTest::keyClick(win.tl(), Qt::Key_0);
  EXPECT_EQ(win.tl()->view(), before);
}

TEST(MainWindow, ClickingAnOpSelectsItAndTheDetailsListItsChildrenAndGpuEvents) {
  Window win;
  const Trace& t = win.trace();
  // An op with GPU work: the first cpu_op that launched something.
  std::optional<EventRef> op;
  for (EventRef r : test::slicesNamed(t, "aten::linear"))
    if (!gpuEventsOf(t, r).empty()) {
      op = r;
      break;
    }
  ASSERT_TRUE(op);
  win.tl()->showRange(t.start(*op), t.end(*op));
  QApplication::processEvents();
  const auto pos = win.tl()->positionOf(*op);
  ASSERT_TRUE(pos);
  EXPECT_EQ(win.tl()->eventAt(*pos), op);
  QSignalSpy spy(win.tl(), &TimelineWidget::selectionChanged);
  QTest::mouseClick(win.tl(), Qt::LeftButton, Qt::NoModifier, *pos);
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(win.tl()->selected(), op);
  const QString html = win.w.details()->toHtml();
  EXPECT_TRUE(html.contains(QStringLiteral("aten::linear")));
  EXPECT_TRUE(html.contains(QStringLiteral("Children")));
  EXPECT_TRUE(html.contains(QStringLiteral("GPU events caused")));
  const EventRef gpu = gpuEventsOf(t, *op).front();
  EXPECT_TRUE(html.contains(QStringLiteral("event:%1:%2").arg(gpu.track).arg(gpu.index))) << html.toStdString();
  // Following the link selects the kernel, and its details name the launch.
  emit win.w.details()->anchorClicked(QUrl(QStringLiteral("event:%1:%2").arg(gpu.track).arg(gpu.index)));
  EXPECT_EQ(win.tl()->selected(), gpu);
  EXPECT_TRUE(win.w.details()->toHtml().contains(QStringLiteral("Launched by")));
  // Clicking empty space clears the selection.
  const auto geo = win.tl()->geometryNow();
  QTest::mouseClick(win.tl(), Qt::LeftButton, Qt::NoModifier, QPoint(geo.events.right() - 2, geo.events.bottom() - 2));
  EXPECT_FALSE(win.tl()->selected());
}

TEST(MainWindow, AKernelShowsItsLaunchOpChainArgsAndAnArrow) {
  Window win;
  const Trace& t = win.trace();
  const EventRef k = firstKernel(t);
  win.tl()->select(k, true);
  const QString html = win.w.details()->toHtml();
  EXPECT_TRUE(html.contains(QStringLiteral("Launched by")));
  EXPECT_TRUE(html.contains(QStringLiteral("Op chain")));
  EXPECT_TRUE(html.contains(QStringLiteral("Args")));
  EXPECT_TRUE(html.contains(QStringLiteral("grid")));
  // The selection is on screen after reveal.
  const auto pos = win.tl()->positionOf(k);
  ASSERT_TRUE(pos);
  EXPECT_TRUE(win.tl()->geometryNow().events.contains(*pos));
  // F fits the selection.
  win.tl()->setFocus();
  QTest::keyClick(win.tl(), Qt::Key_F);
  const TimeView v = win.tl()->view();
  EXPECT_GT(v.toPx(t.end(k)) - v.toPx(t.start(k)), win.tl()->geometryNow().events.width() * 0.8);
}

TEST(MainWindow, SearchCountsMatchesAndEnterStepsThroughThem) {
  Window win;
  QLineEdit* box = win.w.searchBox();
  // Counted independently: every slice whose name contains the text.
  size_t expected = 0, steps100to103 = 0;
  for (const Track& tr : win.trace().tracks)
    for (size_t i = 0; i < tr.slices.size(); ++i) {
      const std::string_view n = win.trace().str(tr.slices.name[i]);
      expected += n.find("ProfilerStep") != std::string_view::npos;
      steps100to103 +=
          n == "ProfilerStep#100" || n == "ProfilerStep#101" || n == "ProfilerStep#102" || n == "ProfilerStep#103";
    }
  ASSERT_GE(expected, 16u);
  box->setText(QStringLiteral("profilerstep"));  // case-insensitive
  EXPECT_EQ(win.w.searchMatchCount(), expected);
  EXPECT_TRUE(win.w.searchStatus().contains(QString::number(expected)));
  box->setFocus();
  QTest::keyClick(box, Qt::Key_Return);
  ASSERT_TRUE(win.tl()->selected());
  const EventRef first = *win.tl()->selected();
  QTest::keyClick(box, Qt::Key_Return);
  const EventRef second = *win.tl()->selected();
  EXPECT_NE(first, second);
  EXPECT_LE(win.trace().start(first), win.trace().start(second));
  QTest::keyClick(box, Qt::Key_Return, Qt::ShiftModifier);
  EXPECT_EQ(*win.tl()->selected(), first);
  // Regular expressions; a broken one is reported, not thrown.
  EXPECT_TRUE(win.w.runSearch(QStringLiteral("^ProfilerStep#10[0-3]$"), true));
  EXPECT_EQ(win.w.searchMatchCount(), steps100to103);
  EXPECT_GE(steps100to103, 4u);
  EXPECT_FALSE(win.w.runSearch(QStringLiteral("(oops"), true));
  EXPECT_TRUE(win.w.searchStatus().contains(QStringLiteral("bad regular expression")));
}

TEST(MainWindow, TheSearchStatusNeverMovesThePanelButtons) {
  // A status wider than its place is cut (whole in the tooltip and status()); the Panels
  // toolbar after it stays where it was, its buttons under the mouse.
  Window win;
  const auto* panels = win.w.findChild<QToolBar*>(QStringLiteral("panelsBar"));
  ASSERT_TRUE(panels);
  const int x = panels->geometry().x();
  win.w.markEvents(QStringLiteral("the critical path of the whole trace, through every stream"),
                   {firstKernel(win.trace())});
  QApplication::processEvents();
  EXPECT_TRUE(win.w.searchStatus().startsWith(QStringLiteral("1 event of the critical path of the whole trace")));
  EXPECT_EQ(panels->geometry().x(), x);
  EXPECT_FALSE(win.w.runSearch(QStringLiteral("(an unclosed group in a long expression"), true));
  QApplication::processEvents();
  EXPECT_TRUE(win.w.searchStatus().contains(QStringLiteral("bad regular expression")));
  EXPECT_EQ(panels->geometry().x(), x);
}

TEST(MainWindow, ShiftDragSelectsARangeAndFillsTheAggregateTable) {
  Window win;
  const auto geo = win.tl()->geometryNow();
  const QPoint from(geo.events.left() + 40, geo.events.top() + 5);
  const QPoint to(geo.events.left() + geo.events.width() / 2, geo.events.bottom() - 5);
  QSignalSpy spy(win.tl(), &TimelineWidget::areaSelected);
  QTest::mousePress(win.tl(), Qt::LeftButton, Qt::ShiftModifier, from);
  QMouseEvent move(QEvent::MouseMove, to, win.tl()->mapToGlobal(to), Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
  QApplication::sendEvent(win.tl(), &move);
  QTest::mouseRelease(win.tl(), Qt::LeftButton, Qt::ShiftModifier, to);
  ASSERT_EQ(spy.count(), 1);
  ASSERT_TRUE(win.tl()->areaSelection());
  RangeStatsModel* m = win.w.rangeStats()->model();
  QAbstractItemModelTester tester(m, QAbstractItemModelTester::FailureReportingMode::Warning);
  ASSERT_GT(m->rowCount(), 0);
  bool sawGpu = false, sawCpu = false;
  for (int r = 0; r < m->rowCount(); ++r) {
    const QString kind = m->index(r, RangeStatsModel::Kind).data().toString();
    sawGpu |= kind == QLatin1String("GPU");
    sawCpu |= kind == QLatin1String("CPU");
    EXPECT_GT(m->index(r, RangeStatsModel::Count).data(RangeStatsModel::SortRole).toULongLong(), 0u);
  }
  EXPECT_TRUE(sawCpu);
  EXPECT_TRUE(sawGpu);
  EXPECT_TRUE(win.w.rangeStats()->headline().contains(QStringLiteral("slices")));
}

TEST(MainWindow, OpTreeFiltersAndJumpsToTheLongestCall) {
  Window win;
  OpTreePanel* panel = win.w.opTree();
  QAbstractItemModelTester tester(panel->proxy()->sourceModel(),
                                  QAbstractItemModelTester::FailureReportingMode::Warning);
  panel->setFilter(QStringLiteral("aten::linear"));
  QSortFilterProxyModel* proxy = panel->proxy();
  ASSERT_GT(proxy->rowCount(), 0);
  // Walk down to the first match.
  QModelIndex idx = proxy->index(0, 0);
  while (idx.isValid() && idx.data().toString() != QLatin1String("aten::linear")) idx = proxy->index(0, 0, idx);
  ASSERT_TRUE(idx.isValid());
  emit panel->view()->activated(idx);
  ASSERT_TRUE(win.tl()->selected());
  EXPECT_EQ(win.trace().name(*win.tl()->selected()), "aten::linear");
}

TEST(MainWindow, ClickingAProcessHeaderFoldsIt) {
  Window win;
  const int before = win.tl()->layout().height;
  const auto geo = win.tl()->geometryNow();
  ASSERT_EQ(win.tl()->layout().entries.front().kind, LayoutEntry::Kind::ProcessHeader);
  const QPoint header(geo.gutter.left() + 20, geo.events.top() + win.tl()->layout().entries.front().y + 5);
  QTest::mouseClick(win.tl(), Qt::LeftButton, Qt::NoModifier, header);
  EXPECT_LT(win.tl()->layout().height, before);
  // A second click later than the double-click interval unfolds it.
  QTest::mouseClick(win.tl(), Qt::LeftButton, Qt::NoModifier, header, QApplication::doubleClickInterval() + 100);
  EXPECT_EQ(win.tl()->layout().height, before);
}

TEST(MainWindow, ExportsPngAndPdfAtomically) {
  Window win;
  const QString png = QString::fromStdString(test::tempPath("timeline.png"));
  const QString pdf = QString::fromStdString(test::tempPath("timeline.pdf"));
  QString error;
  ASSERT_TRUE(win.w.exportPng(png, 2.0, &error)) << error.toStdString();
  QImage image(png);
  EXPECT_EQ(image.width(), win.tl()->width() * 2);
  ASSERT_TRUE(win.w.exportPdf(pdf, &error)) << error.toStdString();
  QFile f(pdf);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  EXPECT_TRUE(f.read(5) == "%PDF-");
  EXPECT_GT(f.size(), 2000);
  // The whole track list: as tall as the layout, whatever is scrolled into view.
  win.tl()->setAllTracksExpanded(true);
  win.w.resize(900, 320);
  QApplication::processEvents();
  ASSERT_GT(win.tl()->layout().height, win.tl()->height()) << "the list must not fit for this check";
  win.tl()->setScrollY(win.tl()->layout().height);
  ASSERT_TRUE(win.w.exportPng(png, 1.0, &error, /*wholeList=*/true)) << error.toStdString();
  QImage whole(png);
  EXPECT_EQ(whole.height(), win.tl()->geometryNow().events.top() + win.tl()->layout().height);
  EXPECT_GT(whole.height(), win.tl()->height());
  // Too tall for a PNG at this scale: refused with the reason, never cut.
  EXPECT_FALSE(win.w.exportPng(png, 40000.0 / win.tl()->layout().height, &error, true));
  EXPECT_TRUE(error.contains(QStringLiteral("32767"))) << error.toStdString();
  // A path that cannot be written fails cleanly and leaves nothing behind.
  EXPECT_FALSE(win.w.exportPng(QStringLiteral("/nonexistent-dir/x.png"), 1.0, &error));
  EXPECT_FALSE(error.isEmpty());
  QFile::remove(png);
  QFile::remove(pdf);
}

TEST(LoadJob, LoadsOnAWorkerThreadAndDeliversOnTheGuiThread) {
  LoadJob job;
  QSignalSpy loaded(&job, &LoadJob::loaded);
  job.start(QString::fromStdString(kSample));
  ASSERT_TRUE(loaded.wait(10000));
  const auto doc = loaded.takeFirst().at(0).value<std::shared_ptr<const TraceDocument>>();
  ASSERT_TRUE(doc);
  EXPECT_GT(doc->trace->sliceCount(), 1000u);
  EXPECT_EQ(job.progress().bytesDone, job.progress().bytesTotal);
}

TEST(MainWindow, AFolderOfRankTracesOpensAsOneSessionWithEveryRanksGpuStreams) {
  // The sample (distributedInfo rank 0 of world size 2) and a copy made rank 1.
  const std::filesystem::path dir = test::tempPath("ranks_folder");
  test::writeTwoRankFolder(kSample, dir.string());
  LoadJob job;
  QSignalSpy loaded(&job, &LoadJob::loaded);
  job.start(QString::fromStdString(dir.string()));
  ASSERT_TRUE(loaded.wait(20000));
  const auto doc = loaded.takeFirst().at(0).value<std::shared_ptr<const TraceDocument>>();
  ASSERT_TRUE(doc);
  const auto single = sampleDoc();
  EXPECT_EQ(doc->trace->sliceCount(), 2 * single->trace->sliceCount());

  MainWindow w{false};
  w.resize(1400, 900);
  w.show();
  w.setDocument(doc);
  QApplication::processEvents();
  // Headers rank by rank; GPU streams of both ranks laid out, CPU processes folded.
  std::vector<std::string> headers;
  int gpuRows[2] = {0, 0};
  for (const LayoutEntry& e : w.timeline()->layout().entries) {
    if (e.kind == LayoutEntry::Kind::ProcessHeader) headers.push_back(e.label);
    if (e.kind != LayoutEntry::Kind::Slices) continue;
    const Track& t = doc->trace->tracks[e.index];
    const int64_t rank = doc->trace->processes[t.process].rank;
    ASSERT_TRUE(rank == 0 || rank == 1);
    EXPECT_EQ(t.kind, TrackKind::GpuStream) << e.label;  // no CPU thread unfolded
    ++gpuRows[rank];
    EXPECT_EQ(e.label.rfind("rank " + std::to_string(rank), 0), 0u) << e.label;
  }
  EXPECT_GT(gpuRows[0], 0);
  EXPECT_EQ(gpuRows[0], gpuRows[1]);
  ASSERT_FALSE(headers.empty());
  EXPECT_EQ(headers.front().rfind("rank 0 \xC2\xB7 ", 0), 0u) << headers.front();
  EXPECT_EQ(headers.back().rfind("rank 1 \xC2\xB7 ", 0), 0u) << headers.back();

  // One group per rank: its header (clock offset applied, what it holds, its file) above
  // every entry of that rank.
  auto rankHeaders = [&] {
    std::vector<const LayoutEntry*> out;
    for (const LayoutEntry& e : w.timeline()->layout().entries)
      if (e.kind == LayoutEntry::Kind::RankHeader) out.push_back(&e);
    return out;
  };
  ASSERT_EQ(rankHeaders().size(), 2u);
  EXPECT_EQ(rankHeaders()[1]->label.rfind("rank 1 \xC2\xB7 clock ", 0), 0u) << rankHeaders()[1]->label;
  EXPECT_NE(rankHeaders()[1]->label.find("job_rank1.json"), std::string::npos) << rankHeaders()[1]->label;
  EXPECT_NE(rankHeaders()[1]->label.find(" GPU streams, "), std::string::npos) << rankHeaders()[1]->label;
  int64_t lastRank = kNoId;
  for (const LayoutEntry& e : w.timeline()->layout().entries) {
    if (e.kind == LayoutEntry::Kind::RankHeader) lastRank = e.rank;
    else EXPECT_EQ(e.rank, lastRank) << e.label;
  }
  // A click on rank 1's header folds the whole rank to that line; a second unfolds it.
  const size_t allEntries = w.timeline()->layout().entries.size();
  auto clickHeader = [&](const LayoutEntry& e) {
    const TimelineGeometry g = w.timeline()->geometryNow();
    w.timeline()->setScrollY(e.y);
    QTest::mouseClick(w.timeline(), Qt::LeftButton, Qt::NoModifier,
                      QPoint(g.gutter.left() + 20, g.events.top() + e.y - w.timeline()->scrollY() + 4));
  };
  clickHeader(*rankHeaders()[1]);
  ASSERT_EQ(rankHeaders().size(), 2u);
  EXPECT_TRUE(rankHeaders()[1]->folded);
  EXPECT_EQ(&w.timeline()->layout().entries.back(), rankHeaders()[1]);  // nothing below it
  clickHeader(*rankHeaders()[1]);
  EXPECT_FALSE(rankHeaders()[1]->folded);
  EXPECT_EQ(w.timeline()->layout().entries.size(), allEntries);
  // Folding every rank leaves the two headers; revealing a slice of rank 1 unfolds rank 1.
  w.timeline()->setAllRanksCollapsed(true);
  EXPECT_EQ(w.timeline()->layout().entries.size(), 2u);
  for (uint32_t tr = 0; tr < doc->trace->tracks.size(); ++tr)
    if (doc->trace->processes[doc->trace->tracks[tr].process].rank == 1 &&
        doc->trace->tracks[tr].kind == TrackKind::GpuStream && doc->trace->tracks[tr].slices.size() > 0) {
      w.timeline()->reveal(EventRef{tr, 0});
      break;
    }
  EXPECT_FALSE(rankHeaders()[1]->folded);
  EXPECT_TRUE(rankHeaders()[0]->folded);
  w.timeline()->setAllRanksCollapsed(false);
  EXPECT_EQ(w.timeline()->layout().entries.size(), allEntries);

  // Selecting a collective kernel marks the same collective on the other rank.
  std::vector<EventRef> collectives;
  for (uint32_t tr = 0; tr < doc->trace->tracks.size(); ++tr)
    for (uint32_t i = 0; i < doc->trace->tracks[tr].slices.size(); ++i)
      if (doc->trace->kind({tr, i}) == SliceKind::Kernel && isCollectiveKernelName(doc->trace->name({tr, i})))
        collectives.push_back({tr, i});
  if (!collectives.empty()) {
    w.timeline()->select(collectives.front());
    EXPECT_EQ(w.searchMatchCount(), 2u);
    EXPECT_TRUE(w.searchStatus().contains(QStringLiteral("on 2 ranks"))) << w.searchStatus().toStdString();
    w.timeline()->select(std::nullopt);
    EXPECT_EQ(w.searchMatchCount(), 0u);
  } else {
    ADD_FAILURE() << "the sample has no collective kernel";
  }

  // The rank filter: rank 1 alone, then every rank; a bad list changes nothing.
  auto ranksShown = [&] {
    std::set<int64_t> shown;
    for (const LayoutEntry& e : w.timeline()->layout().entries)
      if (e.kind == LayoutEntry::Kind::ProcessHeader) shown.insert(doc->trace->processes[e.process].rank);
    return shown;
  };
  ASSERT_TRUE(w.showRanks(QStringLiteral("1")));
  EXPECT_EQ(ranksShown(), (std::set<int64_t>{1}));
  EXPECT_FALSE(w.showRanks(QStringLiteral("1-x")));
  EXPECT_EQ(ranksShown(), (std::set<int64_t>{1}));
  // Revealing a slice of a hidden rank brings that rank back.
  for (uint32_t tr = 0; tr < doc->trace->tracks.size(); ++tr)
    if (doc->trace->processes[doc->trace->tracks[tr].process].rank == 0 && doc->trace->tracks[tr].slices.size() > 0) {
      w.timeline()->select(EventRef{tr, 0}, /*reveal=*/true);
      break;
    }
  EXPECT_EQ(ranksShown(), (std::set<int64_t>{0, 1}));
  ASSERT_TRUE(w.showRanks(QString()));
  EXPECT_EQ(ranksShown(), (std::set<int64_t>{0, 1}));
  std::filesystem::remove_all(dir);
}

TEST(MainWindow, AClusterTableOpensItsViewAndARankWithItsNeighboursOpensAsASession) {
  // Three ranks in a table as opscope-cluster writes it: rank 1 slow, rank 2's file gone.
  const std::filesystem::path dir = test::tempPath("cluster_table");
  test::writeTwoRankFolder(kSample, dir.string());
  auto line = [](int rank, const std::string& file, double us) {
    return "{\"rank\": " + std::to_string(rank) + ", \"file\": \"" + file + "\", \"host\": \"n" + std::to_string(rank) +
           "\", \"iteration_list\": [{\"step\": 1, \"start_us\": 0, \"dur_us\": 1, \"wall_us\": " + std::to_string(us) +
           "}]}\n";
  };
  const std::string table = (dir / "ranks.jsonl").string();
  std::ofstream(table) << line(0, (dir / "job_rank0.json.gz").string(), 100)
                       << line(1, (dir / "job_rank1.json").string(), 150)
                       << "{\"rank\": 2, \"file\": \"" + (dir / "gone.json").string() +
                              "\", \"error\": \"cannot open\"}\n";
  MainWindow w{false};
  w.resize(1200, 800);
  w.show();
  w.openFile(QString::fromStdString(table));
  ClusterView* v = w.clusterView();
  ASSERT_TRUE(v);
  EXPECT_TRUE(v->isVisible());
  // Its window fits the screen it opens on (offscreen: 800x800; it asked for 1100x750 and
  // ran 70 pixels past a 1280x720 laptop's under openbox).
  ASSERT_TRUE(v->screen());
  EXPECT_TRUE(v->screen()->availableGeometry().contains(v->frameGeometry()))
      << v->frameGeometry().width() << "x" << v->frameGeometry().height() << " on "
      << v->screen()->availableGeometry().width() << "x" << v->screen()->availableGeometry().height();
  ASSERT_EQ(v->table().rows.size(), 3u);
  ASSERT_EQ(v->table().stragglers.size(), 1u);
  EXPECT_EQ(v->table().stragglers[0].rank, 1);
  // Slowest first; the failed rank is listed with its error.
  EXPECT_EQ(v->cellText(0, 0), QStringLiteral("1"));
  bool errorShown = false;
  for (int r = 0; r < v->rankList()->model()->rowCount(); ++r) errorShown |= v->cellText(r, 5).contains("cannot open");
  EXPECT_TRUE(errorShown);
  // Rank 1 with its neighbours: rank 0, and rank 2 left out (it failed).
  const auto files = v->filesFor(0, true);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(v->filesFor(0, false).size(), 1u);
  QSignalSpy changed(&w, &MainWindow::documentChanged);
  QStringList list;
  for (const auto& f : files) list << QString::fromStdString(f);
  w.openFiles(list);
  ASSERT_TRUE(changed.wait(20000));
  ASSERT_TRUE(w.document());
  std::set<int64_t> ranks;
  for (const Process& p : w.document()->trace->processes) ranks.insert(p.rank);
  EXPECT_EQ(ranks, (std::set<int64_t>{0, 1}));
  // A table that cannot be read is one line, and no view.
  MainWindow other{false};
  std::ofstream(table) << "not json\n";
  EXPECT_FALSE(other.openClusterTable(QString::fromStdString(table)));
  EXPECT_FALSE(other.clusterView());
  std::filesystem::remove_all(dir);
}

TEST(MainWindow, ATableOpenedAtStartIsTheClusterViewAloneUntilARankOpens) {
  // `opscope ranks.jsonl` shows the cluster view without an empty main window behind it;
  // the main window appears with the rank opened from it; closing the lone view quits,
  // closing it beside the main window does not.
  const std::filesystem::path dir = test::tempPath("cluster_alone");
  test::writeTwoRankFolder(kSample, dir.string());
  const std::string table = (dir / "ranks.jsonl").string();
  std::ofstream(table)
      << "{\"rank\": 0, \"file\": \"" << (dir / "job_rank0.json.gz").string()
      << "\", \"iteration_list\": [{\"step\": 1, \"start_us\": 0, \"dur_us\": 1, \"wall_us\": 100}]}\n";
  auto closeViewAndRun = [](ClusterView* v) {
    // exec() returns 0 when closing the view quits, 7 when the guard ends it instead.
    QTimer guard;
    guard.setSingleShot(true);
    QObject::connect(&guard, &QTimer::timeout, [] { QCoreApplication::exit(7); });
    guard.start(1500);
    QTimer::singleShot(0, v, [v] { v->close(); });
    const int code = QCoreApplication::exec();
    guard.stop();  // not left to end a later event loop
    return code;
  };
  {
    MainWindow w{false};
    ASSERT_TRUE(w.openClusterTable(QString::fromStdString(table)));
    ASSERT_TRUE(w.clusterView());
    EXPECT_TRUE(w.clusterView()->isVisible());
    EXPECT_FALSE(w.isVisible());
    EXPECT_EQ(closeViewAndRun(w.clusterView()), 0);
  }
  MainWindow w{false};
  ASSERT_TRUE(w.openClusterTable(QString::fromStdString(table)));
  QSignalSpy changed(&w, &MainWindow::documentChanged);
  emit w.clusterView()->openRequested({(dir / "job_rank0.json.gz").string()});
  EXPECT_TRUE(w.isVisible());
  ASSERT_TRUE(changed.wait(20000));
  w.clusterView()->show();
  EXPECT_EQ(closeViewAndRun(w.clusterView()), 7);
  EXPECT_TRUE(w.isVisible());
  std::filesystem::remove_all(dir);
}

TEST(MainWindow, ClickingAGroupedHeatmapRowSelectsTheRankItShows) {
  // 5000 ranks draw as runs of ranks, each its slowest: a click on the straggler's run
  // selects the straggler in the list, not whichever rank lies at that height.
  constexpr int kRanks = 5000, kSlow = 3772;  // the first rank of its run (3772-3782)
  const std::filesystem::path dir = test::tempPath("cluster_click");
  std::filesystem::create_directories(dir);
  const std::string table = (dir / "ranks.jsonl").string();
  {
    std::ofstream out(table);
    for (int r = 0; r < kRanks; ++r)
      out << "{\"rank\": " << r << ", \"file\": \"rank" << r << ".json\", \"iteration_list\": [{\"step\": 1, "
          << "\"start_us\": 0, \"dur_us\": 1, \"wall_us\": " << (r == kSlow ? 1400 : 1000 + r % 5) << "}]}\n";
  }
  MainWindow w{false};
  ASSERT_TRUE(w.openClusterTable(QString::fromStdString(table)));
  ClusterView* v = w.clusterView();
  ASSERT_TRUE(v);
  QApplication::processEvents();
  v->plot()->replot();
  QCPColorMap* map = nullptr;
  for (int i = 0; i < v->plot()->plottableCount() && !map; ++i)
    map = qobject_cast<QCPColorMap*>(v->plot()->plottable(i));
  ASSERT_TRUE(map);
  ASSERT_LT(map->data()->valueSize(), kRanks);  // grouped
  // The middle of the straggler's run, which is not the straggler's own height (a pixel
  // row is ~11 ranks here).
  int key = -1, value = -1;
  map->data()->coordToCell(0, kSlow, &key, &value);
  double keyAt = 0, rowAt = 0;
  map->data()->cellToCoord(key, value, &keyAt, &rowAt);
  ASSERT_NE(std::lround(rowAt), kSlow) << "the click must not be at the straggler's own height";
  const QPoint at(static_cast<int>(map->keyAxis()->coordToPixel(keyAt)),
                  static_cast<int>(std::lround(map->valueAxis()->coordToPixel(rowAt))));
  QTest::mouseClick(v->plot(), Qt::LeftButton, Qt::NoModifier, at);
  const QModelIndexList selected = v->rankList()->selectionModel()->selectedRows();
  ASSERT_FALSE(selected.isEmpty());
  EXPECT_EQ(v->cellText(selected.front().row(), 0), QString::number(kSlow));
  std::filesystem::remove_all(dir);
}

TEST(LoadJob, CancelStopsTheLoad) {
  // A trace large enough (about 40 MB) that loading it takes many progress steps.
  const std::string path = test::tempPath("cancel.json");
  {
    std::ofstream out(path);
    out << "{\"traceEvents\":[";
    for (int i = 0; i < 400000; ++i)
      out << (i ? "," : "")
          << R"({"ph":"X","cat":"cpu_op","name":"aten::some_long_operator_name","pid":1,"tid":1,"ts":)" << i * 2
          << R"(,"dur":1,"args":{"External id":)" << i << R"(,"Input Dims":[[64,128],[128]]}})";
    out << "]}";
  }
  LoadJob job;
  QSignalSpy cancelled(&job, &LoadJob::cancelled);
  QSignalSpy loaded(&job, &LoadJob::loaded);
  job.start(QString::fromStdString(path));
  job.cancel();
  job.wait();
  EXPECT_FALSE(job.running());
  QApplication::processEvents();
  EXPECT_EQ(cancelled.count(), 1);
  EXPECT_EQ(loaded.count(), 0);
  // The job is reusable after a cancel; a superseded load never reports.
  job.start(QString::fromStdString(path));
  job.start(QString::fromStdString(kSample));
  ASSERT_TRUE(loaded.wait(20000));
  QApplication::processEvents();
  EXPECT_EQ(loaded.count(), 1);
  const auto doc = loaded.takeFirst().at(0).value<std::shared_ptr<const TraceDocument>>();
  EXPECT_EQ(doc->path, kSample);
  std::remove(path.c_str());
}

TEST(LoadJob, ABadFileReportsTheLoadersOneLineError) {
  const std::string path = test::tempPath("bad.json");
  {
    std::ofstream out(path);
    out << "{\"traceEvents\":[{\"ph\":\"X\",,}]}";
  }
  LoadJob job;
  QSignalSpy failed(&job, &LoadJob::failed);
  job.start(QString::fromStdString(path));
  ASSERT_TRUE(failed.wait(10000));
  const QString message = failed.takeFirst().at(1).toString();
  EXPECT_TRUE(message.contains(QStringLiteral("byte"))) << message.toStdString();
  EXPECT_FALSE(message.contains('\n'));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace opscope::ui

namespace opscope::ui {
namespace {

TEST(TimelineWidget, InstantsAreFoundUnderTheMouse) {
  auto t = test::loadOk(R"([
    {"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":0,"dur":100},
    {"ph":"i","s":"g","name":"Record Window End","pid":1,"tid":1,"ts":50},
    {"ph":"i","s":"t","name":"mark","pid":1,"tid":1,"ts":20}])");
  ASSERT_TRUE(t);
  LoadResult r;
  r.trace = std::move(t);
  auto doc = prepareDocument("inline", std::move(r));
  TimelineWidget w;
  w.resize(1200, 400);
  w.setData(doc);
  const auto g = w.geometryNow();
  const Trace& trace = *doc->trace;
  auto xOf = [&](TimeNs ns) {
    return g.events.left() + static_cast<int>(std::lround(w.view().toPx(trace.minTs + ns)));
  };
  const auto global = w.instantAt(QPoint(xOf(50'000), g.events.bottom() - 3));
  ASSERT_TRUE(global);
  EXPECT_EQ(trace.str(trace.instants[*global].name), "Record Window End");
  // The thread instant only on its own track's rows.
  const int trackY = g.events.top() + w.layout().entries[static_cast<size_t>(w.layout().entryOfTrack(0))].y + 5;
  const auto mark = w.instantAt(QPoint(xOf(20'000), trackY));
  ASSERT_TRUE(mark);
  EXPECT_EQ(trace.str(trace.instants[*mark].name), "mark");
  EXPECT_FALSE(w.instantAt(QPoint(xOf(20'000), g.events.bottom() - 3)));
  EXPECT_FALSE(w.instantAt(QPoint(xOf(35'000), trackY)));
}

}  // namespace
}  // namespace opscope::ui

namespace opscope::ui {
namespace {

TEST(MainWindow, LayoutThemeAndRecentFilesSurviveARestart) {
  QSettings().clear();  // the tests' own organization (ui_test_main.cpp), not the user's
  int detailsWidth = 0;
  // The window never outgrows its screen (the offscreen platform's is 800 px wide), so
  // the user's width is a quarter of what the screen offers.
  const QRect screen = QGuiApplication::primaryScreen()->availableGeometry();
  const int wanted = screen.width() / 4;
  {
    MainWindow w(true);
    w.resize(screen.width() * 9 / 10, screen.height() * 9 / 10);
    w.show();
    QApplication::processEvents();
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("detailsDock"));
    ASSERT_TRUE(dock);
    EXPECT_FALSE(dock->isVisible());                                  // the default: shown by the first selection
    w.findChild<QDockWidget*>(QStringLiteral("opTreeDock"))->hide();  // closes the op tree
    dock->show();                                                     // opens Details, widens it
    QApplication::processEvents();
    w.resizeDocks({dock}, {wanted}, Qt::Horizontal);
    w.setDarkTheme(true);
    QApplication::processEvents();
    detailsWidth = dock->width();
    QSignalSpy loaded(w.loadJob(), &LoadJob::loaded);
    w.openFile(QString::fromStdString(kSample));
    ASSERT_TRUE(loaded.wait(10000));
    w.close();
  }
  MainWindow again(true);
  again.show();
  QApplication::processEvents();
  auto* dock = again.findChild<QDockWidget*>(QStringLiteral("detailsDock"));
  ASSERT_TRUE(dock);
  EXPECT_TRUE(dock->isVisible());  // the user's choice outlives the default
  EXPECT_FALSE(again.findChild<QDockWidget*>(QStringLiteral("opTreeDock"))->isVisible());
  EXPECT_NEAR(detailsWidth, wanted, 30);
  EXPECT_NEAR(dock->width(), detailsWidth, 4);
  EXPECT_EQ(again.timeline()->theme(), Theme::Dark);
  const QStringList recent = QSettings().value(QStringLiteral("recent")).toStringList();
  ASSERT_FALSE(recent.isEmpty());
  EXPECT_TRUE(recent.front().endsWith(QStringLiteral("sample.pt.trace.json.gz")));
  again.setDarkTheme(false);
  QSettings().clear();
}

TEST(MainWindow, AnInteractiveWindowNeverOutgrowsItsScreen) {
  QSettings().clear();
  const QRect screen = QGuiApplication::primaryScreen()->availableGeometry();
  {
    MainWindow first(true);
    EXPECT_LE(first.width(), screen.width() * 9 / 10);  // the first size leaves room
    EXPECT_LE(first.height(), screen.height() * 9 / 10);
    first.show();
    QApplication::processEvents();
    // A window saved larger than this screen (another screen, or grown by a panel).
    first.resize(screen.width() + 700, screen.height() + 400);
    QApplication::processEvents();
    QApplication::processEvents();
    EXPECT_LE(first.width(), screen.width());
    EXPECT_LE(first.height(), screen.height());
    first.setGeometry(QRect(QPoint(0, 0), QSize(screen.width() + 500, screen.height() + 500)));
    first.close();  // saves that geometry in the settings
  }
  MainWindow again(true);
  again.show();
  QApplication::processEvents();
  EXPECT_LE(again.width(), screen.width());
  EXPECT_LE(again.height(), screen.height());
  EXPECT_TRUE(screen.contains(again.geometry().topLeft()));
  QSettings().clear();
}

TEST(MainWindow, DetailsShowRealArgsToSixSignificantDigits) {
  auto t = test::loadOk(R"J({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1,
    "dur": 2, "args": {"memory bandwidth (GB/s)": 0.6285714285714286, "correlation": 1683564902533021,
    "grid": [16, 1, 1]}}]})J");
  ASSERT_TRUE(t);
  DetailsPanel details;
  details.showDetails(t.get(), EventRef{0, 0});
  const QString html = details.toHtml();
  EXPECT_TRUE(html.contains(QStringLiteral("0.628571"))) << html.toStdString();
  EXPECT_FALSE(html.contains(QStringLiteral("0.6285714285714286")));
  EXPECT_TRUE(html.contains(QStringLiteral("1683564902533021")));  // integers as written
}

// An execution trace opened as a timeline is recognised and the way to link it given,
// instead of a list of command-line commands.
TEST(MainWindow, AnExecutionTraceOpenedAsATraceIsOfferedForLinking) {
  MainWindow w(false);
  QSignalSpy failed(w.loadJob(), &LoadJob::failed);
  w.openFile(QStringLiteral(OPSCOPE_SOURCE_DIR "/tests/data/pytorch_h100/h100_mlp_et.json.gz"));
  ASSERT_TRUE(failed.wait(10000));
  QApplication::processEvents();
  EXPECT_TRUE(w.lastError().contains(QStringLiteral("is a PyTorch execution trace"))) << w.lastError().toStdString();
  EXPECT_TRUE(w.lastError().contains(QStringLiteral("Open execution trace")));
  EXPECT_FALSE(w.lastError().contains(QStringLiteral("opscope link")));
}

}  // namespace
}  // namespace opscope::ui
