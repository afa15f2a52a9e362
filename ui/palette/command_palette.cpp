#include "palette/command_palette.h"

#include <QApplication>
#include <QKeyEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "palette/palette_match.h"

namespace opscope::ui {

CommandPalette::CommandPalette(QWidget* parent) : QFrame(parent) {
  setFrameShape(QFrame::StyledPanel);
  setAutoFillBackground(true);
  auto* box = new QVBoxLayout(this);
  box->setContentsMargins(6, 6, 6, 6);
  input_ = new QLineEdit(this);
  input_->setPlaceholderText(QStringLiteral("Type an action, a track or an op (Enter runs it, Esc closes)"));
  list_ = new QListWidget(this);
  list_->setUniformItemSizes(true);
  box->addWidget(input_);
  box->addWidget(list_);
  input_->installEventFilter(this);
  connect(input_, &QLineEdit::textChanged, this, [this] { refill(); });
  connect(list_, &QListWidget::itemActivated, this, [this] { runCurrent(); });
  hide();
}

void CommandPalette::open(std::vector<PaletteEntry> entries) {
  entries_ = std::move(entries);
  QWidget* p = parentWidget();
  const int w = std::min(720, std::max(360, p->width() - 40));
  setGeometry((p->width() - w) / 2, 60, w, std::min(460, std::max(200, p->height() - 120)));
  input_->clear();
  refill();
  show();
  raise();
  input_->setFocus();
}

std::vector<const PaletteEntry*> CommandPalette::matches(const QString& text) const {
  const QByteArray q = text.toUtf8();
  std::vector<std::pair<int, const PaletteEntry*>> scored;
  for (const PaletteEntry& e : entries_) {
    const QByteArray t = e.text.toUtf8();
    const int s =
        paletteScore({q.constData(), static_cast<size_t>(q.size())}, {t.constData(), static_cast<size_t>(t.size())});
    if (s >= 0) scored.emplace_back(s, &e);
  }
  // Stable: among equal scores the order the window gave (actions, tracks, ops by time).
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<const PaletteEntry*> out;
  for (size_t i = 0; i < scored.size() && i < static_cast<size_t>(kMaxShown); ++i) out.push_back(scored[i].second);
  return out;
}

void CommandPalette::refill() {
  shown_ = matches(input_->text());
  list_->clear();
  for (const PaletteEntry* e : shown_) {
    QString line = e->kind + QStringLiteral("  \u00B7  ") + e->text;
    if (!e->detail.isEmpty()) line += QStringLiteral("    ") + e->detail;
    auto* item = new QListWidgetItem(line, list_);
    item->setToolTip(e->text);
  }
  if (list_->count()) list_->setCurrentRow(0);
}

void CommandPalette::runCurrent() {
  const int row = list_->currentRow();
  if (row < 0 || row >= static_cast<int>(shown_.size())) return;
  // Copied: running it may reopen or refill the palette.
  const std::function<void()> run = shown_[static_cast<size_t>(row)]->run;
  hide();
  if (run) run();
}

bool CommandPalette::eventFilter(QObject* watched, QEvent* e) {
  if (watched == input_ && e->type() == QEvent::FocusOut) {
    // Clicking elsewhere closes it, as a popup would (the list itself keeps it open).
    QTimer::singleShot(0, this, [this] {
      if (!isAncestorOf(QApplication::focusWidget())) hide();
    });
  }
  if (watched == input_ && e->type() == QEvent::KeyPress) {
    auto* k = static_cast<QKeyEvent*>(e);
    switch (k->key()) {
      case Qt::Key_Escape:
        hide();
        return true;
      case Qt::Key_Return:
      case Qt::Key_Enter:
        runCurrent();
        return true;
      case Qt::Key_Down:
      case Qt::Key_Up:
      case Qt::Key_PageDown:
      case Qt::Key_PageUp:
        QCoreApplication::sendEvent(list_, e);
        return true;
      default:
        break;
    }
  }
  return QFrame::eventFilter(watched, e);
}

}  // namespace opscope::ui
