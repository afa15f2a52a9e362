#include "screen_fit.h"

#include <QScreen>
#include <QWidget>
#include <algorithm>

namespace opscope::ui {

QSize fittedWindowSize(const QWidget* w, QSize preferred) {
  const QScreen* screen = w->screen();
  if (!screen) return preferred;
  const QRect avail = screen->availableGeometry();
  return {std::min(preferred.width(), avail.width() * 9 / 10), std::min(preferred.height(), avail.height() * 9 / 10)};
}

QSize firstWindowSize(const QWidget* w) { return fittedWindowSize(w, kPreferredWindowSize); }

bool clampToScreen(QWidget* w) {
  const QScreen* screen = w->screen();
  if (!screen || w->isMaximized() || w->isFullScreen()) return false;
  const QRect avail = screen->availableGeometry();
  const QRect frame = w->frameGeometry();
  // The window manager's frame (title bar, borders) comes on top of the client size.
  const int extraW = std::max(0, frame.width() - w->width()), extraH = std::max(0, frame.height() - w->height());
  const QSize most(std::max(1, avail.width() - extraW), std::max(1, avail.height() - extraH));
  bool changed = false;
  if (w->width() > most.width() || w->height() > most.height()) {
    w->resize(std::min(w->width(), most.width()), std::min(w->height(), most.height()));
    changed = true;
  }
  const QRect now = w->frameGeometry();
  QPoint at = now.topLeft();
  if (now.right() > avail.right()) at.rx() -= now.right() - avail.right();
  if (now.bottom() > avail.bottom()) at.ry() -= now.bottom() - avail.bottom();
  at.rx() = std::max(at.x(), avail.left());
  at.ry() = std::max(at.y(), avail.top());
  if (at != now.topLeft()) {
    w->move(at);
    changed = true;
  }
  return changed;
}

}  // namespace opscope::ui
