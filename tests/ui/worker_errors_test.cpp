// Exceptions on worker threads: a throw in a loader, an analysis or a prediction must
// become the same one-line error a bad file gets, never an abort of the whole GUI,
// and whatever was open stays open.
#include <gtest/gtest.h>

#include <QApplication>
#include <QLabel>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>
#include <QThreadPool>
#include <algorithm>
#include <stdexcept>
#include <vector>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "load_job.h"
#include "main_window.h"
#include "worker.h"

namespace opscope::ui {
namespace {

const std::string kSample = OPSCOPE_SOURCE_DIR "/resources/sample/sample.pt.trace.json.gz";

TEST(Worker, AThrowBecomesFailOnTheGuiThreadNotAnAbort) {
  QObject receiver;
  QString failure;
  bool delivered = false;
  runOnWorker(
      &receiver, []() -> int { throw std::runtime_error("boom\nsecond line"); },
      [&](QObject*, int) { delivered = true; }, [&](QObject*, const QString& m) { failure = m; });
  QTRY_VERIFY_WITH_TIMEOUT(!failure.isEmpty(), 10000);
  EXPECT_FALSE(delivered);
  EXPECT_EQ(failure, QStringLiteral("internal error: boom second line"));  // one line
  failure.clear();
  runOnWorker(
      &receiver, []() -> int { throw std::bad_alloc(); }, [&](QObject*, int) { delivered = true; },
      [&](QObject*, const QString& m) { failure = m; });
  QTRY_VERIFY_WITH_TIMEOUT(!failure.isEmpty(), 10000);
  EXPECT_EQ(failure, QStringLiteral("out of memory"));
  // And a result still arrives the normal way.
  int value = 0;
  runOnWorker(
      &receiver, [] { return 42; }, [&](QObject*, int v) { value = v; }, [&](QObject*, const QString&) {});
  QTRY_COMPARE_WITH_TIMEOUT(value, 42, 10000);
}

// The window's work leaves Qt's global pool to Qt (its raster engine waits on it while
// painting) and runs below the GUI thread's priority, whatever thread of the pool
// takes it.
TEST(Worker, RunsOnItsOwnPoolBelowTheGuiThreadsPriority) {
  EXPECT_NE(&workerPool(), QThreadPool::globalInstance());
  QObject receiver;
  const int gui = ::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)));
  struct Seen {
    int nice = 0;
    bool inOwnPool = false, inGlobalPool = true;
  };
  std::vector<Seen> seen;
  for (int i = 0; i < 4; ++i)
    runOnWorker(
        &receiver,
        [] {
          Seen s;
          s.nice = ::getpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)));
          s.inOwnPool = workerPool().contains(QThread::currentThread());
          s.inGlobalPool = QThreadPool::globalInstance()->contains(QThread::currentThread());
          return s;
        },
        [&](QObject*, Seen s) { seen.push_back(s); }, [](QObject*, const QString&) {});
  QTRY_COMPARE_WITH_TIMEOUT(seen.size(), size_t{4}, 10000);
  for (const Seen& s : seen) {
    EXPECT_TRUE(s.inOwnPool);
    EXPECT_FALSE(s.inGlobalPool);
    // A nice value can only be raised without privileges: kWorkerNice, or the GUI's
    // when that was already higher.
    EXPECT_EQ(s.nice, std::max(gui, kWorkerNice));
  }
}

TEST(Worker, ALoaderThatThrowsKeepsThePreviousTraceOpen) {
  MainWindow w(false);
  w.resize(1400, 900);
  w.show();
  std::string error;
  auto doc = loadDocument(kSample, error);
  ASSERT_TRUE(doc) << error;
  w.setDocument(doc);
  QApplication::processEvents();
  w.loadJob()->setLoader(
      [](const std::string&, const LoadOptions&) -> LoadResult { throw std::runtime_error("boom"); });
  QSignalSpy failed(w.loadJob(), &LoadJob::failed);
  w.openFile(QStringLiteral("/any/trace.json"));
  ASSERT_TRUE(failed.wait(10000));
  QApplication::processEvents();
  EXPECT_EQ(w.document(), doc.get());  // still the sample
  EXPECT_TRUE(w.lastError().contains(QStringLiteral("internal error: boom"))) << w.lastError().toStdString();
  EXPECT_FALSE(w.lastError().contains('\n'));
  // The status bar tells what is open, not "Loading …" any more.
  bool loadingShown = false;
  for (QLabel* l : w.statusBar()->findChildren<QLabel*>())
    loadingShown |= l->isVisible() && l->text().startsWith(QStringLiteral("Loading"));
  EXPECT_FALSE(loadingShown);
  // A loader that returns an error goes the same way.
  w.loadJob()->setLoader([](const std::string&, const LoadOptions&) {
    LoadResult r;
    r.status = LoadStatus::InvalidInput;
    r.error = "not a trace at byte 3";
    return r;
  });
  w.openFile(QStringLiteral("/any/other.json"));
  ASSERT_TRUE(failed.wait(10000));
  QApplication::processEvents();
  EXPECT_EQ(w.document(), doc.get());
  EXPECT_TRUE(w.lastError().contains(QStringLiteral("not a trace at byte 3")));
}

}  // namespace
}  // namespace opscope::ui
