#include "compare_view.h"

#include <QFileInfo>
#include <QLabel>
#include <QVBoxLayout>

#include "timeline/shared_time_view.h"
#include "timeline/timeline_widget.h"

namespace opscope::ui {

CompareView::CompareView(TimelineWidget* a, QWidget* parent) : QWidget(parent), a_(a) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 2, 0, 0);
  layout->setSpacing(2);
  label_ = new QLabel(this);
  b_ = new TimelineWidget(this);
  b_->setObjectName(QStringLiteral("timelineB"));
  layout->addWidget(label_);
  layout->addWidget(b_, 1);
  hide();
}

bool CompareView::hasTrace() const { return b_->data() != nullptr; }

void CompareView::showTrace(std::shared_ptr<const TraceDocument> b, TimeNs alignA, TimeNs alignB) {
  if (!b) {
    a_->linkView(nullptr, 0);
    b_->linkView(nullptr, 0);
    b_->setData(nullptr);
    shared_.reset();
    hide();
    return;
  }
  if (b_->data() != b.get()) b_->setData(b);
  label_->setText(
      QStringLiteral("<b>B</b> %1 · aligned with A at the start of the compared range · zoom and scroll follow A")
          .arg(QFileInfo(QString::fromStdString(b->path)).fileName().toHtmlEscaped()));
  show();
  // A's time is the shared axis; B's offset is where its aligned time lies from A's.
  shared_ = std::make_shared<SharedTimeView>();
  a_->linkView(shared_, 0);
  b_->linkView(shared_, alignB - alignA);
}

}  // namespace opscope::ui
