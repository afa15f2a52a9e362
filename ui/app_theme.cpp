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
  // Fusion outlines a check box in the window colour darkened, which on a dark window
  // is all but invisible (the search bar's "regex"): a light outline, filled when ticked.
  qApp->setStyleSheet(dark ? QStringLiteral("QCheckBox::indicator, QGroupBox::indicator, QTableView::indicator {"
                                            " width: 12px; height: 12px; border: 1px solid #9aa0aa;"
                                            " border-radius: 2px; background: #24272c; }"
                                            "QCheckBox::indicator:checked, QGroupBox::indicator:checked,"
                                            " QTableView::indicator:checked { background: #4f8fe0;"
                                            " border-color: #cfe0ff; }"
                                            "QCheckBox::indicator:disabled { border-color: #5a5f68; }")
                           : QString());
}

}  // namespace opscope::ui
