#include "main_window.h"

#include <QAction>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <cstdio>

#include "app_theme.h"
#include "compare_view.h"
#include "dialog_folder.h"
#include "et_document.h"
#include "file_filters.h"
#include "load_job.h"
#include "palette/command_palette.h"
#include "palette/key_help_overlay.h"
#include "palette/window_commands.h"
#include "panels/analysis_panel.h"
#include "panels/cluster_view.h"
#include "panels/details_panel.h"
#include "panels/diff_panel.h"
#include "panels/et_link_dialog.h"
#include "panels/op_tree_panel.h"
#include "panels/prediction_panel.h"
#include "panels/preferences_dialog.h"
#include "panels/range_stats_panel.h"
#include "panels/warnings_dialog.h"
#include "panels/welcome_page.h"
#include "rank_filter.h"
#include "ranks/rank_inputs.h"
#include "recent_files.h"
#include "report/multi_rank_report.h"
#include "report/version_info.h"
#include "screen_fit.h"
#include "search_controller.h"
#include "timeline/timeline_widget.h"
#include "timeline_export.h"
#include "trace_status_bar.h"
#include "track_commands.h"
#include "window_docks.h"

namespace opscope::ui {

namespace {

// saveState()'s version: bumped when the default layout changes so that an old saved
// layout does not bring back what the new default hides.
constexpr int kLayoutVersion = 1;

}  // namespace

MainWindow::MainWindow(bool restoreSettings, QWidget* parent) : QMainWindow(parent), restoreSettings_(restoreSettings) {
  setWindowTitle(QStringLiteral("opscope"));
  setAcceptDrops(true);
  central_ = new QStackedWidget(this);
  welcome_ = new WelcomePage(central_);
  // The timeline, and under it the compared trace's when the Compare dock shows one.
  auto* timelines = new QSplitter(Qt::Vertical, central_);
  timeline_ = new TimelineWidget(timelines);
  timelines->addWidget(timeline_);
  compare_ = new CompareView(timeline_, timelines);
  timelines->addWidget(compare_);
  central_->addWidget(welcome_);
  central_->addWidget(timelines);
  setCentralWidget(central_);
  connect(welcome_, &WelcomePage::openRequested, this, &MainWindow::openFile);
  connect(welcome_, &WelcomePage::openDialogRequested, this, &MainWindow::chooseAndOpen);
  palette_ = new CommandPalette(this);
  keyHelp_ = new KeyHelpOverlay(this);
  job_ = new LoadJob(this);
  docks_ = new WindowDocks(this);
  buildMenus();
  search_ = new SearchController(this, timeline_);
  docks_->addToolbar();
  status_ = new TraceStatusBar(statusBar(), job_);
  etLinker_ = new EtLinker(this);
  connect(etLinker_, &EtLinker::linked, this, &MainWindow::onEtLinked);
  connect(etLinker_, &EtLinker::failed, this, [this](const QString& title, const QString& message) {
    statusBar()->clearMessage();
    showError(title, message);
  });
  connect(status_, &TraceStatusBar::warningsRequested, this, &MainWindow::showWarnings);
  connect(status_, &TraceStatusBar::etReportRequested, this, &MainWindow::showEtLinkReport);
  connect(job_, &LoadJob::loaded, this, &MainWindow::onLoaded);
  connect(job_, &LoadJob::failed, this, &MainWindow::onFailed);
  connect(job_, &LoadJob::cancelled, this, &MainWindow::onCancelled);
  connect(timeline_, &TimelineWidget::selectionChanged, this, &MainWindow::onSelection);
  connect(timeline_, &TimelineWidget::areaCleared, this, [this] {
    docks_->rangeStats->clear();
    docks_->rangeDock->hide();
  });
  connect(timeline_, &TimelineWidget::areaSelected, this, [this](TimeRange r, std::vector<uint32_t> tracks) {
    if (!doc_) return;
    docks_->rangeStats->showRange(doc_->trace.get(), r.start, r.end, tracks);
    docks_->showBottom(docks_->rangeDock);
  });
  connect(docks_->details, &DetailsPanel::eventLinkActivated, this, [this](EventRef r) { timeline_->select(r, true); });
  connect(docks_->opTree, &OpTreePanel::eventActivated, this, [this](EventRef r) { timeline_->select(r, true); });
  connect(docks_->analysis, &AnalysisPanel::eventsActivated, this, &MainWindow::markEvents);
  connect(docks_->analysis, &AnalysisPanel::pathMarked, this,
          [this](std::vector<PathArrow> arrows) { timeline_->setPathArrows(std::move(arrows)); });
  connect(docks_->analysis, &AnalysisPanel::failed, this, &MainWindow::showError);
  connect(docks_->prediction, &PredictionPanel::failed, this, &MainWindow::showError);
  connect(docks_->prediction, &PredictionPanel::opActivated, this, [this](EventRef r) { timeline_->select(r, true); });
  auto findName = [this](const QString& name) { search_->find(name); };
  connect(docks_->analysis, &AnalysisPanel::nameActivated, this, findName);
  connect(docks_->diff, &DiffPanel::nameActivated, this, findName);
  connect(docks_->diff, &DiffPanel::compared, compare_, &CompareView::showTrace);
  connect(docks_->diff, &DiffPanel::failed, this, &MainWindow::showError);
  connect(docks_->diff, &DiffPanel::loading, this, [this](const QString& text) {
    if (text.isEmpty()) statusBar()->clearMessage();
    else statusBar()->showMessage(text);
  });
  connect(docks_->diffDock->toggleViewAction(), &QAction::toggled, this, [this](bool on) {
    compare_->setVisible(on && compare_->hasTrace());  // closing the comparison closes its timeline
  });
  // Scripted windows (screenshots, tests) keep a fixed size whatever the screen.
  resize(restoreSettings_ ? firstWindowSize(this) : kPreferredWindowSize);
  // Without a saved layout the timeline owns the window: the op tree is a narrow column,
  // Details appears with the first selection, the area table with the first area
  // selection, and the analyses and prediction wait for their toolbar button.
  docks_->hideAtStart();
  if (restoreSettings_) {
    QSettings s;
    restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    clampToScreen(this);  // saved on a larger screen, or grown past it
    // Layouts saved before the timeline-first default (version 0) are not restored.
    restoredState_ = restoreState(s.value(QStringLiteral("window/state")).toByteArray(), kLayoutVersion);
    docks_->setRestoredState(restoredState_);
    // Scripted windows (screenshots, tests) keep the defaults: built-in rules, Auto
    // units, the light theme, the trace's GPU.
    QString error;
    std::shared_ptr<const KernelClassifier> classifier =
        kernelClassifierFor(loadPreferences(s).kernelClassesFile, &error);
    if (!error.isEmpty())
      statusBar()->showMessage(QStringLiteral("Kernel-class rules: %1 (Edit \u25B8 Preferences)").arg(error), 15000);
    applyPreferences(loadPreferences(s), classifier, !restoredState_);
  }
}

MainWindow::~MainWindow() {
  // ~QWidget closes the window and hides the docks, which toggles their view actions
  // after this class is gone: no slot of ours may run by then.
  for (QDockWidget* d : findChildren<QDockWidget*>()) d->toggleViewAction()->disconnect(this);
}

void MainWindow::showEvent(QShowEvent* e) {
  QMainWindow::showEvent(e);
  if (restoreSettings_) clampToScreen(this);  // sized before the window knew its screen
  // Tabified docks show their last tab when first laid out; without a saved layout the
  // analyses come first and the prediction (which computes only when shown) a tab away.
  if (!shownOnce_ && !restoredState_) docks_->analysisDock->raise();
  shownOnce_ = true;
}

void MainWindow::resizeEvent(QResizeEvent* e) {
  QMainWindow::resizeEvent(e);
  // A panel whose content asked for more room never leaves the window past the screen
  // (a maximised window opening the Compare dock grew to 815 px on a 720 px screen).
  if (restoreSettings_ && isVisible()) QTimer::singleShot(0, this, [this] { clampToScreen(this); });
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
  file->addAction(QStringLiteral("&Open…"), QKeySequence::Open, this, &MainWindow::chooseAndOpen);
  // A folder of rank traces (trace_rank0.json.gz, …) opens as one multi-rank session.
  file->addAction(QStringLiteral("Open &folder of ranks…"), QKeySequence(QStringLiteral("Ctrl+Shift+O")), this, [this] {
    const QString dir =
        QFileDialog::getExistingDirectory(this, QStringLiteral("Open a folder of rank traces"), dialogStart());
    if (!dir.isEmpty()) openFile(dir);
  });
  QAction* openEt = file->addAction(QStringLiteral("Open &execution trace…"), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Open execution trace"), dialogStart(),
                                                      executionTraceFileFilter());
    if (!path.isEmpty()) openExecutionTrace(path);
  });
  // Another run against this one (before / after a change), or two iterations of this one.
  QAction* compare =
      file->addAction(QStringLiteral("&Compare with…"), QKeySequence(QStringLiteral("Ctrl+Shift+D")), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, QStringLiteral("Compare with"), dialogStart(), traceFileFilter());
        if (!path.isEmpty()) compareWith(path);
      });
  QAction* compareSelf =
      file->addAction(QStringLiteral("Compare &two iterations"), this, [this] { compareWith(QString()); });
  for (QAction* a : {openEt, compare, compareSelf}) a->setEnabled(false);
  connect(this, &MainWindow::documentChanged, openEt, [this, openEt, compare, compareSelf] {
    for (QAction* a : {openEt, compare, compareSelf}) a->setEnabled(doc_ != nullptr);
  });
  recent_ = new RecentFiles(file->addMenu(QStringLiteral("Open &recent")), this);
  connect(recent_, &RecentFiles::openRequested, this, &MainWindow::openFile);
  connect(recent_, &RecentFiles::changed, welcome_, &WelcomePage::setRecent);
  welcome_->setRecent(recent_->list());
  file->addSeparator();
  file->addAction(QStringLiteral("Export timeline as &PNG…"), this, [this] {
    if (doc_) statusBar()->showMessage(chooseAndExportTimelinePng(this, *timeline_), 5000);
  });
  file->addAction(QStringLiteral("Export timeline as P&DF…"), this, [this] {
    if (doc_) statusBar()->showMessage(chooseAndExportTimelinePdf(this, *timeline_, windowTitle()), 5000);
  });
  file->addAction(QStringLiteral("Export &chart…"), QKeySequence(QStringLiteral("Ctrl+E")), this, [this] {
    const QString path = docks_->exportRaisedChart();
    if (!path.isEmpty()) statusBar()->showMessage(QStringLiteral("Saved %1").arg(path), 5000);
  });
  file->addSeparator();
  file->addAction(QStringLiteral("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* edit = menuBar()->addMenu(QStringLiteral("&Edit"));
  edit->addAction(QStringLiteral("&Preferences…"), QKeySequence(QStringLiteral("Ctrl+,")), this,
                  &MainWindow::showPreferences);

  QMenu* view = menuBar()->addMenu(QStringLiteral("&View"));
  view->addAction(QStringLiteral("Fit &all"), QKeySequence(Qt::Key_0), timeline_, &TimelineWidget::fitAll);
  view->addAction(QStringLiteral("Fit &selection"), timeline_, &TimelineWidget::fitSelection);
  view->addAction(QStringLiteral("&Expand all threads"), this, [this] { timeline_->setAllTracksExpanded(true); });
  view->addAction(QStringLiteral("&Collapse all threads"), this, [this] { timeline_->setAllTracksExpanded(false); });
  view->addSeparator();
  view->addAction(QStringLiteral("Command &palette…"), QKeySequence(QStringLiteral("Ctrl+Shift+P")), this,
                  &MainWindow::openCommandPalette);
  view->addSeparator();
  darkAction_ = view->addAction(QStringLiteral("&Dark theme"));
  darkAction_->setCheckable(true);
  connect(darkAction_, &QAction::toggled, this, &MainWindow::setDarkTheme);
  view->addSeparator();
  docks_->addViewActions(view);
  tracks_ = new TrackCommands(view, timeline_, {timeline_, compare_->timeline()}, restoreSettings_);

  // Multi-rank sessions: which ranks the timeline shows.
  ranks_ = new RankFilter(view, timeline_, this);
  connect(ranks_, &RankFilter::failed, this, &MainWindow::showError);
  connect(ranks_, &RankFilter::message, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
  QMenu* help = menuBar()->addMenu(QStringLiteral("&Help"));
  QAction* keys = help->addAction(QStringLiteral("&Keys and mouse"), this, &MainWindow::showKeyHelp);
  keys->setShortcuts({QKeySequence(Qt::Key_F1), QKeySequence(QStringLiteral("?"))});
  help->addAction(QStringLiteral("&About opscope"), this, [this] {
    const QStringList lines = QString::fromStdString(versionText(qVersion())).trimmed().split('\n');
    QMessageBox::about(this, QStringLiteral("About opscope"),
                       QStringLiteral("<h3>%1</h3><p>A timeline and profiling viewer for GPU and ML traces.</p>"
                                      "<p style=\"color:gray\">Runs with %2</p>")
                           .arg(lines.value(0).toHtmlEscaped(), lines.value(1).toHtmlEscaped()));
  });
}

void MainWindow::openFile(const QString& path) {
  if (isRankTablePath(QFile::encodeName(path).toStdString())) {
    openClusterTable(path);
    return;
  }
  loadingFileList_ = false;
  loadingPath_ = path;
  status_->setLoading(true, QStringLiteral("Loading %1…").arg(QFileInfo(path).fileName()));
  job_->start(path);
}

void MainWindow::openFiles(const QStringList& files) {
  if (files.size() == 1) {
    openFile(files.front());
    return;
  }
  loadingFileList_ = true;
  loadingPath_ = QFileInfo(files.front()).absolutePath();
  status_->setLoading(true, QStringLiteral("Loading %1 ranks…").arg(files.size()));
  job_->startFiles(files);
}

bool MainWindow::showRanks(const QString& list) {
  QString error, status;
  if (!ranks_->show(list, error, status)) {
    showError(QStringLiteral("Show ranks"), error);
    return false;
  }
  statusBar()->showMessage(status, 8000);
  return true;
}

bool MainWindow::openClusterTable(const QString& path) {
  std::vector<RankSummary> ranks;
  std::string error;
  const std::string file = QFile::encodeName(path).toStdString();
  if (!readRankTable(file, ranks, error) || !assignRanks(ranks, error)) {
    showError(QStringLiteral("Cannot open cluster table"),
              QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(error)));
    return false;
  }
  if (!clusterView_) {
    clusterView_ = new ClusterView(this);
    clusterView_->setWindowFlag(Qt::Window);
    clusterView_->resize(fittedWindowSize(clusterView_, {1100, 750}));
    connect(clusterView_, &ClusterView::openRequested, this, [this](std::vector<std::string> files) {
      QStringList list;
      for (const std::string& f : files) list << QFile::decodeName(f.c_str());
      openFiles(list);
      show();  // hidden while a table opened at start was the only window
      raise();
      activateWindow();
    });
    // The cluster view is a window of the main one (a transient), so Qt does not quit when
    // it closes: with the main window never shown (a table opened at start), closing it
    // is closing the application (not through close(), which would store the geometry of
    // a window never shown over the user's).
    connect(clusterView_, &ClusterView::closed, this, [this] {
      if (!isVisible()) QCoreApplication::quit();
    });
  }
  clusterView_->setWindowTitle(QStringLiteral("%1 — opscope cluster view").arg(QFileInfo(path).fileName()));
  clusterView_->setDark(darkAction_ && darkAction_->isChecked());
  clusterView_->setTable(path, std::move(ranks));
  clusterView_->show();
  clampToScreen(clusterView_);  // with the window manager's frame known
  clusterView_->raise();
  recent_->add(path);
  return true;
}

void MainWindow::onLoaded(std::shared_ptr<const TraceDocument> doc) {
  status_->setLoading(false);
  if (!loadingFileList_) recent_->add(QString::fromStdString(doc->path));
  setDocument(std::move(doc));
}

void MainWindow::onFailed(const QString& path, const QString& message) {
  status_->setLoading(false);
  status_->showDocument(doc_.get());  // the trace that was open stays open
  // An execution trace opened as a timeline: offered to link with the open trace.
  if (isExecutionTraceFile(path.toStdString())) {
    const QString name = QFileInfo(path).fileName();
    if (!doc_ || !restoreSettings_) {
      showError(QStringLiteral("An execution trace"),
                QStringLiteral("%1 is a PyTorch execution trace, not a timeline: open the Kineto trace recorded with "
                               "it, then File \u25B8 Open execution trace\u2026 links them")
                    .arg(name));
      return;
    }
    const auto answer = QMessageBox::question(
        this, QStringLiteral("An execution trace"),
        QStringLiteral("%1 is a PyTorch execution trace, not a timeline.\n\nLink it with the open trace (%2)? Each op "
                       "then shows its execution-trace node, shapes and data flow in Details.")
            .arg(name, QFileInfo(QString::fromStdString(doc_->path)).fileName()));
    if (answer == QMessageBox::Yes) openExecutionTrace(path);
    return;
  }
  showError(QStringLiteral("Cannot open trace"), QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), message));
}

