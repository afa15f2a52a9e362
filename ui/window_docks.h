#pragma once
// The window's docks and the panels in them, and how they share the screen: Details on
// the right, the op tree on the left, and under the timeline one tabbed area for Area
// selection, Analysis, Prediction and Compare. A bottom dock opens at 42 % of the height
// between the toolbars and the status bar (the timeline keeps the rest: on a 1280x720 laptop
// screen at least 45 % of the window), every dock's content scrolls rather than forcing
// the window to grow, a toolbar button shows and raises its panel (hides it when it is
// already on top), and the bottom area can be maximised over the timeline and restored.
#include <QByteArray>
#include <QObject>

#include "preferences.h"

class QDockWidget;
class QMainWindow;
class QMenu;

class QAction;

namespace opscope::ui {

class AnalysisPanel;
class DetailsPanel;
class DiffPanel;
class OpTreePanel;
class PredictionPanel;
class RangeStatsPanel;

class WindowDocks : public QObject {
  Q_OBJECT
 public:
  explicit WindowDocks(QMainWindow* window);

  // The Panels toolbar, and the dock toggles and Maximise in the View menu.
  void addToolbar();
  void addViewActions(QMenu* view);
  // Without a saved layout: the timeline owns the window; Details appears with the first
  // selection, the area table with the first area selection, the analyses and the
  // prediction wait for their button.
  void hideAtStart();
  void applyLayout(DockLayout layout);
  // Shows and raises a bottom dock, sized the first time it opens.
  void showBottom(QDockWidget* dock);
  // The bottom area over most of the window, or back to its size before.
  void toggleMaximized();
  bool maximized() const { return maximized_; }
  // File ▸ Export chart…: the chart of the bottom panel on top (Analysis' current tab,
  // Prediction, Compare) to a file chosen in one dialog; the path written, or empty
  // (cancelled; no chart on top: said in a message box).
  QString exportRaisedChart();
  void setRestoredState(bool restored) { restoredState_ = restored; }

  DetailsPanel* details = nullptr;
  OpTreePanel* opTree = nullptr;
  RangeStatsPanel* rangeStats = nullptr;
  AnalysisPanel* analysis = nullptr;
  PredictionPanel* prediction = nullptr;
  DiffPanel* diff = nullptr;
  QDockWidget* detailsDock = nullptr;
  QDockWidget* treeDock = nullptr;
  QDockWidget* rangeDock = nullptr;
  QDockWidget* analysisDock = nullptr;
  QDockWidget* predictionDock = nullptr;
  QDockWidget* diffDock = nullptr;

 private:
  QDockWidget* dock(const QString& title, const char* name, QWidget* panel);
  // The bottom dock now on top, if any.
  QDockWidget* raisedBottom() const;
  // The height a bottom dock opens at.
  int bottomHeight() const;
  QMainWindow* window_;
  bool restoredState_ = false;
  bool maximized_ = false;
  QAction* maximizeAction_ = nullptr;  // View ▸ Maximise, also on the toolbar
  QByteArray stateBeforeMaximize_;
};

}  // namespace opscope::ui
