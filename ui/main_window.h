#pragma once
// The opscope window: timeline in the middle, docked details / op tree / area
// selection panels, search in the toolbar, loading on a worker with progress and
// cancel in the status bar.
#include <QMainWindow>
#include <memory>
#include <optional>

#include "analysis/find_events.h"
#include "preferences.h"
#include "trace_document.h"

class QAction;
class QCheckBox;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QPushButton;
class QTimer;
class QDockWidget;
class QStackedWidget;
namespace opscope::ui {
class AnalysisPanel;
class CompareView;
class TraceStatusBar;
class RankFilter;
class RecentFiles;
class SearchController;
class TrackCommands;
class WindowDocks;
class CommandPalette;
class KeyHelpOverlay;
class WelcomePage;
struct PaletteEntry;
class PredictionPanel;
class DiffPanel;
struct EtDocument;
class EtLinker;
}  // namespace opscope::ui

namespace opscope::ui {

class DetailsPanel;
class LoadJob;
class OpTreePanel;
class RangeStatsPanel;
class TimelineWidget;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  // restoreSettings: false for automation (screenshots), so saved layouts and
  // themes never change what a scripted run produces.
  explicit MainWindow(bool restoreSettings = true, QWidget* parent = nullptr);
  ~MainWindow() override;

  void openFile(const QString& path);  // on the worker thread; a *.jsonl cluster table opens its view
  // Several rank traces as one session (on the worker thread).
  void openFiles(const QStringList& files);
  // An opscope-cluster table in the cluster view (its own window); false after showing
  // the error when the table cannot be read.
  bool openClusterTable(const QString& path);
  // The rank filter of a multi-rank session: "0-3,7", empty for every rank; false after
  // showing the error when the list cannot be read.
  bool showRanks(const QString& list);
  class ClusterView* clusterView() const {
    return clusterView_;
  }
  void setDocument(std::shared_ptr<const TraceDocument> doc);
  // Loads an execution trace on a worker and links it with the loaded trace; its
  // nodes then show in the details of the ops they link to.
  void openExecutionTrace(const QString& path);
  const EtDocument* executionTrace() const { return et_.get(); }
  bool etBusy() const;
  void showEtLinkReport();
  const TraceDocument* document() const { return doc_.get(); }
  SearchController* search() const { return search_; }

  TimelineWidget* timeline() const { return timeline_; }
  DetailsPanel* details() const;
  OpTreePanel* opTree() const;
  RangeStatsPanel* rangeStats() const;
  AnalysisPanel* analysis() const;
  QDockWidget* analysisDock() const;
  PredictionPanel* prediction() const;
  QDockWidget* predictionDock() const;
  DiffPanel* diff() const;
  QDockWidget* detailsDock() const;
  QDockWidget* rangeDock() const;
  WindowDocks* docks() const { return docks_; }
  CompareView* compareView() const { return compare_; }
  TimelineWidget* timelineB() const;
  QDockWidget* diffDock() const;
  // File > Compare with…: path loaded on a worker, then compared with the open trace in
  // the Compare dock; an empty path compares the open trace with itself (two iterations).
  void compareWith(const QString& path);
  // Marks events found by an analysis like search matches (Enter steps through them)
  // and selects the first.
  // (search_controller.h)
  void markEvents(const QString& what, std::vector<EventRef> events);
  LoadJob* loadJob() const { return job_; }
  QLineEdit* searchBox() const;
  QString searchStatus() const;
  bool runSearch(const QString& text, bool regex);
  void stepSearch(int direction);  // +1 next, -1 previous
  size_t searchMatchCount() const;
  bool selectByName(const QString& name);

  // The timeline as a picture (timeline_export.h).
  bool exportPng(const QString& path, double scale, QString* error = nullptr, bool wholeList = false);
  bool exportPdf(const QString& path, QString* error = nullptr);

  void setDarkTheme(bool dark);

  // Edit ▸ Preferences: the dialog; OK stores (with settings) and applies.
  void showPreferences();
  // Applies p now: time unit (timeline, details), theme, the Prediction dock's GPU, the
  // analyses' kernel-class rules (classifier; null keeps the current ones), and the
  // dock layout when layoutNow.
  void applyPreferences(const Preferences& p, std::shared_ptr<const KernelClassifier> classifier, bool layoutNow);
  const Preferences& preferences() const { return prefs_; }
  void applyDockLayout(DockLayout layout);

  // Ctrl+Shift+P: every menu action, every track of the layout, every slice name (by
  // total time); what the palette lists when it opens.
  std::vector<PaletteEntry> paletteEntries();
  void openCommandPalette();
  CommandPalette* commandPalette() const { return palette_; }
  // `?` / F1: the keys and mouse gestures over the window.
  void showKeyHelp();
  KeyHelpOverlay* keyHelp() const { return keyHelp_; }
  WelcomePage* welcome() const { return welcome_; }
  // Brings a track on screen (unfolding its process): the palette's track entries.
  void goToTrack(uint32_t track);

  // A one-line error for the user: a dialog (interactive) or standard error (scripted
  // runs), and the status bar; what is open stays open.
  void showError(const QString& title, const QString& message);
  QString lastError() const { return lastError_; }

 signals:
  void documentChanged();

 protected:
  void closeEvent(QCloseEvent*) override;
  void showEvent(QShowEvent*) override;
  void resizeEvent(QResizeEvent*) override;
  void dragEnterEvent(QDragEnterEvent*) override;
  void dropEvent(QDropEvent*) override;

 private:
  void buildMenus();
  void onLoaded(std::shared_ptr<const TraceDocument> doc);
  void onFailed(const QString& path, const QString& message);
  void onCancelled(const QString& path);
  void onSelection(std::optional<EventRef> ref);
  void onEtLinked(std::shared_ptr<const EtDocument> et, const QString& path);
  void showWarnings();
  void chooseAndOpen();

  std::shared_ptr<const TraceDocument> doc_;
  TimelineWidget* timeline_ = nullptr;
  CompareView* compare_ = nullptr;      // the Compare dock's B under A
  SearchController* search_ = nullptr;  // the Search toolbar and marked events
  TraceStatusBar* status_ = nullptr;    // the status bar's info, progress and badges
  RecentFiles* recent_ = nullptr;
  RankFilter* ranks_ = nullptr;        // View ▸ Show ranks…
  QStackedWidget* central_ = nullptr;  // the welcome page until a trace is open, then the timeline
  WelcomePage* welcome_ = nullptr;
  CommandPalette* palette_ = nullptr;
  KeyHelpOverlay* keyHelp_ = nullptr;
  TrackCommands* tracks_ = nullptr;
  WindowDocks* docks_ = nullptr;  // the docks and their panels
  std::shared_ptr<const EtDocument> et_;
  EtLinker* etLinker_ = nullptr;
  bool restoredState_ = false;  // a saved layout decides which bottom tab is on top
  bool shownOnce_ = false;
  LoadJob* job_ = nullptr;
  class ClusterView* clusterView_ = nullptr;
  bool loadingFileList_ = false;
  QAction* darkAction_ = nullptr;
  Preferences prefs_;
  QString loadingPath_;
  QString lastError_;
  bool restoreSettings_ = true;
};

}  // namespace opscope::ui
