#pragma once
// Search in the window: the toolbar's box (a substring, or a regular expression), its
// count, and the events marked like matches (an analysis's events, the same collective on
// every rank), which Enter / Shift+Enter step through on the timeline in time order.
#include <QObject>
#include <QString>
#include <memory>
#include <optional>
#include <vector>

#include "analysis/find_events.h"
#include "trace_document.h"

class QCheckBox;
class QLineEdit;
class QMainWindow;

namespace opscope::ui {

class ElidedLabel;
class TimelineWidget;

class SearchController : public QObject {
  Q_OBJECT
 public:
  // Adds the Search toolbar and Ctrl+F to window; steps and marks on timeline.
  SearchController(QMainWindow* window, TimelineWidget* timeline);
  // A new trace: the typed search runs again on it.
  void setDocument(std::shared_ptr<const TraceDocument> doc);

  // The status's width in the toolbar, whatever it says.
  static constexpr int kStatusWidth = 260;
  QLineEdit* box() const { return box_; }
  QString status() const;
  size_t matchCount() const { return matches_->size(); }
  // Search as typed; false (and why in the status) when a regular expression does not
  // compile.
  bool run(const QString& text, bool regex);
  void step(int direction);  // +1 next, -1 previous
  // The name typed into the box and its first match selected.
  void find(const QString& name);
  // Events found by an analysis, marked like matches; the first selected.
  void markEvents(const QString& what, std::vector<EventRef> events);
  // The selected collective on every rank, marked like matches (a search in progress
  // keeps its own); leaving a collective clears its marks.
  void markCollectivePeers(std::optional<EventRef> ref);
  // The longest slice named exactly name (else the longest whose name contains it),
  // selected; false when there is none.
  bool selectByName(const QString& name);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  TimelineWidget* timeline_;
  std::shared_ptr<const TraceDocument> doc_;
  QLineEdit* box_ = nullptr;
  QCheckBox* regex_ = nullptr;
  ElidedLabel* label_ = nullptr;
  std::shared_ptr<NameMatcher> matcher_;
  std::shared_ptr<std::vector<EventRef>> matches_ = std::make_shared<std::vector<EventRef>>();
  size_t cursor_ = 0;
  bool collectiveMarked_ = false;  // matches_ holds the selected collective on every rank
};

}  // namespace opscope::ui
