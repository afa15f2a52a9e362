#pragma once
// A one-line label that never sets its layout's minimum width: text that does not fit is
// cut at the end with an ellipsis and shown whole in the tooltip. For status lines and
// names in rows that share the width with controls (a QLabel asks for its whole text and
// pushed docks wider than the window).
#include <QLabel>

namespace opscope::ui {

class ElidedLabel : public QLabel {
  Q_OBJECT
 public:
  explicit ElidedLabel(QWidget* parent = nullptr);
  void setFullText(const QString& text);
  const QString& fullText() const { return full_; }
  QSize minimumSizeHint() const override;
  QSize sizeHint() const override;

 protected:
  void resizeEvent(QResizeEvent* e) override;

 private:
  void refit();
  QString full_;
};

}  // namespace opscope::ui
