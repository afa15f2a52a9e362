#include "elided_label.h"

#include <QFontMetrics>
#include <QResizeEvent>

namespace opscope::ui {

ElidedLabel::ElidedLabel(QWidget* parent) : QLabel(parent) {
  setTextFormat(Qt::PlainText);
  setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

void ElidedLabel::setFullText(const QString& text) {
  full_ = text;
  refit();
  updateGeometry();
}

QSize ElidedLabel::minimumSizeHint() const { return {0, QLabel::minimumSizeHint().height()}; }

QSize ElidedLabel::sizeHint() const {
  return {fontMetrics().horizontalAdvance(full_) + 2 * margin() + 4, QLabel::sizeHint().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent* e) {
  QLabel::resizeEvent(e);
  refit();
}

void ElidedLabel::refit() {
  const QString shown = fontMetrics().elidedText(full_, Qt::ElideRight, std::max(0, width() - 2 * margin()));
  setText(shown);
  setToolTip(shown == full_ ? QString() : full_);
}

}  // namespace opscope::ui
