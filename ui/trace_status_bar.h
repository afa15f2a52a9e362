#pragma once
// The status bar's account of the open trace: what is loaded (slices, streams,
// iterations, wall, load time), the load in progress (bytes, events, a Cancel button),
// the warnings badge (problems orange, informational diagnostics quiet) and the
// execution trace's link.
#include <QObject>
#include <QString>

class QLabel;
class QProgressBar;
class QPushButton;
class QStatusBar;
class QTimer;

namespace opscope::ui {

class LoadJob;
struct TraceDocument;

class TraceStatusBar : public QObject {
  Q_OBJECT
 public:
  TraceStatusBar(QStatusBar* bar, LoadJob* job);
  // A load started (what: "Loading trace.json…") or ended.
  void setLoading(bool loading, const QString& what = {});
  // The open trace (null: none), its info line and its warnings badge.
  void showDocument(const TraceDocument* doc);
  // The execution trace's link summary on its button; empty hides it.
  void showEtLink(const QString& text);
  QString info() const;

 signals:
  void warningsRequested();
  void etReportRequested();

 private:
  void poll();
  LoadJob* job_;
  QLabel* info_ = nullptr;
  QLabel* progressLabel_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QPushButton* warnings_ = nullptr;
  QPushButton* et_ = nullptr;
  QTimer* timer_ = nullptr;
};

}  // namespace opscope::ui
