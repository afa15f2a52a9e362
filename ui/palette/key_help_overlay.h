#pragma once
// The `?` overlay: every key and mouse gesture of the window on one panel over it. The
// timeline's own keys come from keyBindings() (the list its key handler follows); menu
// shortcuts are read from the actions themselves, so the overlay cannot drift from them.
#include <QFrame>
#include <QList>
#include <QString>
#include <utility>
#include <vector>

class QAction;
class QLabel;

namespace opscope::ui {

// Keys and gestures of the timeline, as {keys, what they do}.
const std::vector<std::pair<QString, QString>>& timelineBindings();

class KeyHelpOverlay : public QFrame {
  Q_OBJECT
 public:
  explicit KeyHelpOverlay(QWidget* parent);
  // Shows the timeline's bindings and the shortcuts of these actions, centred on the
  // parent. Any key or click closes it.
  void open(const QList<QAction*>& actions);
  QString text() const;  // the table as plain text (tests)

 protected:
  void keyPressEvent(QKeyEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;

 private:
  QLabel* label_ = nullptr;
};

}  // namespace opscope::ui
