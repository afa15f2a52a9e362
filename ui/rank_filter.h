#pragma once
// Multi-rank sessions in the window: View ▸ Show ranks… (which ranks the timeline lays
// out, "0-3,7"), Fold / Unfold every rank; the actions are enabled only when the open
// trace has ranks.
#include <QObject>
#include <QString>

class QAction;
class QMenu;
class QWidget;

namespace opscope::ui {

class TimelineWidget;
struct TraceDocument;

class RankFilter : public QObject {
  Q_OBJECT
 public:
  // Adds its actions to view; dialogs are parented to window.
  RankFilter(QMenu* view, TimelineWidget* timeline, QWidget* window);
  // A new trace: the actions follow whether it has ranks; every rank is shown.
  void setDocument(const TraceDocument* doc);
  // The ranks to show ("0-3,7"; empty: every rank); false and error (one line) when the
  // list cannot be read. status: what to tell the user.
  bool show(const QString& list, QString& error, QString& status);
  QString shown() const { return shown_; }

 signals:
  void failed(const QString& title, const QString& message);
  void message(const QString& text);

 private:
  TimelineWidget* timeline_;
  QWidget* window_;
  QList<QAction*> actions_;
  QString shown_;  // the list as typed
};

}  // namespace opscope::ui
