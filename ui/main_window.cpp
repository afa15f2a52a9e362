#include "main_window.h"
#include "panels/cluster_view.h"
#include "ranks/collective_match.h"
#include "ranks/rank_inputs.h"
#include "report/multi_rank_report.h"
#include "report/version_info.h"

#include "palette/command_palette.h"
#include "palette/key_help_overlay.h"
#include "panels/welcome_page.h"
#include "save_file.h"

#include <cstdio>

#include <set>

#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QCheckBox>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPdfWriter>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QStyleFactory>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <functional>

#include "et_document.h"
#include "load_job.h"
#include "panels/analysis_panel.h"
#include "panels/details_panel.h"
#include "panels/diff_panel.h"
#include "panels/et_link_dialog.h"
#include "panels/op_tree_panel.h"
#include "panels/prediction_panel.h"
#include "panels/preferences_dialog.h"
#include "panels/range_stats_panel.h"
#include "panels/warnings_dialog.h"
#include "timeline/timeline_widget.h"
#include "worker.h"

namespace opscope::ui {

namespace {

constexpr int kMaxRecent = 10;
// saveState()'s version: bumped when the default layout changes so that an old saved
// layout does not bring back what the new default hides.
constexpr int kLayoutVersion = 1;
constexpr size_t kMaxMatches = 5'000'000;

QString qstr(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

QString megabytes(uint64_t bytes) { return QString::number(static_cast<double>(bytes) / (1 << 20), 'f', 1) + " MB"; }

QPalette darkPalette() {
  QPalette p;
  const QColor base(36, 39, 44), window(45, 48, 54), text(220, 223, 228), dim(130, 135, 145);
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, window);
  p.setColor(QPalette::ToolTipBase, window);
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, window);
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::Highlight, QColor(60, 120, 200));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Link, QColor(110, 170, 255));
  p.setColor(QPalette::PlaceholderText, dim);
  p.setColor(QPalette::Disabled, QPalette::Text, dim);
  p.setColor(QPalette::Disabled, QPalette::WindowText, dim);
  p.setColor(QPalette::Disabled, QPalette::ButtonText, dim);
  return p;
}

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
  paneB_ = new QWidget(timelines);
  auto* paneLayout = new QVBoxLayout(paneB_);
  paneLayout->setContentsMargins(0, 2, 0, 0);
  paneLayout->setSpacing(2);
  labelB_ = new QLabel(paneB_);
  timelineB_ = new TimelineWidget(paneB_);
  paneLayout->addWidget(labelB_);
  paneLayout->addWidget(timelineB_, 1);
  timelines->addWidget(paneB_);
  paneB_->hide();
  central_->addWidget(welcome_);
  central_->addWidget(timelines);
  setCentralWidget(central_);
  connect(welcome_, &WelcomePage::openRequested, this, &MainWindow::openFile);
  connect(welcome_, &WelcomePage::openDialogRequested, this, &MainWindow::chooseAndOpen);
  palette_ = new CommandPalette(this);
  keyHelp_ = new KeyHelpOverlay(this);
  job_ = new LoadJob(this);
  buildDocks();
  buildMenus();
  buildToolbar();
  buildStatusBar();
  connect(job_, &LoadJob::loaded, this, &MainWindow::onLoaded);
  connect(job_, &LoadJob::failed, this, &MainWindow::onFailed);
  connect(job_, &LoadJob::cancelled, this, &MainWindow::onCancelled);
  connect(timeline_, &TimelineWidget::selectionChanged, this, &MainWindow::onSelection);
  connect(timeline_, &TimelineWidget::areaSelected, this, [this](TimeRange r, std::vector<uint32_t> tracks) {
    if (!doc_) return;
    rangeStats_->showRange(doc_->trace.get(), r.start, r.end, tracks);
    rangeDock_->show();
    rangeDock_->raise();
  });
  connect(details_, &DetailsPanel::eventLinkActivated, this, [this](EventRef r) { timeline_->select(r, true); });
  connect(opTree_, &OpTreePanel::eventActivated, this, [this](EventRef r) { timeline_->select(r, true); });
  connect(analysis_, &AnalysisPanel::eventsActivated, this, &MainWindow::markEvents);
  connect(analysis_, &AnalysisPanel::pathMarked, this,
          [this](std::vector<PathArrow> arrows) { timeline_->setPathArrows(std::move(arrows)); });
  connect(analysis_, &AnalysisPanel::failed, this, &MainWindow::showError);
  connect(prediction_, &PredictionPanel::failed, this, &MainWindow::showError);
  connect(prediction_, &PredictionPanel::opActivated, this, [this](EventRef r) { timeline_->select(r, true); });
  auto findName = [this](const QString& name) {
    searchBox_->setText(name);
    if (runSearch(name, false)) stepSearch(+1);
  };
  connect(analysis_, &AnalysisPanel::nameActivated, this, findName);
  connect(diff_, &DiffPanel::nameActivated, this, findName);
  connect(diff_, &DiffPanel::compared, this, &MainWindow::showTraceB);
  connect(diffDock_->toggleViewAction(), &QAction::toggled, this, [this](bool on) {
    if (!on) paneB_->hide();  // closing the comparison closes its timeline
    else if (timelineB_->data()) paneB_->show();
  });
  connect(timeline_, &TimelineWidget::viewChanged, this,
          [this] { syncViews(timeline_, timelineB_, alignB_ - alignA_); });
  connect(timelineB_, &TimelineWidget::viewChanged, this,
          [this] { syncViews(timelineB_, timeline_, alignA_ - alignB_); });
  resize(1400, 900);
  // Without a saved layout the timeline owns the window: the op tree is a narrow column,
  // Details appears with the first selection, the area table with the first area
  // selection, and the analyses and prediction wait for their toolbar button.
  detailsDock_->hide();
  rangeDock_->hide();
  analysisDock_->hide();
  predictionDock_->hide();
  diffDock_->hide();
  if (restoreSettings_) {
    QSettings s;
    restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    // Layouts saved before the timeline-first default (version 0) are not restored.
    restoredState_ = restoreState(s.value(QStringLiteral("window/state")).toByteArray(), kLayoutVersion);
    // Scripted windows (screenshots, tests) keep the defaults: built-in rules, Auto
    // units, the light theme, the trace's GPU.
    QString error;
    std::shared_ptr<const KernelClassifier> classifier =
        kernelClassifierFor(loadPreferences(s).kernelClassesFile, &error);
    if (!error.isEmpty())
      statusBar()->showMessage(QStringLiteral("Kernel-class rules: %1 (Edit \u25B8 Preferences)").arg(error), 15000);
    applyPreferences(loadPreferences(s), classifier, !restoredState_);
  }
  updateRecentMenu();
}

