#pragma once
// The Analysis dock's Critical path tab: where the path's time goes (a table by
// category), and its segments in path order. Double-clicking a segment selects its
// event on the timeline; "Mark on the timeline" marks every event of the path (Enter
// steps through them) and draws its cross-track edges (launch, kernel-kernel, sync).
#include <QWidget>
#include <memory>
#include <vector>

#include "analysis/critical_path.h"
#include "timeline/timeline_renderer.h"
#include "trace_document.h"

class QLabel;
class QPushButton;
class QTableWidget;

namespace opscope::ui {

class CriticalPathView : public QWidget {
  Q_OBJECT
 public:
  explicit CriticalPathView(QWidget* parent = nullptr);
  // Keeps the path; its tables are filled when the tab is shown (20,000 segment rows
  // take 80 ms: not while the user is on another tab) or when one is asked for.
  void setPath(std::shared_ptr<const TraceDocument> doc, std::shared_ptr<const CriticalPath> path,
               const QString& scope);
  QTableWidget* segmentTable() {
    fillIfStale();
    return segments_;
  }
  QTableWidget* categoryTable() {
    fillIfStale();
    return categories_;
  }
  // The path's edges between tracks, as the timeline draws them.
  std::vector<PathArrow> arrows() const;
  // What the "Mark on the timeline" button does.
  void mark() { markOnTimeline(); }

 signals:
  void eventsActivated(const QString& what, std::vector<opscope::EventRef> events);
  void pathMarked(std::vector<opscope::ui::PathArrow> arrows);

 protected:
  void showEvent(QShowEvent* e) override;

 private:
  void fillIfStale();
  void fill();
  void markOnTimeline();
  QString scope_;
  bool stale_ = false;
  std::shared_ptr<const TraceDocument> doc_;
  std::shared_ptr<const CriticalPath> path_;
  QLabel* summary_ = nullptr;
  QPushButton* mark_ = nullptr;
  QTableWidget* categories_ = nullptr;
  QTableWidget* segments_ = nullptr;
};

}  // namespace opscope::ui
