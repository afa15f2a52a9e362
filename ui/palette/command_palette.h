#pragma once
// Ctrl+Shift+P: one box that reaches every menu action, every track and every op by
// typing a few letters of it (ranked by palette_match.h). The window fills it each
// time it opens, so what it lists is what the window holds now.
#include <QFrame>
#include <QString>
#include <functional>
#include <vector>

class QLineEdit;
class QListWidget;

namespace opscope::ui {

struct PaletteEntry {
  QString kind;    // "Action", "Track", "Op": shown greyed before the text
  QString text;    // what is matched and shown
  QString detail;  // shown after the text (a shortcut, a total time); not matched
  std::function<void()> run;
};

class CommandPalette : public QFrame {
  Q_OBJECT
 public:
  explicit CommandPalette(QWidget* parent);

  // Shows the palette over the top of the parent with these entries, the box empty.
  void open(std::vector<PaletteEntry> entries);
  // The rows listed for text, best first (at most kMaxShown): what the list shows.
  std::vector<const PaletteEntry*> matches(const QString& text) const;
  QLineEdit* input() const { return input_; }
  QListWidget* list() const { return list_; }
  static constexpr int kMaxShown = 200;

 protected:
  bool eventFilter(QObject* watched, QEvent* e) override;

 private:
  void refill();
  void runCurrent();

  QLineEdit* input_ = nullptr;
  QListWidget* list_ = nullptr;
  std::vector<PaletteEntry> entries_;
  std::vector<const PaletteEntry*> shown_;
};

}  // namespace opscope::ui