MainWindow::~MainWindow() {
  // ~QWidget closes the window and hides the docks, which toggles their view actions
  // after this class is gone: no slot of ours may run by then.
  for (QDockWidget* d : findChildren<QDockWidget*>()) d->toggleViewAction()->disconnect(this);
}

void MainWindow::showEvent(QShowEvent* e) {
  QMainWindow::showEvent(e);
  // Tabified docks show their last tab when first laid out; without a saved layout the
  // analyses come first and the prediction (which computes only when shown) a tab away.
  if (!shownOnce_ && !restoredState_) analysisDock_->raise();
  shownOnce_ = true;
}

void MainWindow::showBottomDock(QDockWidget* dock, bool on) {
  if (!on) return;
  dock->raise();
  // The first time a bottom dock opens it takes about two fifths of the height (half
  // for the prediction, whose status lines, legend and two charts stack); its charts
  // scroll rather than squash; afterwards it keeps what the user dragged it to.
  if (!dock->property("sized").toBool() && !restoredState_) {
    const int share = dock == predictionDock_ ? height() / 2 : height() * 2 / 5;
    resizeDocks({dock}, {std::max(300, share)}, Qt::Vertical);
    dock->setProperty("sized", true);
  }
}

void MainWindow::buildDocks() {
  details_ = new DetailsPanel(this);
  opTree_ = new OpTreePanel(this);
  rangeStats_ = new RangeStatsPanel(this);
  detailsDock_ = new QDockWidget(QStringLiteral("Details"), this);
  detailsDock_->setObjectName(QStringLiteral("detailsDock"));
  detailsDock_->setWidget(details_);
  treeDock_ = new QDockWidget(QStringLiteral("Op tree"), this);
  treeDock_->setObjectName(QStringLiteral("opTreeDock"));
  treeDock_->setWidget(opTree_);
  rangeDock_ = new QDockWidget(QStringLiteral("Area selection"), this);
  rangeDock_->setObjectName(QStringLiteral("areaDock"));
  rangeDock_->setWidget(rangeStats_);
  addDockWidget(Qt::RightDockWidgetArea, detailsDock_);
  addDockWidget(Qt::LeftDockWidgetArea, treeDock_);
  addDockWidget(Qt::BottomDockWidgetArea, rangeDock_);
  analysis_ = new AnalysisPanel(this);
  analysisDock_ = new QDockWidget(QStringLiteral("Analysis"), this);
  analysisDock_->setObjectName(QStringLiteral("analysisDock"));
  analysisDock_->setWidget(analysis_);
  addDockWidget(Qt::BottomDockWidgetArea, analysisDock_);
  tabifyDockWidget(rangeDock_, analysisDock_);
  prediction_ = new PredictionPanel(this);
  predictionDock_ = new QDockWidget(QStringLiteral("Prediction"), this);
  predictionDock_->setObjectName(QStringLiteral("predictionDock"));
  predictionDock_->setWidget(prediction_);
  addDockWidget(Qt::BottomDockWidgetArea, predictionDock_);
  tabifyDockWidget(analysisDock_, predictionDock_);
  diff_ = new DiffPanel(this);
  diffDock_ = new QDockWidget(QStringLiteral("Compare"), this);
  diffDock_->setObjectName(QStringLiteral("compareDock"));
  diffDock_->setWidget(diff_);
  addDockWidget(Qt::BottomDockWidgetArea, diffDock_);
  tabifyDockWidget(predictionDock_, diffDock_);
  // Side docks run the full height; the area table sits under the timeline only.
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
  resizeDocks({detailsDock_, treeDock_}, {340, 300}, Qt::Horizontal);
  resizeDocks({rangeDock_}, {170}, Qt::Vertical);
  for (QDockWidget* d : {analysisDock_, predictionDock_, diffDock_, rangeDock_})
    connect(d->toggleViewAction(), &QAction::toggled, this, [this, d](bool on) { showBottomDock(d, on); });
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
  file->addAction(QStringLiteral("&Open…"), QKeySequence::Open, this, &MainWindow::chooseAndOpen);
  // A folder of rank traces (trace_rank0.json.gz, …) opens as one multi-rank session.
  file->addAction(QStringLiteral("Open &folder of ranks…"), QKeySequence(QStringLiteral("Ctrl+Shift+O")), this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, QStringLiteral("Open a folder of rank traces"));
    if (!dir.isEmpty()) openFile(dir);
  });
  QAction* openEt = file->addAction(QStringLiteral("Open &execution trace…"), this, [this] {
    const QString path =
        QFileDialog::getOpenFileName(this, QStringLiteral("Open execution trace"), QString(),
                                     QStringLiteral("Execution traces (*.json *.json.gz *.gz);;All files (*)"));
    if (!path.isEmpty()) openExecutionTrace(path);
  });
  // Another run against this one (before / after a change), or two iterations of this one.
  QAction* compare =
      file->addAction(QStringLiteral("&Compare with…"), QKeySequence(QStringLiteral("Ctrl+Shift+D")), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, QStringLiteral("Compare with"), QString(),
                                         QStringLiteral("Traces (*.json *.json.gz *.gz);;All files (*)"));
        if (!path.isEmpty()) compareWith(path);
      });
  QAction* compareSelf =
      file->addAction(QStringLiteral("Compare &two iterations"), this, [this] { compareWith(QString()); });
  for (QAction* a : {openEt, compare, compareSelf}) a->setEnabled(false);
  connect(this, &MainWindow::documentChanged, openEt, [this, openEt, compare, compareSelf] {
    for (QAction* a : {openEt, compare, compareSelf}) a->setEnabled(doc_ != nullptr);
  });
  recentMenu_ = file->addMenu(QStringLiteral("Open &recent"));
  file->addSeparator();
  file->addAction(QStringLiteral("Export timeline as &PNG…"), this, &MainWindow::chooseAndExportPng);
  file->addAction(QStringLiteral("Export timeline as P&DF…"), this, &MainWindow::chooseAndExportPdf);
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
  view->addAction(detailsDock_->toggleViewAction());
  view->addAction(treeDock_->toggleViewAction());
  view->addAction(rangeDock_->toggleViewAction());
  view->addAction(analysisDock_->toggleViewAction());
  view->addAction(predictionDock_->toggleViewAction());
  view->addAction(diffDock_->toggleViewAction());

  // Multi-rank sessions: which ranks the timeline shows.
  QAction* ranks =
      view->addAction(QStringLiteral("Show &ranks…"), QKeySequence(QStringLiteral("Ctrl+Shift+R")), this, [this] {
        bool ok = false;
        const QString text = QInputDialog::getText(this, QStringLiteral("Show ranks"),
                                                   QStringLiteral("Ranks to show, e.g. 0-3,7 (empty: every rank):"),
                                                   QLineEdit::Normal, shownRanks_, &ok);
        if (ok) showRanks(text);
      });
  // Each rank is a group of its own on the timeline: fold them all to compare ranks
  // line by line, unfold to see every rank's streams.
  QAction* foldRanks =
      view->addAction(QStringLiteral("&Fold every rank"), this, [this] { timeline_->setAllRanksCollapsed(true); });
  QAction* unfoldRanks =
      view->addAction(QStringLiteral("&Unfold every rank"), this, [this] { timeline_->setAllRanksCollapsed(false); });
  for (QAction* a : {ranks, foldRanks, unfoldRanks}) a->setEnabled(false);
  connect(this, &MainWindow::documentChanged, ranks, [this, ranks, foldRanks, unfoldRanks] {
    bool multi = false;
    if (doc_)
      for (const Process& p : doc_->trace->processes) multi |= p.rank != kNoId;
    for (QAction* a : {ranks, foldRanks, unfoldRanks}) a->setEnabled(multi);
    shownRanks_.clear();
  });
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