void MainWindow::showError(const QString& title, const QString& message) {
  lastError_ = message;
  statusBar()->showMessage(message, 15000);
  if (!restoreSettings_) {  // scripted (screenshots, tests): no dialog to wait on
    std::fprintf(stderr, "opscope: %s\n", message.toLocal8Bit().constData());
    return;
  }
  // Window-modal but not blocking: a worker's error never stalls the event loop.
  auto* box = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

void MainWindow::onCancelled(const QString& path) {
  status_->setLoading(false);
  statusBar()->showMessage(QStringLiteral("Loading %1 cancelled").arg(QFileInfo(path).fileName()), 5000);
  status_->showDocument(doc_.get());
}

void MainWindow::setDocument(std::shared_ptr<const TraceDocument> doc) {
  doc_ = std::move(doc);
  et_.reset();  // linked with the previous trace
  etLinker_->cancel();
  timeline_->setData(doc_);
  if (doc_) {  // a trace's folder; a folder of ranks itself
    const QFileInfo opened(QString::fromStdString(doc_->path));
    setDialogFolder(opened.isDir() ? opened.absoluteFilePath() : opened.absolutePath());
  }
  central_->setCurrentWidget(doc_ ? timeline_->parentWidget() : welcome_);
  // A stacked widget's minimum is the largest of all its pages', hidden ones included:
  // the welcome page's (~330 px) kept the timeline from shrinking under a tall bottom
  // dock. Hidden, it asks for nothing.
  const auto policy = doc_ ? QSizePolicy::Ignored : QSizePolicy::Preferred;
  welcome_->setSizePolicy(policy, policy);
  timeline_->setFocus();  // W/S/A/D work at once, not typed into the search box
  search_->setDocument(doc_);
  docks_->opTree->setDocument(doc_);
  docks_->analysis->setDocument(doc_);
  docks_->prediction->setDocument(doc_);
  docks_->diff->clear();  // it compared the previous trace
  compare_->showTrace(nullptr, 0, 0);
  docks_->rangeStats->clear();
  docks_->details->showDetails(nullptr, std::nullopt);
  status_->showDocument(doc_.get());
  ranks_->setDocument(doc_.get());
  if (doc_)
    setWindowTitle(QStringLiteral("%1 — opscope").arg(QFileInfo(QString::fromStdString(doc_->path)).fileName()));
  emit documentChanged();
}

void MainWindow::openExecutionTrace(const QString& path) {
  if (!doc_) return;
  statusBar()->showMessage(QStringLiteral("Linking %1…").arg(QFileInfo(path).fileName()));
  etLinker_->link(path, doc_);
}

void MainWindow::onEtLinked(std::shared_ptr<const EtDocument> et, const QString& path) {
  et_ = std::move(et);
  docks_->prediction->setExtraShapes(et_->shapes, QFileInfo(path).fileName());
  statusBar()->showMessage(QString::fromStdString(et_->link.summaryLine()), 15000);
  status_->showEtLink(QStringLiteral("ET: %1/%2 ops, %3/%4 GPU events linked")
                          .arg(et_->link.linkedOps)
                          .arg(et_->link.etOps)
                          .arg(et_->link.linkedGpuEvents)
                          .arg(et_->link.gpuEvents));
  onSelection(timeline_->selected());
}

void MainWindow::compareWith(const QString& path) {
  if (!doc_) return;
  docks_->diffDock->show();
  docks_->diffDock->raise();
  if (path.isEmpty()) {
    docks_->diff->compare(doc_, doc_);
    if (doc_->trace->iterations.size() >= 2)
      docks_->diff->setIterations(0, static_cast<int>(doc_->trace->iterations.size()) - 1);
    return;
  }
  docks_->diff->compareWithFile(doc_, path);
}

void MainWindow::showEtLinkReport() {
  if (!et_) return;
  auto* dialog = new EtLinkDialog(*et_, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &EtLinkDialog::eventActivated, this, [this](EventRef r) { timeline_->select(r, true); });
  dialog->show();
}

// What tests and automation reach through the window, handled by its parts.
TimelineWidget* MainWindow::timelineB() const { return compare_->timeline(); }
DetailsPanel* MainWindow::details() const { return docks_->details; }
OpTreePanel* MainWindow::opTree() const { return docks_->opTree; }
RangeStatsPanel* MainWindow::rangeStats() const { return docks_->rangeStats; }
AnalysisPanel* MainWindow::analysis() const { return docks_->analysis; }
PredictionPanel* MainWindow::prediction() const { return docks_->prediction; }
DiffPanel* MainWindow::diff() const { return docks_->diff; }
QDockWidget* MainWindow::analysisDock() const { return docks_->analysisDock; }
QDockWidget* MainWindow::predictionDock() const { return docks_->predictionDock; }
QDockWidget* MainWindow::diffDock() const { return docks_->diffDock; }
QDockWidget* MainWindow::detailsDock() const { return docks_->detailsDock; }
QDockWidget* MainWindow::rangeDock() const { return docks_->rangeDock; }
bool MainWindow::etBusy() const { return etLinker_->busy(); }
QLineEdit* MainWindow::searchBox() const { return search_->box(); }
QString MainWindow::searchStatus() const { return search_->status(); }
bool MainWindow::runSearch(const QString& text, bool regex) { return search_->run(text, regex); }
void MainWindow::stepSearch(int direction) { search_->step(direction); }
size_t MainWindow::searchMatchCount() const { return search_->matchCount(); }
bool MainWindow::selectByName(const QString& name) { return search_->selectByName(name); }
void MainWindow::markEvents(const QString& what, std::vector<EventRef> events) {
  search_->markEvents(what, std::move(events));
}
bool MainWindow::exportPng(const QString& path, double scale, QString* error, bool wholeList) {
  return exportTimelinePng(*timeline_, path, scale, error, wholeList);
}
bool MainWindow::exportPdf(const QString& path, QString* error) {
  return exportTimelinePdf(*timeline_, path, windowTitle(), error);
}

void MainWindow::onSelection(std::optional<EventRef> ref) {
  docks_->details->showDetails(doc_ ? doc_->trace.get() : nullptr, ref, et_.get());
  if (ref && docks_->detailsDock->isHidden()) docks_->detailsDock->show();
  search_->markCollectivePeers(ref);
}

void MainWindow::showWarnings() {
  if (!doc_) return;
  WarningsDialog d(doc_->trace->diagnostics, QFileInfo(QString::fromStdString(doc_->path)).fileName(), this);
  d.exec();
}

void MainWindow::setDarkTheme(bool dark) {
  if (darkAction_ && darkAction_->isChecked() != dark) darkAction_->setChecked(dark);
  applyApplicationTheme(dark);
  timeline_->setTheme(dark ? Theme::Dark : Theme::Light);
  compare_->timeline()->setTheme(dark ? Theme::Dark : Theme::Light);
  docks_->analysis->setDark(dark);
  docks_->prediction->setDark(dark);
  docks_->diff->setDark(dark);
  docks_->details->setDark(dark);
  if (clusterView_) clusterView_->setDark(dark);
  if (restoreSettings_) QSettings().setValue(QStringLiteral("view/dark"), dark);
}

void MainWindow::showPreferences() {
  PreferencesDialog d(prefs_, this);
  if (d.exec() != QDialog::Accepted) return;
  if (restoreSettings_) {
    QSettings s;
    savePreferences(s, d.preferences());
  }
  applyPreferences(d.preferences(), d.classifier(), d.applyLayoutNow());
}

void MainWindow::applyPreferences(const Preferences& p, std::shared_ptr<const KernelClassifier> classifier,
                                  bool layoutNow) {
  const bool gpuChanged = p.defaultGpu != prefs_.defaultGpu;
  prefs_ = p;
  setTimeUnit(p.timeUnit);
  timeline_->update();
  compare_->timeline()->update();
  docks_->opTree->update();
  setDarkTheme(p.dark);  // also re-renders Details, whose durations follow the unit
  // Only a changed default moves the dock off the GPU the user picked in it.
  if (gpuChanged) docks_->prediction->setGpus(p.defaultGpu, docks_->prediction->compareGpu());
  if (classifier) docks_->analysis->setKernelClassifier(std::move(classifier));
  if (layoutNow) applyDockLayout(p.layout);
}

void MainWindow::applyDockLayout(DockLayout layout) { docks_->applyLayout(layout); }

void MainWindow::closeEvent(QCloseEvent* e) {
  job_->cancel();
  if (restoreSettings_) {
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState(kLayoutVersion));
  }
  QMainWindow::closeEvent(e);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
  if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
  const auto urls = e->mimeData()->urls();
  if (!urls.isEmpty() && urls.first().isLocalFile()) openFile(urls.first().toLocalFile());
}

}  // namespace opscope::ui

