#include "gui_main.h"

#include <QApplication>
#include <QBuffer>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QIcon>
#include <QImage>
#include <QLineEdit>
#include <QStatusBar>
#include <QThread>
#include <QTimer>
#include <cstdio>

#include "layout_report.h"
#include "main_window.h"
#include "open_bench.h"
#include "panels/analysis_panel.h"
#include "panels/cluster_view.h"
#include "panels/critical_path_view.h"
#include "panels/diff_panel.h"
#include "panels/op_kernels_view.h"
#include "panels/prediction_panel.h"
#include "ranks/rank_inputs.h"
#include "render_bench.h"
#include "report/export_request.h"
#include "report/multi_rank_report.h"
#include "save_file.h"
#include "timeline/timeline_widget.h"
#include "window_docks.h"

namespace opscope::ui {

namespace {

struct GuiOptions {
  std::string file, screenshot, select, range, search, analysis, op, gpu, compare, et, diff, layoutJson;
  bool prediction = false;
  int iteration = -1;
  int width = 1600, height = 1000;
  bool dark = false, benchRender = false, benchOpen = false, wholeList = false;
  std::string openDock;
  int frames = 15;
};

bool parseSize(const std::string& s, int& w, int& h) {
  return std::sscanf(s.c_str(), "%dx%d", &w, &h) == 2 && w >= 320 && h >= 240 && w <= 10000 && h <= 10000;
}

bool parseRange(const std::string& s, double& a, double& b) {
  char extra = 0;
  return std::sscanf(s.c_str(), "%lf:%lf%c", &a, &b, &extra) == 2 && b > a;
}

int usage(const char* what, const std::string& detail) {
  std::fprintf(stderr, "opscope: %s%s\n", what, detail.c_str());
  return 2;
}

// Loads synchronously for the automation modes; on failure prints the loader's line
// and sets the exit code (3 unreadable, 4 not a trace, as `summary`).
std::shared_ptr<const TraceDocument> loadForAutomation(const std::string& file, int& exitCode) {
  std::string error;
  LoadStatus status = LoadStatus::Ok;
  auto doc = loadDocument(file, error, &status);
  if (!doc) {
    std::fprintf(stderr, "opscope: %s: %s\n", file.c_str(), error.c_str());
    exitCode = status == LoadStatus::IoError ? 3 : 4;
  }
  return doc;
}

// --screenshot of an opscope-cluster table: the cluster view alone.
int clusterScreenshot(const GuiOptions& o) {
  std::vector<RankSummary> ranks;
  std::string error;
  if (!readRankTable(o.file, ranks, error) || !assignRanks(ranks, error)) {
    std::fprintf(stderr, "opscope: %s: %s\n", o.file.c_str(), error.c_str());
    return 4;
  }
  ClusterView v;
  v.resize(o.width, o.height);
  v.setDark(o.dark);
  v.setTable(QString::fromStdString(o.file), std::move(ranks));
  v.show();
  QApplication::processEvents();
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  v.grab().toImage().save(&buffer, "PNG");
  QString saveError;
  if (!saveBytes(QString::fromStdString(o.screenshot), bytes, &saveError)) {
    std::fprintf(stderr, "opscope: %s\n", saveError.toLocal8Bit().constData());
    return 3;
  }
  return 0;
}

int screenshot(const GuiOptions& o) {
  if (!o.file.empty() && isRankTablePath(o.file)) return clusterScreenshot(o);
  int code = 0;
  std::shared_ptr<const TraceDocument> doc;
  if (!o.file.empty()) {  // without a FILE: the window as a menu launch shows it
    doc = loadForAutomation(o.file, code);
    if (!doc) return code;
  }
  MainWindow w(/*restoreSettings=*/false);
  if (o.dark) w.setDarkTheme(true);
  w.resize(o.width, o.height);
  w.show();
  QApplication::processEvents();
  if (doc) w.setDocument(doc);
  QApplication::processEvents();
  if (!o.range.empty()) {
    double a = 0, b = 0;
    parseRange(o.range, a, b);
    const TimeNs t0 = doc->trace->minTs;
    w.timeline()->showRange(t0 + static_cast<TimeNs>(a * 1000), t0 + static_cast<TimeNs>(b * 1000));
  }
  if (!o.et.empty()) {
    w.openExecutionTrace(QString::fromStdString(o.et));
    QElapsedTimer t;
    t.start();
    while (w.etBusy() && t.elapsed() < 120000) {
      QApplication::processEvents(QEventLoop::AllEvents, 50);
      QThread::msleep(5);
    }
    if (!w.executionTrace()) {
      std::fprintf(stderr, "opscope: %s: not linked (see the message above)\n", o.et.c_str());
      return 4;
    }
  }
  if (!o.select.empty() && !w.selectByName(QString::fromStdString(o.select))) {
    std::fprintf(stderr, "opscope: %s: no event named '%s'\n", o.file.c_str(), o.select.c_str());
    return 4;
  }
  if (!o.range.empty() && !o.select.empty()) {
    // The range wins over the reveal of the selection.
    double a = 0, b = 0;
    parseRange(o.range, a, b);
    const TimeNs t0 = doc->trace->minTs;
    w.timeline()->showRange(t0 + static_cast<TimeNs>(a * 1000), t0 + static_cast<TimeNs>(b * 1000));
  }
  if (!o.search.empty()) w.searchBox()->setText(QString::fromStdString(o.search));
  if (!o.analysis.empty()) {
    // The Analysis dock on the given tab (a kind of the catalog, or the critical path),
    // once its worker has delivered.
    w.docks()->showBottom(w.analysisDock());  // as the toolbar button opens it
    if (findAnalysis(o.analysis)) w.analysis()->showChart(o.analysis);
    else w.analysis()->showCriticalPath();
    if (o.iteration >= 0) w.analysis()->setScope(o.iteration);
  }
  if (o.prediction) {
    w.docks()->showBottom(w.predictionDock());  // as the toolbar button opens it
    if (!w.prediction()->setGpus(QString::fromStdString(o.gpu), QString::fromStdString(o.compare))) {
      std::fprintf(stderr, "opscope: no GPU named '%s' (opscope predict --list-gpus)\n",
                   (o.gpu.empty() ? o.compare : o.gpu).c_str());
      return 2;
    }
    QElapsedTimer t;
    t.start();
    QApplication::processEvents();
    while ((w.prediction()->busy() || (!w.prediction()->results() && !w.prediction()->needsGpu())) &&
           t.elapsed() < 120000) {
      QApplication::processEvents(QEventLoop::AllEvents, 50);
      QThread::msleep(5);
    }
  }
  if (!o.diff.empty()) {
    // The Compare dock once its worker has delivered; --iteration N compares iteration N
    // of both.
    auto b = o.diff == o.file ? doc : loadForAutomation(o.diff, code);
    if (!b) return code;
    w.docks()->showBottom(w.diffDock());  // as the toolbar button opens it
    w.diff()->compare(doc, b);
    if (o.iteration >= 0) w.diff()->setIterations(o.iteration, o.iteration);
    QElapsedTimer t;
    t.start();
    while ((w.diff()->busy() || !w.diff()->result()) && t.elapsed() < 120000) {
      QApplication::processEvents(QEventLoop::AllEvents, 50);
      QThread::msleep(5);
    }
  }
  if (doc && w.analysisDock()->isVisible()) {
    // What a user sees once the dock's worker has delivered, not its "computing" state.
    QElapsedTimer t;
    t.start();
    while ((w.analysis()->busy() || !w.analysis()->results()) && t.elapsed() < 120000) {
      QApplication::processEvents(QEventLoop::AllEvents, 50);
      QThread::msleep(5);
    }
    // The critical path tab: its path marked on the timeline, the window in view.
    if (o.analysis == "critical-path" && w.analysis()->results() && w.analysis()->results()->criticalPath &&
        w.analysis()->results()->criticalPath->ok()) {
      const CriticalPath& p = *w.analysis()->results()->criticalPath;
      w.analysis()->criticalPath()->mark();
      w.timeline()->showRange(p.window.start, p.window.wallEnd);
    }
    OpKernelsView* view = w.analysis()->opKernels();
    if (!o.op.empty()) w.analysis()->showOpKernels(QString::fromStdString(o.op), true);
    while (view->busy() && t.elapsed() < 120000) {
      QApplication::processEvents(QEventLoop::AllEvents, 50);
      QThread::msleep(5);
    }
  }
  for (int k = 0; k < 5; ++k) QApplication::processEvents();
  const QString out = QString::fromStdString(o.screenshot);
  if (out.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive)) {
    // A vector PDF of the timeline (what File > Export timeline as PDF writes).
    QString error;
    if (!w.exportPdf(out, &error)) {
      std::fprintf(stderr, "opscope: cannot write %s: %s\n", o.screenshot.c_str(), error.toLocal8Bit().constData());
      return 3;
    }
    return 0;
  }
  if (o.wholeList) {
    // The timeline alone, every track of it (File > Export timeline as PNG, whole list).
    QString error;
    if (!w.exportPng(out, 1.0, &error, /*wholeList=*/true)) {
      std::fprintf(stderr, "opscope: cannot write %s: %s\n", o.screenshot.c_str(), error.toLocal8Bit().constData());
      return 3;
    }
    return 0;
  }
  const QImage image = w.grab().toImage();
  QByteArray bytes;
  QBuffer f(&bytes);
  f.open(QIODevice::WriteOnly);
  image.save(&f, "PNG");
  QString error;
  if (!saveBytes(QString::fromStdString(o.screenshot), bytes, &error)) {
    std::fprintf(stderr, "opscope: %s\n", error.toLocal8Bit().constData());
    return 3;
  }
  if (!o.layoutJson.empty() &&
      !saveBytes(QString::fromStdString(o.layoutJson), QByteArray::fromStdString(layoutReportJson(w)), &error)) {
    std::fprintf(stderr, "opscope: %s\n", error.toLocal8Bit().constData());
    return 3;
  }
  return 0;
}

}  // namespace