void MainWindow::buildToolbar() {
  QToolBar* bar = addToolBar(QStringLiteral("Search"));
  bar->setObjectName(QStringLiteral("searchBar"));
  bar->setMovable(false);
  bar->addWidget(new QLabel(QStringLiteral(" Search "), bar));
  searchBox_ = new QLineEdit(bar);
  searchBox_->setPlaceholderText(QStringLiteral("event name (Enter: next, Shift+Enter: previous)"));
  searchBox_->setClearButtonEnabled(true);
  searchBox_->setMinimumWidth(340);
  searchBox_->installEventFilter(this);
  bar->addWidget(searchBox_);
  regexBox_ = new QCheckBox(QStringLiteral("regex"), bar);
  bar->addWidget(regexBox_);
  searchLabel_ = new QLabel(bar);
  searchLabel_->setMinimumWidth(220);
  bar->addWidget(searchLabel_);
  auto* find = new QAction(this);
  find->setShortcut(QKeySequence::Find);
  connect(find, &QAction::triggered, this, [this] {
    searchBox_->setFocus();
    searchBox_->selectAll();
  });
  addAction(find);
  connect(searchBox_, &QLineEdit::textChanged, this,
          [this](const QString& t) { runSearch(t, regexBox_->isChecked()); });
  connect(regexBox_, &QCheckBox::toggled, this, [this](bool on) { runSearch(searchBox_->text(), on); });

  // The panels, one click away (the View menu holds the same toggles).
  QToolBar* panels = addToolBar(QStringLiteral("Panels"));
  panels->setObjectName(QStringLiteral("panelsBar"));
  panels->setMovable(false);
  panels->setToolButtonStyle(Qt::ToolButtonTextOnly);
  for (QDockWidget* d : {treeDock_, detailsDock_, analysisDock_, predictionDock_, diffDock_}) {
    QAction* a = d->toggleViewAction();
    a->setToolTip(QStringLiteral("Show or hide the %1 panel").arg(d->windowTitle()));
    panels->addAction(a);
  }
}

