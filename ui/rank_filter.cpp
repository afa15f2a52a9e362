#include "rank_filter.h"

#include <QAction>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <set>

#include "ranks/rank_inputs.h"
#include "timeline/timeline_widget.h"
#include "trace_document.h"

namespace opscope::ui {

RankFilter::RankFilter(QMenu* view, TimelineWidget* timeline, QWidget* window)
    : QObject(window), timeline_(timeline), window_(window) {
  QAction* ranks =
      view->addAction(QStringLiteral("Show &ranks…"), QKeySequence(QStringLiteral("Ctrl+Shift+R")), this, [this] {
        bool ok = false;
        const QString text = QInputDialog::getText(window_, QStringLiteral("Show ranks"),
                                                   QStringLiteral("Ranks to show, e.g. 0-3,7 (empty: every rank):"),
                                                   QLineEdit::Normal, shown_, &ok);
        if (!ok) return;
        QString error, status;
        if (show(text, error, status)) emit message(status);
        else emit failed(QStringLiteral("Show ranks"), error);
      });
  // Each rank is a group of its own on the timeline: fold them all to compare ranks
  // line by line, unfold to see every rank's streams.
  QAction* fold =
      view->addAction(QStringLiteral("&Fold every rank"), this, [this] { timeline_->setAllRanksCollapsed(true); });
  QAction* unfold =
      view->addAction(QStringLiteral("&Unfold every rank"), this, [this] { timeline_->setAllRanksCollapsed(false); });
  actions_ = {ranks, fold, unfold};
  setDocument(nullptr);
}

void RankFilter::setDocument(const TraceDocument* doc) {
  bool multi = false;
  if (doc)
    for (const Process& p : doc->trace->processes) multi |= p.rank != kNoId;
  for (QAction* a : actions_) a->setEnabled(multi);
  shown_.clear();
}

bool RankFilter::show(const QString& list, QString& error, QString& status) {
  std::set<int64_t> ranks;
  std::string e;
  if (!list.trimmed().isEmpty() && !parseRankList(list.toStdString(), ranks, e)) {
    error = QString::fromStdString(e);
    return false;
  }
  shown_ = list.trimmed();
  timeline_->setShownRanks(ranks);
  status = ranks.empty() ? QStringLiteral("Showing every rank")
                         : QStringLiteral("Showing ranks %1 (View ▸ Show ranks… to change)").arg(shown_);
  return true;
}

}  // namespace opscope::ui
