#pragma once
// A chart over its table, or beside it when the panel is wide and short (a bottom dock
// on a 1280x720 laptop screen: ~950x250 px, where a chart over a table leaves each a
// sliver). The orientation follows the splitter's own shape; the first widget (the
// chart) gets three fifths of the room beside its table, three quarters over it.
#include <QSplitter>

namespace opscope::ui {

class AdaptiveSplitter : public QSplitter {
  Q_OBJECT
 public:
  explicit AdaptiveSplitter(QWidget* parent = nullptr);
  // Side by side from this width-to-height ratio (and at least kMinSideBySideWidth).
  static constexpr double kSideBySideRatio = 3.0;
  static constexpr int kMinSideBySideWidth = 700;
  static Qt::Orientation orientationFor(QSize size);

 protected:
  void resizeEvent(QResizeEvent* e) override;
};

}  // namespace opscope::ui