void MainWindow::buildStatusBar() {
  infoLabel_ = new QLabel(this);
  statusBar()->addWidget(infoLabel_, 1);
  progressLabel_ = new QLabel(this);
  progressBar_ = new QProgressBar(this);
  progressBar_->setRange(0, 1000);
  progressBar_->setMaximumWidth(260);
  cancelButton_ = new QPushButton(QStringLiteral("Cancel"), this);
  connect(cancelButton_, &QPushButton::clicked, job_, &LoadJob::cancel);
  warningsButton_ = new QPushButton(this);
  warningsButton_->setFlat(true);
  warningsButton_->setStyleSheet(QStringLiteral("color: #b35900; font-weight: bold;"));
  connect(warningsButton_, &QPushButton::clicked, this, &MainWindow::showWarnings);
  etButton_ = new QPushButton(this);
  etButton_->setFlat(true);
  etButton_->setToolTip(QStringLiteral("The execution trace's link: what could not be linked, and why"));
  etButton_->hide();
  connect(etButton_, &QPushButton::clicked, this, &MainWindow::showEtLinkReport);
  statusBar()->addPermanentWidget(etButton_);
  statusBar()->addPermanentWidget(warningsButton_);
  statusBar()->addPermanentWidget(progressLabel_);
  statusBar()->addPermanentWidget(progressBar_);
  statusBar()->addPermanentWidget(cancelButton_);
  warningsButton_->hide();
  progressTimer_ = new QTimer(this);
  progressTimer_->setInterval(100);
  connect(progressTimer_, &QTimer::timeout, this, &MainWindow::pollProgress);
  setLoadingUi(false);
  infoLabel_->setText(QStringLiteral("No trace loaded"));
}

void MainWindow::setLoadingUi(bool loading) {
  progressBar_->setVisible(loading);
  progressLabel_->setVisible(loading);
  cancelButton_->setVisible(loading);
  if (loading) {
    progressBar_->setValue(0);
    progressTimer_->start();
  } else {
    progressTimer_->stop();
  }
}

void MainWindow::openFile(const QString& path) {
  if (isRankTablePath(QFile::encodeName(path).toStdString())) {
    openClusterTable(path);
    return;
  }
  loadingFileList_ = false;
  loadingPath_ = path;
  infoLabel_->setText(QStringLiteral("Loading %1…").arg(QFileInfo(path).fileName()));
  setLoadingUi(true);
  progressLabel_->setText(QString());
  job_->start(path);
}

void MainWindow::openFiles(const QStringList& files) {
  if (files.size() == 1) {
    openFile(files.front());
    return;
  }
  loadingFileList_ = true;
  loadingPath_ = QFileInfo(files.front()).absolutePath();
  infoLabel_->setText(QStringLiteral("Loading %1 ranks…").arg(files.size()));
  setLoadingUi(true);
  progressLabel_->setText(QString());
  job_->startFiles(files);
}

bool MainWindow::showRanks(const QString& list) {
  std::set<int64_t> ranks;
  std::string error;
  if (!list.trimmed().isEmpty() && !parseRankList(list.toStdString(), ranks, error)) {
    showError(QStringLiteral("Show ranks"), QString::fromStdString(error));
    return false;
  }
  shownRanks_ = list.trimmed();
  timeline_->setShownRanks(ranks);
  statusBar()->showMessage(ranks.empty()
                               ? QStringLiteral("Showing every rank")
                               : QStringLiteral("Showing ranks %1 (View ▸ Show ranks… to change)").arg(shownRanks_),
                           8000);
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
    clusterView_->resize(1100, 750);
    connect(clusterView_, &ClusterView::openRequested, this, [this](std::vector<std::string> files) {
      QStringList list;
      for (const std::string& f : files) list << QFile::decodeName(f.c_str());
      openFiles(list);
      raise();
      activateWindow();
    });
  }
  clusterView_->setWindowTitle(QStringLiteral("%1 — opscope cluster view").arg(QFileInfo(path).fileName()));
  clusterView_->setDark(darkAction_ && darkAction_->isChecked());
  clusterView_->setTable(path, std::move(ranks));
  clusterView_->show();
  clusterView_->raise();
  addRecent(path);
  return true;
}

void MainWindow::pollProgress() {
  const LoadJob::Progress p = job_->progress();
  if (p.preparing) {
    progressBar_->setRange(0, 0);  // busy: building the view structures
    progressLabel_->setText(QStringLiteral("%L1 events · building views").arg(p.events));
    return;
  }
  progressBar_->setRange(0, 1000);
  if (p.bytesTotal) progressBar_->setValue(static_cast<int>(1000.0 * p.bytesDone / p.bytesTotal));
  progressLabel_->setText(
      QStringLiteral("%1 of %2 · %L3 events").arg(megabytes(p.bytesDone), megabytes(p.bytesTotal)).arg(p.events));
}

void MainWindow::onLoaded(std::shared_ptr<const TraceDocument> doc) {
  setLoadingUi(false);
  if (!loadingFileList_) addRecent(QString::fromStdString(doc->path));
  setDocument(std::move(doc));
}

void MainWindow::onFailed(const QString& path, const QString& message) {
  setLoadingUi(false);
  refreshInfo();  // the trace that was open stays open
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
  setLoadingUi(false);
  statusBar()->showMessage(QStringLiteral("Loading %1 cancelled").arg(QFileInfo(path).fileName()), 5000);
  refreshInfo();
}

void MainWindow::refreshInfo() {
  if (!doc_) {
    infoLabel_->setText(QStringLiteral("No trace loaded"));
    return;
  }
  const Trace& t = *doc_->trace;
  uint64_t gpuStreams = 0;
  for (const Track& tr : t.tracks) gpuStreams += tr.kind == TrackKind::GpuStream;
  // "slices" as `opscope summary` counts them (its "slices" key), not the file's events.
  std::set<int64_t> ranks;
  for (const Process& p : t.processes)
    if (p.rank != kNoId) ranks.insert(p.rank);
  const QString name = QFileInfo(QString::fromStdString(doc_->path)).fileName();
  infoLabel_->setText(
      QStringLiteral("%1 · %L2 slices · %3 GPU stream%4 · %5 iteration%6 · %7 wall · loaded in %8 s")
          .arg(ranks.empty() ? name : QStringLiteral("%1 (%2 ranks)").arg(name).arg(ranks.size()))
          .arg(t.sliceCount())
          .arg(gpuStreams)
          .arg(gpuStreams == 1 ? "" : "s")
          .arg(t.iterations.size())
          .arg(t.iterations.size() == 1 ? "" : "s")
          .arg(qstr(formatDuration(t.maxTs - t.minTs)))
          .arg(doc_->timings.parseSeconds + doc_->timings.hierarchySeconds + doc_->prepareSeconds, 0, 'f', 2));
}