int runGui(int argc, char** argv, const std::vector<std::string>& args) {
  GuiOptions o;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= args.size()) return false;
      out = args[++i];
      return true;
    };
    std::string v;
    if (a == "--screenshot") {
      if (!value(o.screenshot)) return usage("--screenshot needs an output PNG path", "");
    } else if (a == "--select") {
      if (!value(o.select)) return usage("--select needs a NAME", "");
    } else if (a == "--search") {
      if (!value(o.search)) return usage("--search needs a TEXT", "");
    } else if (a == "--range") {
      double x, y;
      if (!value(o.range) || !parseRange(o.range, x, y))
        return usage("--range expects START_US:END_US with END > START", "");
    } else if (a == "--size") {
      if (!value(v) || !parseSize(v, o.width, o.height)) return usage("--size expects WxH (e.g. 1600x1000)", "");
    } else if (a == "--layout-json") {
      if (!value(o.layoutJson)) return usage("--layout-json needs an output JSON path", "");
    } else if (a == "--whole-list") {
      o.wholeList = true;
    } else if (a == "--dark") {
      o.dark = true;
    } else if (a == "--analysis") {
      if (!value(o.analysis) || (o.analysis != "critical-path" && !findAnalysis(o.analysis)))
        return usage("--analysis expects a chart: ", analysisNames() + ", or critical-path");
    } else if (a == "--et") {
      if (!value(o.et)) return usage("--et needs an execution trace file", "");
    } else if (a == "--diff") {
      if (!value(o.diff)) return usage("--diff needs a second trace B (FILE is A)", "");
    } else if (a == "--prediction") {
      o.prediction = true;
    } else if (a == "--gpu") {
      if (!value(o.gpu)) return usage("--gpu needs a GPU name (opscope predict --list-gpus)", "");
    } else if (a == "--compare") {
      if (!value(o.compare)) return usage("--compare needs a GPU name (opscope predict --list-gpus)", "");
    } else if (a == "--op") {
      if (!value(o.op)) return usage("--op needs an op NAME", "");
    } else if (a == "--iteration") {
      if (!value(v) || (o.iteration = std::atoi(v.c_str())) < 0)
        return usage("--iteration expects a 0-based index", "");
    } else if (a == "--bench-render") {
      o.benchRender = true;
    } else if (a == "--bench-open") {
      o.benchOpen = true;
    } else if (a == "--open-dock") {
      if (!value(o.openDock) || (o.openDock != "analysis" && o.openDock != "prediction"))
        return usage("--open-dock expects analysis or prediction", "");
    } else if (a == "--frames") {
      if (!value(v) || (o.frames = std::atoi(v.c_str())) < 1) return usage("--frames expects a positive count", "");
    } else if (!a.empty() && a[0] == '-') {
      return usage("unknown option ", a + " (try opscope --help)");
    } else if (o.file.empty()) {
      o.file = a;
    } else {
      return usage("more than one FILE given: ", a);
    }
  }
  if (!o.et.empty() && o.file.empty()) return usage("--et needs the Kineto trace FILE it was recorded with", "");
  if (o.benchRender && o.file.empty()) return usage("--bench-render", " needs a FILE");
  if (o.benchOpen && o.file.empty()) return usage("--bench-open", " needs a FILE");
  if (!o.openDock.empty() && !o.benchOpen) return usage("--open-dock goes with --bench-open", "");
  if (o.file.empty() &&
      (!o.select.empty() || !o.range.empty() || !o.search.empty() || !o.analysis.empty() || o.prediction))
    return usage("--select, --range, --search, --analysis and --prediction need a FILE", "");
  if (!o.op.empty() && o.analysis != "op-kernels") return usage("--op goes with --analysis op-kernels", "");
  if ((!o.gpu.empty() || !o.compare.empty()) && !o.prediction)
    return usage("--gpu and --compare go with --prediction", "");
  if (o.prediction && !o.analysis.empty())
    return usage("--prediction and --analysis show different docks; choose one", "");
  if (o.prediction && o.screenshot.empty()) return usage("--prediction goes with --screenshot", "");
  if (!o.diff.empty() && (o.file.empty() || o.screenshot.empty() || o.prediction || !o.analysis.empty()))
    return usage("--diff B goes with --screenshot and a FILE (A), without --analysis or --prediction", "");
  if ((!o.select.empty() || !o.range.empty() || !o.search.empty() || !o.analysis.empty() || !o.layoutJson.empty()) &&
      o.screenshot.empty())
    return usage("--select, --range, --search, --analysis and --layout-json go with --screenshot", "");

  // Without a display, a picture or a render benchmark draws offscreen (the same
  // fonts and widgets); a window says so in one line instead of Qt's abort.
  const bool noDisplay = qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
                         qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
  if (noDisplay && (!o.screenshot.empty() || o.benchRender || o.benchOpen)) qputenv("QT_QPA_PLATFORM", "offscreen");
  else if (noDisplay) {
    std::fprintf(stderr,
                 "opscope: no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset); "
                 "--screenshot and the commands of opscope --help work without one\n");
    return 2;
  }
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("opscope"));
  QApplication::setApplicationName(QStringLiteral("opscope"));
  // The desktop entry's name, so a Wayland compositor or a dock matches the window to
  // org.opscope.opscope.desktop and its icon; the theme's icon when installed, else
  // the one compiled in (a build run from its folder).
  QGuiApplication::setDesktopFileName(QStringLiteral("org.opscope.opscope"));
  QApplication::setWindowIcon(
      QIcon::fromTheme(QStringLiteral("org.opscope.opscope"), QIcon(QStringLiteral(":/icons/opscope.svg"))));
  QApplication::setStyle(QStringLiteral("Fusion"));

  if (!o.screenshot.empty()) return screenshot(o);
  if (o.benchOpen) {
    OpenBenchOptions bo;
    bo.file = o.file;
    bo.width = o.width;
    bo.height = o.height;
    bo.openDock = o.openDock;
    return runOpenBench(bo);
  }
  if (o.benchRender) {
    int code = 0;
    auto doc = loadForAutomation(o.file, code);
    if (!doc) return code;
    std::printf("loaded in %.2f s (parse %.2f, hierarchy %.2f, views %.2f)\n",
                doc->timings.parseSeconds + doc->timings.hierarchySeconds + doc->prepareSeconds,
                doc->timings.parseSeconds, doc->timings.hierarchySeconds, doc->prepareSeconds);
    RenderBenchOptions bo;
    bo.framesPerLevel = o.frames;
    runRenderBench(doc, bo);
    return 0;
  }
  MainWindow w;
  // A rank table opens as the cluster view alone, not in front of an empty main window:
  // the main window appears when a rank is opened from it (or when the table cannot be
  // read, with the error), and closing the lone cluster view quits.
  const bool rankTable = !o.file.empty() && isRankTablePath(o.file);
  if (!rankTable) w.show();
  if (!o.et.empty()) {
    // Linked once the trace it belongs to has loaded.
    const QString et = QFileInfo(QString::fromStdString(o.et)).absoluteFilePath();
    auto once = std::make_shared<QMetaObject::Connection>();
    *once = QObject::connect(&w, &MainWindow::documentChanged, &w, [&w, et, once] {
      QObject::disconnect(*once);
      w.openExecutionTrace(et);
    });
  }
  const QString file = QFileInfo(QString::fromStdString(o.file)).absoluteFilePath();
  if (rankTable && !w.openClusterTable(file)) {
    w.show();
    // The error went to the status bar while it was hidden, where QStatusBar leaves its
    // normal widgets shown under the message; set again (cleared first: the same text is
    // no change to it), it hides them.
    const QString message = w.statusBar()->currentMessage();
    w.statusBar()->clearMessage();
    w.statusBar()->showMessage(message, 15000);
  } else if (!rankTable && !o.file.empty()) w.openFile(file);
  return app.exec();
}

}  // namespace opscope::ui
