#include "app_theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace opscope::ui {

namespace {

QPalette darkPalette() {
  QPalette p;
  const QColor base(36, 39, 44), window(45, 48, 54), text(220, 223, 228), dim(130, 135, 145);
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, window);
  p.setColor(QPalette::ToolTipBase, window);
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, window);
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::Highlight, QColor(60, 120, 200));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Link, QColor(110, 170, 255));
  p.setColor(QPalette::PlaceholderText, dim);
  p.setColor(QPalette::Disabled, QPalette::Text, dim);
  p.setColor(QPalette::Disabled, QPalette::WindowText, dim);
  p.setColor(QPalette::Disabled, QPalette::ButtonText, dim);
  return p;
}

}  // namespace

void applyApplicationTheme(bool dark) {
  qApp->setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
  qApp->setPalette(dark ? darkPalette() : qApp->style()->standardPalette());
}

}  // namespace opscope::ui