void MainWindow::setDocument(std::shared_ptr<const TraceDocument> doc) {
  doc_ = std::move(doc);
  et_.reset();  // linked with the previous trace
  if (etButton_) etButton_->hide();
  matches_ = std::make_shared<std::vector<EventRef>>();
  matcher_.reset();
  timeline_->setData(doc_);
  central_->setCurrentWidget(doc_ ? timeline_->parentWidget() : welcome_);
  timeline_->setFocus();  // W/S/A/D work at once, not typed into the search box
  opTree_->setDocument(doc_);
  analysis_->setDocument(doc_);
  prediction_->setDocument(doc_);
  diff_->clear();  // it compared the previous trace
  showTraceB(nullptr, 0, 0);
  rangeStats_->clear();
  details_->showDetails(nullptr, std::nullopt);
  refreshInfo();
  if (!doc_) {
    warningsButton_->hide();
    return;
  }
  const Trace& t = *doc_->trace;
  setWindowTitle(QStringLiteral("%1 — opscope").arg(QFileInfo(QString::fromStdString(doc_->path)).fileName()));
  // Problems raise an orange badge; informational diagnostics only (launch flows that
  // lost an end, which every Kineto file has) a quiet one to the same list.
  const uint64_t problems = t.diagnostics.problems(), all = t.diagnostics.total();
  warningsButton_->setVisible(all > 0);
  if (all) {
    QStringList parts;
    for (const WarningEntry& e : t.diagnostics.entries())
      if (!isInformational(e.kind) || !problems)
        parts << QStringLiteral("%L1 \u00D7 %2").arg(e.count).arg(QString::fromLatin1(warningKindName(e.kind)));
    // A style icon, not a glyph: fonts without U+26A0 / U+24D8 drew a box.
    warningsButton_->setIcon(
        style()->standardIcon(problems ? QStyle::SP_MessageBoxWarning : QStyle::SP_MessageBoxInformation));
    warningsButton_->setText(parts.join(QStringLiteral(", ")));
    warningsButton_->setStyleSheet(problems ? QStringLiteral("color: #b35900; font-weight: bold;") : QString());
    warningsButton_->setToolTip(
        problems ? QStringLiteral("Click for the list of warnings")
                 : QStringLiteral("Nothing wrong: expected diagnostics of this kind of file. Click for the list"));
  }
  if (!searchBox_->text().isEmpty()) runSearch(searchBox_->text(), regexBox_->isChecked());
  emit documentChanged();
}

void MainWindow::openExecutionTrace(const QString& path) {
  if (!doc_) return;
  ++etPending_;
  statusBar()->showMessage(QStringLiteral("Linking %1…").arg(QFileInfo(path).fileName()));
  std::shared_ptr<const TraceDocument> doc = doc_;
  const std::string file = QFile::encodeName(path).toStdString();
  struct Outcome {
    std::shared_ptr<const EtDocument> et;
    std::string error;
  };
  runOnWorker(
      this,
      [doc, file] {
        Outcome o;
        o.et = loadEtDocument(file, doc, o.error);
        return o;
      },
      [path](MainWindow* self, Outcome o) {
        --self->etPending_;
        if (!o.et) {
          self->statusBar()->clearMessage();
          self->showError(QStringLiteral("Open execution trace"),
                          QStringLiteral("%1: %2").arg(path, QString::fromStdString(o.error)));
          return;
        }
        if (o.et->kineto != self->doc_) return;  // another trace was opened meanwhile
        self->et_ = std::move(o.et);
        self->prediction_->setExtraShapes(self->et_->shapes, QFileInfo(path).fileName());
        self->statusBar()->showMessage(QString::fromStdString(self->et_->link.summaryLine()), 15000);
        self->etButton_->setText(QStringLiteral("ET: %1/%2 ops, %3/%4 GPU events linked")
                                     .arg(self->et_->link.linkedOps)
                                     .arg(self->et_->link.etOps)
                                     .arg(self->et_->link.linkedGpuEvents)
                                     .arg(self->et_->link.gpuEvents));
        self->etButton_->show();
        self->onSelection(self->timeline_->selected());
      },
      [path](MainWindow* self, const QString& message) {
        --self->etPending_;
        self->statusBar()->clearMessage();
        self->showError(QStringLiteral("Open execution trace"), QStringLiteral("%1: %2").arg(path, message));
      });
}

void MainWindow::showTraceB(std::shared_ptr<const TraceDocument> b, TimeNs alignA, TimeNs alignB) {
  alignA_ = alignA;
  alignB_ = alignB;
  if (!b) {
    timelineB_->setData(nullptr);
    paneB_->hide();
    return;
  }
  if (timelineB_->data() != b.get()) timelineB_->setData(b);
  labelB_->setText(
      QStringLiteral("<b>B</b> %1 · aligned with A at the start of the compared range · zoom and scroll follow A")
          .arg(QFileInfo(QString::fromStdString(b->path)).fileName().toHtmlEscaped()));
  paneB_->show();
  syncViews(timeline_, timelineB_, alignB_ - alignA_);
}

void MainWindow::syncViews(TimelineWidget* from, TimelineWidget* to, TimeNs shift) {
  if (syncing_ || !paneB_->isVisible() || !from->data() || !to->data()) return;
  syncing_ = true;
  TimeView v = from->view();
  v.start += shift;
  to->setView(v);
  syncing_ = false;
}

