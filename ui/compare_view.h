#pragma once
// The compared trace's timeline under the open one (File ▸ Compare with…, the Compare
// dock): trace B aligned with A at the start of the compared range. Both timelines share
// one SharedTimeView (zoom, scroll and the selected span), B offset by the alignment, so
// zooming either moves both; hidden until a comparison, and with the Compare dock.
#include <QWidget>
#include <memory>

#include "model/ids.h"
#include "trace_document.h"

class QLabel;

namespace opscope::ui {

class SharedTimeView;
class TimelineWidget;

class CompareView : public QWidget {
  Q_OBJECT
 public:
  // a: the open trace's timeline, which B follows.
  CompareView(TimelineWidget* a, QWidget* parent = nullptr);
  // B with the times of A and B that line up; null closes the comparison.
  void showTrace(std::shared_ptr<const TraceDocument> b, TimeNs alignA, TimeNs alignB);
  TimelineWidget* timeline() const { return b_; }
  bool hasTrace() const;

 private:
  TimelineWidget* a_;
  TimelineWidget* b_ = nullptr;
  QLabel* label_ = nullptr;
  std::shared_ptr<SharedTimeView> shared_;
};

}  // namespace opscope::ui
