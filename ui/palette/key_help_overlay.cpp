#include "palette/key_help_overlay.h"

#include <QAction>
#include <QKeyEvent>
#include <QLabel>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

namespace opscope::ui {

const std::vector<std::pair<QString, QString>>& timelineBindings() {
  static const std::vector<std::pair<QString, QString>> b{
      {QStringLiteral("W / S"), QStringLiteral("zoom in / out at the mouse")},
      {QStringLiteral("A / D"), QStringLiteral("pan left / right")},
      {QStringLiteral("Ctrl+wheel"), QStringLiteral("zoom at the mouse")},
      {QStringLiteral("Wheel / Shift+wheel"), QStringLiteral("scroll tracks / pan")},
      {QStringLiteral("Drag"), QStringLiteral("pan")},
      {QStringLiteral("Click"), QStringLiteral("select (Details shows it)")},
      {QStringLiteral("Double-click / F"), QStringLiteral("fit the selection")},
      {QStringLiteral("Shift+drag"), QStringLiteral("select a time range (aggregates below)")},
      {QStringLiteral("0 / Home"), QStringLiteral("the whole trace")},
      {QStringLiteral("Esc"), QStringLiteral("clear the selection and the area selection")},
      {QStringLiteral("M"), QStringLiteral("mark the selected slice's span on the ruler (M again: unmark)")},
      {QStringLiteral("] / ["),
       QStringLiteral("follow the selection's flow to its other end (launch -> kernel / back)")},
      {QStringLiteral("Click a track label"), QStringLiteral("show or fold a thread's deeper rows")},
      {QStringLiteral("Click a process header"), QStringLiteral("fold or unfold the process")},
      {QStringLiteral("Enter / Shift+Enter"), QStringLiteral("next / previous search match")},
      {QStringLiteral("?"), QStringLiteral("this overlay")},
  };
  return b;
}

KeyHelpOverlay::KeyHelpOverlay(QWidget* parent) : QFrame(parent) {
  setFrameShape(QFrame::StyledPanel);
  setAutoFillBackground(true);
  setFocusPolicy(Qt::StrongFocus);
  auto* box = new QVBoxLayout(this);
  box->setContentsMargins(18, 14, 18, 14);
  label_ = new QLabel(this);
  label_->setTextFormat(Qt::RichText);
  box->addWidget(label_);
  hide();
}

void KeyHelpOverlay::open(const QList<QAction*>& actions) {
  auto rows = [](const std::vector<std::pair<QString, QString>>& list) {
    QString html;
    for (const auto& [keys, what] : list)
      html += QStringLiteral("<tr><td align=right><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>")
                  .arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
    return html;
  };
  std::vector<std::pair<QString, QString>> menu;
  for (QAction* a : actions) {
    if (a->shortcut().isEmpty() || a->text().isEmpty()) continue;
    QString what = a->text();
    what.remove(QLatin1Char('&'));
    what.remove(QStringLiteral("\u2026"));
    menu.emplace_back(a->shortcut().toString(QKeySequence::NativeText), what);
  }
  label_->setText(QStringLiteral("<h3>Keys and mouse</h3><table><tr><td valign=top><table>%1</table></td>"
                                 "<td width=30></td><td valign=top><table>%2</table></td></tr></table>"
                                 "<p style='color:gray'>Any key or click closes this.</p>")
                      .arg(rows(timelineBindings()), rows(menu)));
  adjustSize();
  QWidget* p = parentWidget();
  move((p->width() - width()) / 2, std::max(0, (p->height() - height()) / 2));
  show();
  raise();
  setFocus();
}

QString KeyHelpOverlay::text() const { return QTextDocumentFragment::fromHtml(label_->text()).toPlainText(); }

void KeyHelpOverlay::keyPressEvent(QKeyEvent* e) {
  e->accept();
  hide();
}

void KeyHelpOverlay::mousePressEvent(QMouseEvent* e) {
  e->accept();
  hide();
}

}  // namespace opscope::ui