void MainWindow::compareWith(const QString& path) {
  if (!doc_) return;
  diffDock_->show();
  diffDock_->raise();
  if (path.isEmpty()) {
    diff_->compare(doc_, doc_);
    if (doc_->trace->iterations.size() >= 2)
      diff_->setIterations(0, static_cast<int>(doc_->trace->iterations.size()) - 1);
    return;
  }
  statusBar()->showMessage(QStringLiteral("Loading %1 to compare…").arg(QFileInfo(path).fileName()));
  std::shared_ptr<const TraceDocument> a = doc_;
  const std::string file = QFile::encodeName(path).toStdString();
  struct Outcome {
    std::shared_ptr<const TraceDocument> b;
    std::string error;
  };
  runOnWorker(
      this,
      [file] {
        Outcome o;
        o.b = loadDocument(file, o.error);
        return o;
      },
      [path, a](MainWindow* self, Outcome o) {
        self->statusBar()->clearMessage();
        if (!o.b) {
          self->showError(QStringLiteral("Compare with"),
                          QStringLiteral("%1: %2").arg(path, QString::fromStdString(o.error)));
          return;
        }
        if (a != self->doc_) return;  // another trace was opened meanwhile
        self->diff_->compare(a, std::move(o.b));
      },
      [path](MainWindow* self, const QString& message) {
        self->statusBar()->clearMessage();
        self->showError(QStringLiteral("Compare with"), QStringLiteral("%1: %2").arg(path, message));
      });
}

void MainWindow::showEtLinkReport() {
  if (!et_) return;
  auto* dialog = new EtLinkDialog(*et_, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &EtLinkDialog::eventActivated, this, [this](EventRef r) { timeline_->select(r, true); });
  dialog->show();
}

void MainWindow::onSelection(std::optional<EventRef> ref) {
  details_->showDetails(doc_ ? doc_->trace.get() : nullptr, ref, et_.get());
  if (ref && detailsDock_->isHidden()) detailsDock_->show();
  markCollectivePeers(ref);
}

void MainWindow::markCollectivePeers(std::optional<EventRef> ref) {
  // A search or marked events in progress keep the highlight (stepping through them
  // selects collectives too); the Details still list the peers.
  if (!doc_ || (!collectiveMarked_ && matches_ && !matches_->empty())) return;
  const CollectiveMatch m = ref ? sameCollectiveOnEveryRank(*doc_->trace, *ref) : CollectiveMatch{};
  if (m.peers.size() < 2) {
    // Leaving a collective clears its marks, never the results of a search.
    if (collectiveMarked_) {
      collectiveMarked_ = false;
      matches_ = std::make_shared<std::vector<EventRef>>();
      timeline_->setSearch(nullptr);
      searchLabel_->setText(QString());
    }
    return;
  }
  // The same collective on every rank, highlighted like search matches (Enter steps).
  auto peers = std::make_shared<std::vector<EventRef>>();
  for (const CollectivePeer& p : m.peers) peers->push_back(p.kernel);
  matcher_.reset();
  matches_ = peers;
  matchCursor_ = static_cast<size_t>(std::find(peers->begin(), peers->end(), *ref) - peers->begin());
  collectiveMarked_ = true;
  timeline_->setSearch(nullptr, matches_);
  searchLabel_->setText(
      QStringLiteral("collective #%1 on %2 ranks · Enter to step").arg(m.ordinal + 1).arg(m.peers.size()));
}

QString MainWindow::searchStatus() const { return searchLabel_->text(); }

