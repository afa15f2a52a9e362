// An execution trace opened beside its Kineto trace: linked on a worker, its node in
// the details of an op, the link report; a file that is not an ET changes nothing.
#include <gtest/gtest.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QTableWidget>
#include <QThread>

#include "et_document.h"
#include "main_window.h"
#include "panels/details_panel.h"
#include "panels/et_link_dialog.h"
#include "test_support.h"

namespace opscope::ui {
namespace {

bool waitForEt(MainWindow& w) {
  QElapsedTimer t;
  t.start();
  while (w.etBusy() && t.elapsed() < 60000) {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);
  }
  return !w.etBusy();
}

TEST(EtLinkUi, OpenLinkShowNodeInDetails) {
  const auto et = test::sharedTrace("simple_add_et.json.gz");
  const auto kineto = test::sharedTrace("simple_add_kineto.json.gz");
  if (!et || !kineto) GTEST_SKIP() << "../shared/traces not present";
  std::string error;
  auto doc = loadDocument(*kineto, error);
  ASSERT_TRUE(doc) << error;
  MainWindow w(false);
  w.show();
  w.setDocument(doc);
  w.openExecutionTrace(QString::fromStdString(*et));
  ASSERT_TRUE(waitForEt(w));
  const EtDocument* e = w.executionTrace();
  ASSERT_TRUE(e);
  EXPECT_EQ(e->link.linkedOps, 36u);
  EXPECT_EQ(e->link.linkedGpuEvents, 4u);

  const EventRef add = test::slicesNamed(*doc->trace, "aten::add").back();
  const QString html = detailsHtml(*doc->trace, add, e);
  EXPECT_TRUE(html.contains(QStringLiteral("Execution trace node"))) << html.toStdString();
  EXPECT_TRUE(html.contains(QStringLiteral("Tensor(float)")));
  EXPECT_TRUE(html.contains(QStringLiteral("aten::add.Tensor(Tensor self")));  // op_schema
  EXPECT_FALSE(detailsHtml(*doc->trace, add).contains(QStringLiteral("Execution trace node")));

  EtLinkDialog dialog(*e);
  EXPECT_EQ(dialog.table()->rowCount(), 0);  // nothing unlinked

  // Another trace drops the link: it belonged to the previous one.
  w.setDocument(doc);
  EXPECT_FALSE(w.executionTrace());
}

TEST(EtLinkUi, NotAnExecutionTraceLeavesEverythingAsItWas) {
  std::string error;
  auto doc = loadDocument(OPSCOPE_SOURCE_DIR "/resources/sample/sample.pt.trace.json.gz", error);
  ASSERT_TRUE(doc) << error;
  MainWindow w(false);
  w.show();
  w.setDocument(doc);
  w.openExecutionTrace(QStringLiteral(OPSCOPE_SOURCE_DIR "/resources/sample/sample.pt.trace.json.gz"));
  ASSERT_TRUE(waitForEt(w));
  EXPECT_FALSE(w.executionTrace());
  w.openExecutionTrace(QStringLiteral("/nonexistent/et.json"));
  ASSERT_TRUE(waitForEt(w));
  EXPECT_FALSE(w.executionTrace());
}

}  // namespace
}  // namespace opscope::ui