namespace opscope::ui {

void MainWindow::chooseAndOpen() {
  const QString path =
      QFileDialog::getOpenFileName(this, QStringLiteral("Open trace"), dialogStart(), traceFileFilter());
  if (!path.isEmpty()) openFile(path);
}

void MainWindow::showKeyHelp() {
  QList<QAction*> all = actions();
  for (QAction* top : menuBar()->actions())
    if (QMenu* m = top->menu()) all += m->actions();
  keyHelp_->open(all);
}

void MainWindow::goToTrack(uint32_t track) {
  if (!doc_ || track >= doc_->trace->tracks.size()) return;
  timeline_->setProcessCollapsed(doc_->trace->tracks[track].process, false);
  for (const LayoutEntry& e : timeline_->layout().entries)
    if (e.kind == LayoutEntry::Kind::Slices && e.index == track) {
      // Its process header stays in sight above it.
      timeline_->setScrollY(std::max(0, e.y - timeline_->metrics().headerHeight));
      return;
    }
}

std::vector<PaletteEntry> MainWindow::paletteEntries() {
  return windowPaletteEntries(
      menuBar(), doc_.get(), [this](uint32_t track) { goToTrack(track); },
      [this](const QString& name) { search_->selectByName(name); });
}

void MainWindow::openCommandPalette() { palette_->open(paletteEntries()); }

}  // namespace opscope::ui