bool MainWindow::runSearch(const QString& text, bool regex) {
  collectiveMarked_ = false;
  matches_ = std::make_shared<std::vector<EventRef>>();
  matchCursor_ = 0;
  searchBox_->setStyleSheet(QString());
  if (!doc_ || text.isEmpty()) {
    matcher_.reset();
    timeline_->setSearch(nullptr);
    searchLabel_->setText(QString());
    return true;
  }
  SearchQuery q{text.toStdString(), regex, false};
  try {
    matcher_ = std::make_shared<NameMatcher>(matchNames(doc_->trace->strings, q));
  } catch (const PatternError& e) {
    matcher_.reset();
    timeline_->setSearch(nullptr);
    searchBox_->setStyleSheet(QStringLiteral("background: #ffd6d6; color: black;"));
    searchLabel_->setText(QStringLiteral("bad regular expression: %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
  *matches_ = findEvents(*doc_->trace, *matcher_, kMaxMatches);
  timeline_->setSearch(matcher_, matches_);
  if (matches_->empty()) searchLabel_->setText(QStringLiteral("no match"));
  else
    searchLabel_->setText(QStringLiteral("%L1%2 match%3 in %L4 name%5 · Enter to step")
                              .arg(matches_->size())
                              .arg(matches_->size() >= kMaxMatches ? QStringLiteral("+") : QString())
                              .arg(matches_->size() == 1 ? "" : "es")
                              .arg(matcher_->names)
                              .arg(matcher_->names == 1 ? "" : "s"));
  return true;
}

void MainWindow::markEvents(const QString& what, std::vector<EventRef> events) {
  if (!doc_ || events.empty()) return;
  const Trace& t = *doc_->trace;
  std::sort(events.begin(), events.end(),
            [&t](EventRef a, EventRef b) { return t.start(a) != t.start(b) ? t.start(a) < t.start(b) : a < b; });
  matcher_.reset();
  collectiveMarked_ = false;
  matches_ = std::make_shared<std::vector<EventRef>>(std::move(events));
  matchCursor_ = 0;
  timeline_->setSearch(nullptr, matches_);
  timeline_->select(matches_->front(), true);
  searchLabel_->setText(QStringLiteral("%L1 event%2 of %3 · Enter to step")
                            .arg(matches_->size())
                            .arg(matches_->size() == 1 ? "" : "s")
                            .arg(what.size() > 60 ? what.left(57) + QStringLiteral("…") : what));
}

void MainWindow::stepSearch(int direction) {
  if (matches_->empty()) return;
  if (timeline_->selected() && matchCursor_ < matches_->size() && (*matches_)[matchCursor_] == *timeline_->selected()) {
    matchCursor_ = (matchCursor_ + matches_->size() + static_cast<size_t>(direction > 0 ? 1 : -1)) % matches_->size();
  } else if (direction < 0) {
    matchCursor_ = matches_->size() - 1;
  } else {
    matchCursor_ = 0;
  }
  timeline_->select((*matches_)[matchCursor_], true);
  searchLabel_->setText(QStringLiteral("%L1 of %L2 matches").arg(matchCursor_ + 1).arg(matches_->size()));
}

bool MainWindow::selectByName(const QString& name) {
  if (!doc_) return false;
  const Trace& t = *doc_->trace;
  const std::string wanted = name.toStdString();
  std::optional<EventRef> exact, partial;
  for (uint32_t tr = 0; tr < t.tracks.size(); ++tr) {
    const SliceColumns& s = t.tracks[tr].slices;
    for (uint32_t i = 0; i < s.size(); ++i) {
      const std::string_view n = t.str(s.name[i]);
      if (n == wanted) {
        if (!exact || s.dur[i] > t.dur(*exact)) exact = EventRef{tr, i};
      } else if (!exact && n.find(wanted) != std::string_view::npos) {
        if (!partial || s.dur[i] > t.dur(*partial)) partial = EventRef{tr, i};
      }
    }
  }
  const auto pick = exact ? exact : partial;
  if (!pick) return false;
  timeline_->select(pick, true);
  return true;
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
  if (watched == searchBox_ && event->type() == QEvent::KeyPress) {
    auto* k = static_cast<QKeyEvent*>(event);
    if (k->key() == Qt::Key_Return || k->key() == Qt::Key_Enter) {
      stepSearch((k->modifiers() & Qt::ShiftModifier) ? -1 : 1);
      return true;
    }
    if (k->key() == Qt::Key_Escape) {
      timeline_->setFocus();
      return true;
    }
  }
  return QMainWindow::eventFilter(watched, event);
}

void MainWindow::addRecent(const QString& path) {
  QSettings s;
  QStringList list = s.value(QStringLiteral("recent")).toStringList();
  const QString abs = QFileInfo(path).absoluteFilePath();
  list.removeAll(abs);
  list.prepend(abs);
  while (list.size() > kMaxRecent) list.removeLast();
  s.setValue(QStringLiteral("recent"), list);
  updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
  recentMenu_->clear();
  const QStringList list = QSettings().value(QStringLiteral("recent")).toStringList();
  welcome_->setRecent(list);
  for (const QString& p : list) recentMenu_->addAction(p, this, [this, p] { openFile(p); });
  recentMenu_->setEnabled(!list.isEmpty());
}

void MainWindow::showWarnings() {
  if (!doc_) return;
  WarningsDialog d(doc_->trace->diagnostics, QFileInfo(QString::fromStdString(doc_->path)).fileName(), this);
  d.exec();
}

void MainWindow::setDarkTheme(bool dark) {
  if (darkAction_ && darkAction_->isChecked() != dark) darkAction_->setChecked(dark);
  qApp->setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
  qApp->setPalette(dark ? darkPalette() : qApp->style()->standardPalette());
  timeline_->setTheme(dark ? Theme::Dark : Theme::Light);
  analysis_->setDark(dark);
  prediction_->setDark(dark);
  diff_->setDark(dark);
  details_->setDark(dark);
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
  timelineB_->update();
  opTree_->update();
  setDarkTheme(p.dark);  // also re-renders Details, whose durations follow the unit
  // Only a changed default moves the dock off the GPU the user picked in it.
  if (gpuChanged) prediction_->setGpus(p.defaultGpu, prediction_->compareGpu());
  if (classifier) analysis_->setKernelClassifier(std::move(classifier));
  if (layoutNow) applyDockLayout(p.layout);
}

void MainWindow::applyDockLayout(DockLayout layout) {
  for (QDockWidget* d : {detailsDock_, rangeDock_, predictionDock_, diffDock_}) d->hide();
  treeDock_->setVisible(layout != DockLayout::TimelineOnly);
  analysisDock_->setVisible(layout == DockLayout::TimelineAndAnalysis);
}

bool MainWindow::exportPng(const QString& path, double scale, QString* error, bool wholeList) {
  const QSize size = wholeList ? timeline_->wholeListSize() : timeline_->size();
  // PNG readers and QImage stop at 32,767 px a side; a taller list is refused, not cut.
  constexpr int kMaxSide = 32767;
  if (size.height() * scale > kMaxSide || size.width() * scale > kMaxSide) {
    if (error)
      *error = QStringLiteral(
                   "the track list is %1 px tall at %2x, more than a PNG can hold (%3 px): "
                   "collapse processes or pick a smaller scale")
                   .arg(static_cast<int>(size.height() * scale))
                   .arg(scale)
                   .arg(kMaxSide);
    return false;
  }
  QImage image(size * scale, QImage::Format_RGB32);
  image.setDevicePixelRatio(scale);
  {
    QPainter p(&image);
    p.setRenderHint(QPainter::TextAntialiasing);
    if (wholeList) timeline_->renderWholeList(p);
    else timeline_->render(p, size);
  }
  QByteArray bytes;
  QBuffer f(&bytes);
  f.open(QIODevice::WriteOnly);
  if (!image.save(&f, "PNG")) {
    if (error) *error = QStringLiteral("cannot encode the PNG");
    return false;
  }
  return saveBytes(path, bytes, error);
}

bool MainWindow::exportPdf(const QString& path, QString* error) {
  QByteArray bytes;
  QBuffer f(&bytes);
  f.open(QIODevice::WriteOnly);
  const QSize size = timeline_->size();
  {
    QPdfWriter pdf(&f);
    pdf.setResolution(96);
    pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setTitle(windowTitle());
    pdf.setCreator(QStringLiteral("opscope"));
    QPainter p(&pdf);
    // Page is in points (1/72 in) and the writer at 96 dpi: scale to fill it.
    const double sx = pdf.width() / static_cast<double>(size.width());
    p.scale(sx, sx);
    timeline_->render(p, size);
  }
  f.close();
  return saveBytes(path, bytes, error);
}

void MainWindow::chooseAndExportPng() {
  if (!doc_) return;
  bool ok = false;
  const QStringList scales{QStringLiteral("1x"), QStringLiteral("2x"), QStringLiteral("3x"), QStringLiteral("4x")};
  const QString choice =
      QInputDialog::getItem(this, QStringLiteral("Export PNG"), QStringLiteral("Scale"), scales, 1, false, &ok);
  if (!ok) return;
  const QStringList parts{QStringLiteral("Visible part"), QStringLiteral("Whole track list")};
  const QString part =
      QInputDialog::getItem(this, QStringLiteral("Export PNG"), QStringLiteral("Tracks"), parts, 0, false, &ok);
  if (!ok) return;
  const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Export PNG"), QStringLiteral("timeline.png"),
                                                    QStringLiteral("PNG images (*.png)"));
  if (path.isEmpty()) return;
  QString error;
  if (!exportPng(path, choice.left(1).toDouble(), &error, part == parts[1]))
    QMessageBox::critical(this, QStringLiteral("Export failed"), error);
  else statusBar()->showMessage(QStringLiteral("Saved %1").arg(path), 5000);
}

void MainWindow::chooseAndExportPdf() {
  if (!doc_) return;
  const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Export PDF"), QStringLiteral("timeline.pdf"),
                                                    QStringLiteral("PDF documents (*.pdf)"));
  if (path.isEmpty()) return;
  QString error;
  if (!exportPdf(path, &error)) QMessageBox::critical(this, QStringLiteral("Export failed"), error);
  else statusBar()->showMessage(QStringLiteral("Saved %1").arg(path), 5000);
}

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
      QFileDialog::getOpenFileName(this, QStringLiteral("Open trace"), QString(),
                                   QStringLiteral("Traces (*.json *.json.gz *.gz *.sqlite *.log);;All files (*)"));
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
  std::vector<PaletteEntry> out;
  // Actions of every menu, in menu order, with their shortcut (the palette's own entry left out).
  const std::function<void(QMenu*, const QString&)> addMenu = [&](QMenu* menu, const QString& path) {
    for (QAction* a : menu->actions()) {
      if (a->isSeparator() || !a->isEnabled()) continue;
      QString text = a->text();
      text.remove(QLatin1Char('&'));
      if (QMenu* sub = a->menu()) {
        addMenu(sub, path + text + QStringLiteral(" \u25B8 "));
        continue;
      }
      if (text.startsWith(QStringLiteral("Command palette"))) continue;
      if (a->isCheckable()) text += a->isChecked() ? QStringLiteral(" (on)") : QStringLiteral(" (off)");
      QPointer<QAction> guard(a);
      out.push_back({QStringLiteral("Action"), path + text, a->shortcut().toString(QKeySequence::NativeText), [guard] {
                       if (guard) guard->trigger();
                     }});
    }
  };
  for (QAction* top : menuBar()->actions())
    if (QMenu* m = top->menu()) {
      QString name = top->text();
      name.remove(QLatin1Char('&'));
      addMenu(m, name + QStringLiteral(" \u25B8 "));
    }
  if (!doc_) return out;
  const Trace& t = *doc_->trace;
  for (uint32_t tr = 0; tr < t.tracks.size(); ++tr) {
    if (t.tracks[tr].slices.size() == 0) continue;
    out.push_back({QStringLiteral("Track"), QString::fromStdString(t.trackLabel(tr)),
                   QStringLiteral("%L1 events").arg(t.tracks[tr].slices.size()), [this, tr] { goToTrack(tr); }});
  }
  // Slice names by total time, so the few letters typed land on what matters; capped so
  // a trace with millions of distinct names keeps the palette instant.
  std::vector<double> total(t.strings.size(), 0.0);
  std::vector<uint8_t> gpu(t.strings.size(), 0);
  for (const Track& track : t.tracks)
    for (size_t i = 0; i < track.slices.size(); ++i) {
      const StringId n = track.slices.name[i];
      total[n] += static_cast<double>(track.slices.dur[i]) + 1;
      gpu[n] |= track.kind == TrackKind::GpuStream;
    }
  std::vector<StringId> names;
  for (StringId n = 0; n < total.size(); ++n)
    if (total[n] > 0) names.push_back(n);
  constexpr size_t kMaxNames = 20000;
  const size_t keep = std::min(names.size(), kMaxNames);
  std::partial_sort(names.begin(), names.begin() + static_cast<ptrdiff_t>(keep), names.end(),
                    [&](StringId a, StringId b) { return total[a] > total[b]; });
  names.resize(keep);
  for (StringId n : names) {
    const QString full = QString::fromUtf8(t.str(n).data(), static_cast<qsizetype>(t.str(n).size()));
    out.push_back({gpu[n] ? QStringLiteral("Kernel") : QStringLiteral("Op"), full,
                   QString::fromStdString(formatDuration(static_cast<TimeNs>(total[n]))) + QStringLiteral(" total"),
                   [this, full] { selectByName(full); }});
  }
  return out;
}

void MainWindow::openCommandPalette() { palette_->open(paletteEntries()); }

}  // namespace opscope::ui
