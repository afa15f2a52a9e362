#pragma once
// What the window shows before a trace is open: how to open one, the recent files one
// click away (missing ones greyed, not hidden, so a moved file is noticed), and the two
// keys that find everything else.
#include <QStringList>
#include <QWidget>

class QVBoxLayout;

namespace opscope::ui {

class WelcomePage : public QWidget {
  Q_OBJECT
 public:
  explicit WelcomePage(QWidget* parent = nullptr);
  void setRecent(const QStringList& paths);
  int recentShown() const { return recentShown_; }

 signals:
  void openRequested(const QString& path);
  void openDialogRequested();

 private:
  QVBoxLayout* recentBox_ = nullptr;
  int recentShown_ = 0;
};

}  // namespace opscope::ui
