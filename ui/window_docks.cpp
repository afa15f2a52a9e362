#include "window_docks.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QToolBar>

#include "panels/analysis_panel.h"
#include "panels/details_panel.h"
#include "panels/diff_panel.h"
#include "panels/op_tree_panel.h"
#include "panels/prediction_panel.h"
#include "panels/range_stats_panel.h"

namespace opscope::ui {

namespace {

// The bottom docks' share of the height between the toolbars and the status bar when
// they first open: at 1280x720 the timeline keeps about half the window.
constexpr double kBottomShare = 0.42;

}  // namespace

QDockWidget* WindowDocks::dock(const QString& title, const char* name, QWidget* panel) {
  auto* d = new QDockWidget(title, window_);
  d->setObjectName(QString::fromLatin1(name));
  // A panel whose content needs more room than the dock has scrolls: its minimum size
  // never makes the window grow past the screen.
  auto* scroll = new QScrollArea(d);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(panel);
  d->setWidget(scroll);
  return d;
}

WindowDocks::WindowDocks(QMainWindow* window) : QObject(window), window_(window) {
  details = new DetailsPanel;
  opTree = new OpTreePanel;
  rangeStats = new RangeStatsPanel;
  analysis = new AnalysisPanel;
  prediction = new PredictionPanel;
  diff = new DiffPanel;
  detailsDock = dock(QStringLiteral("Details"), "detailsDock", details);
  treeDock = dock(QStringLiteral("Op tree"), "opTreeDock", opTree);
  rangeDock = dock(QStringLiteral("Area selection"), "areaDock", rangeStats);
  analysisDock = dock(QStringLiteral("Analysis"), "analysisDock", analysis);
  predictionDock = dock(QStringLiteral("Prediction"), "predictionDock", prediction);
  diffDock = dock(QStringLiteral("Compare"), "compareDock", diff);
  // Side docks narrow enough for a laptop, wide enough for a name (the op tree's names
  // went to one letter when Details opened beside it).
  treeDock->setMinimumWidth(230);
  detailsDock->setMinimumWidth(230);
  window_->addDockWidget(Qt::RightDockWidgetArea, detailsDock);
  window_->addDockWidget(Qt::LeftDockWidgetArea, treeDock);
  for (QDockWidget* d : {rangeDock, analysisDock, predictionDock, diffDock})
    window_->addDockWidget(Qt::BottomDockWidgetArea, d);
  window_->tabifyDockWidget(rangeDock, analysisDock);
  window_->tabifyDockWidget(analysisDock, predictionDock);
  window_->tabifyDockWidget(predictionDock, diffDock);
  // Side docks run the full height; the bottom area sits under the timeline only.
  window_->setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  window_->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
  window_->resizeDocks({detailsDock, treeDock}, {340, 300}, Qt::Horizontal);
  for (QDockWidget* d : {analysisDock, predictionDock, diffDock, rangeDock})
    connect(d->toggleViewAction(), &QAction::toggled, this, [this, d](bool on) {
      if (on) showBottom(d);
    });
}

void WindowDocks::showBottom(QDockWidget* d) {
  d->show();
  d->raise();
  // The first time a bottom dock opens it takes two fifths of the height; its charts
  // scroll rather than squash; afterwards it keeps what the user dragged it to.
  if (!d->property("sized").toBool() && !restoredState_ && !maximized_) {
    window_->resizeDocks({d}, {bottomHeight()}, Qt::Vertical);
    d->setProperty("sized", true);
  }
}

int WindowDocks::bottomHeight() const {
  // The room the central widget and the bottom docks share: from under the toolbars
  // (where the central widget starts) to the status bar.
  int room = window_->height();
  if (QWidget* central = window_->centralWidget()) {
    const int top = central->mapTo(window_, QPoint(0, 0)).y();
    const int bottom = window_->statusBar()->isVisible() ? window_->statusBar()->y() : window_->height();
    if (bottom > top) room = bottom - top;
  }
  return static_cast<int>(room * kBottomShare);
}

QDockWidget* WindowDocks::raisedBottom() const {
  for (QDockWidget* d : {analysisDock, predictionDock, diffDock, rangeDock})
    if (d->isVisible() && !d->visibleRegion().isEmpty()) return d;
  return nullptr;
}

void WindowDocks::toggleMaximized() {
  QDockWidget* d = raisedBottom();
  if (!d) d = analysisDock;
  const QSignalBlocker quiet(maximizeAction_);
  if (maximizeAction_) maximizeAction_->setChecked(!maximized_);
  if (!maximized_) {
    // Back to exactly this layout afterwards (resizeDocks' height would not count the
    // tab bar of a tabbed area).
    stateBeforeMaximize_ = window_->saveState();
    showBottom(d);
    maximized_ = true;
    // All but a sliver of the timeline: the dock's charts and tables get the room.
    window_->resizeDocks({d}, {window_->height()}, Qt::Vertical);
  } else {
    maximized_ = false;
    window_->restoreState(stateBeforeMaximize_);
    if (!d->isVisible()) showBottom(d);  // maximised from closed: it stays open
  }
}

QString WindowDocks::exportRaisedChart() {
  QDockWidget* d = raisedBottom();
  if (d == analysisDock) return analysis->exportCurrent();
  if (d == predictionDock) return prediction->exportCurrent();
  if (d == diffDock) return diff->exportCurrent();
  QMessageBox::information(window_, QStringLiteral("Export chart"),
                           QStringLiteral("Open the Analysis, Prediction or Compare panel: its chart is exported."));
  return {};
}

void WindowDocks::addToolbar() {
  QToolBar* bar = window_->addToolBar(QStringLiteral("Panels"));
  bar->setObjectName(QStringLiteral("panelsBar"));
  bar->setMovable(false);
  bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
  for (QDockWidget* d : {treeDock, detailsDock, analysisDock, predictionDock, diffDock}) {
    // Not the dock's toggle: a panel hidden behind another tab is raised, not closed.
    auto* a = new QAction(d->windowTitle(), bar);
    a->setObjectName(d->objectName() + QStringLiteral("Button"));
    a->setCheckable(true);
    a->setToolTip(QStringLiteral("Show the %1 panel (hide it when it is on top)").arg(d->windowTitle()));
    connect(a, &QAction::triggered, this, [this, d, a] {
      const bool onTop = d->isVisible() && !d->visibleRegion().isEmpty();
      if (onTop) d->hide();
      else if (window_->dockWidgetArea(d) == Qt::BottomDockWidgetArea) showBottom(d);
      else {
        d->show();
        d->raise();
      }
      a->setChecked(d->isVisible());
    });
    connect(d, &QDockWidget::visibilityChanged, a, [d, a] { a->setChecked(d->isVisible()); });
    a->setChecked(d->isVisible());
    bar->addAction(a);
  }
  // The View menu's Maximise, where the eye looks for it (at 1280x720 a bottom panel's
  // multi-part charts need it; nobody found it in the menu).
  if (maximizeAction_) bar->addAction(maximizeAction_);
}

void WindowDocks::addViewActions(QMenu* view) {
  for (QDockWidget* d : {detailsDock, treeDock, rangeDock, analysisDock, predictionDock, diffDock})
    view->addAction(d->toggleViewAction());
  QAction* maximize =
      view->addAction(QStringLiteral("&Maximise the bottom panel"), this, [this] { toggleMaximized(); });
  maximize->setObjectName(QStringLiteral("maximizeBottomAction"));
  maximize->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+M")));
  maximize->setIconText(QStringLiteral("Maximise"));
  maximize->setCheckable(true);
  maximize->setToolTip(
      QStringLiteral("The Analysis (or the panel on top) over most of the window; again: back (Ctrl+Shift+M)"));
  maximizeAction_ = maximize;
}

void WindowDocks::hideAtStart() {
  for (QDockWidget* d : {detailsDock, rangeDock, analysisDock, predictionDock, diffDock}) d->hide();
}

void WindowDocks::applyLayout(DockLayout layout) {
  for (QDockWidget* d : {detailsDock, rangeDock, predictionDock, diffDock}) d->hide();
  treeDock->setVisible(layout != DockLayout::TimelineOnly);
  analysisDock->setVisible(layout == DockLayout::TimelineAndAnalysis);
}

}  // namespace opscope::ui
