#include "panels/critical_path_view.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include "panels/table_items.h"
#include "report/critical_path_report.h"
#include "report/summary_report.h"

namespace opscope::ui {

namespace {

QString categoryLabel(CpCategory c) {
  switch (c) {
    case CpCategory::CpuOp:
      return QStringLiteral("CPU op");
    case CpCategory::Runtime:
      return QStringLiteral("Runtime call / lock");
    case CpCategory::Kernel:
      return QStringLiteral("Kernel");
    case CpCategory::Communication:
      return QStringLiteral("Communication kernel");
    case CpCategory::Memcpy:
      return QStringLiteral("Memcpy / memset");
    case CpCategory::SyncWait:
      return QStringLiteral("Sync wait");
    case CpCategory::LaunchDelay:
      return QStringLiteral("Launch delay");
    case CpCategory::KernelGap:
      return QStringLiteral("Kernel-kernel gap");
    case CpCategory::Idle:
      return QStringLiteral("Host idle");
  }
  return {};
}

}  // namespace

CriticalPathView::CriticalPathView(QWidget* parent) : QWidget(parent) {
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(0, 0, 0, 0);
  auto* bar = new QHBoxLayout;
  summary_ = new QLabel(QStringLiteral("No trace"));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  mark_ = new QPushButton(QStringLiteral("Mark on the timeline"));
  mark_->setToolTip(
      QStringLiteral("Marks every event of the path (Enter steps through them) and draws its edges between tracks"));
  mark_->setEnabled(false);
  connect(mark_, &QPushButton::clicked, this, &CriticalPathView::markOnTimeline);
  bar->addWidget(summary_, 1);
  bar->addWidget(mark_);
  v->addLayout(bar);
  categories_ = makeTable(
      {QStringLiteral("Where the path's time goes"), QStringLiteral("Time (ms)"), QStringLiteral("Share (%)")});
  categories_->setSortingEnabled(true);
  segments_ = makeTable({QStringLiteral("Start (ms)"), QStringLiteral("Duration (µs)"), QStringLiteral("Category"),
                         QStringLiteral("Edge"), QStringLiteral("Event"), QStringLiteral("Track")},
                        {4, 5});
  segments_->setToolTip(QStringLiteral("The path in order; double-click a row to select its event on the timeline"));
  connect(segments_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
    if (!path_ || !segments_->item(row, 0)) return;
    const int i = segments_->item(row, 0)->data(Qt::UserRole).toInt();
    if (i < 0 || i >= static_cast<int>(path_->segments.size())) return;
    const CriticalPathSegment& s = path_->segments[static_cast<size_t>(i)];
    const uint64_t ref = s.event != kNoRef ? s.event : s.to;
    if (ref != kNoRef)
      emit eventsActivated(segments_->item(row, 2)->text() + QStringLiteral(" on the critical path"),
                           {EventRef::unpack(ref)});
  });
  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(categories_);
  split->addWidget(segments_);
  split->setSizes({180, 400});
  v->addWidget(split, 1);
}

void CriticalPathView::setPath(std::shared_ptr<const TraceDocument> doc, std::shared_ptr<const CriticalPath> path,
                               const QString& scope) {
  doc_ = std::move(doc);
  path_ = std::move(path);
  scope_ = scope;
  stale_ = true;
  if (isVisible()) fillIfStale();
}

void CriticalPathView::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  fillIfStale();
}

void CriticalPathView::fillIfStale() {
  if (!stale_) return;
  stale_ = false;
  fill();
}

void CriticalPathView::fill() {
  const QString& scope = scope_;
  categories_->setSortingEnabled(false);
  categories_->setRowCount(0);
  segments_->setRowCount(0);
  mark_->setEnabled(false);
  if (!doc_ || !path_) {
    summary_->setText(QStringLiteral("No trace"));
    return;
  }
  const CriticalPath& p = *path_;
  if (!p.ok()) {
    summary_->setText(QStringLiteral("No critical path for %1: %2").arg(scope, QString::fromStdString(p.error)));
    return;
  }
  const Trace& t = *doc_->trace;
  QString text =
      QStringLiteral(
          "<b>%1</b> on the critical path of %2 (%3 long, its work over after %4) · %L5 events, %L6 segments")
          .arg(QString::fromStdString(formatDuration(p.length())), scope.toHtmlEscaped(),
               QString::fromStdString(formatDuration(p.window.end - p.window.start)),
               QString::fromStdString(formatDuration(p.window.wallEnd - p.window.start)))
          .arg(p.events.size())
          .arg(p.segments.size());
  for (const std::string& note : criticalPathWarnings(p))
    text += QStringLiteral("<br><i>%1</i>").arg(QString::fromStdString(note).toHtmlEscaped());
  summary_->setText(text);
  int row = 0;
  categories_->setRowCount(static_cast<int>(kCpCategoryCount));
  for (size_t c = 0; c < kCpCategoryCount; ++c) {
    if (p.byCategory[c] == 0) continue;
    const double share =
        p.length() > 0 ? 100.0 * static_cast<double>(p.byCategory[c]) / static_cast<double>(p.length()) : 0;
    fillRow(categories_, row++,
            {textItem(categoryLabel(static_cast<CpCategory>(c))),
             numberItem(static_cast<double>(p.byCategory[c]) / 1e6, 3), numberItem(share, 1)});
  }
  categories_->setRowCount(row);
  categories_->setSortingEnabled(true);
  categories_->sortItems(1, Qt::DescendingOrder);
  // Every segment in order; a million-row table stays usable because QTableWidget only
  // paints what is visible, but filling it costs: cap at 20,000 rows and say so.
  constexpr size_t kMaxRows = 20000;
  const size_t rows = std::min(p.segments.size(), kMaxRows);
  segments_->setRowCount(static_cast<int>(rows));
  for (size_t i = 0; i < rows; ++i) {
    const CriticalPathSegment& s = p.segments[i];
    QTableWidgetItem* start = numberItem(static_cast<double>(s.start - t.minTs) / 1e6, 3);
    start->setData(Qt::UserRole, static_cast<int>(i));
    QTableWidgetItem* name =
        s.event != kNoRef ? nameItem(t.name(EventRef::unpack(s.event))) : textItem(QStringLiteral("—"));
    QTableWidgetItem* track =
        textItem(s.event != kNoRef ? QString::fromStdString(t.trackLabel(EventRef::unpack(s.event).track)) : QString());
    fillRow(segments_, static_cast<int>(i),
            {start, numberItem(static_cast<double>(s.end - s.start) / 1e3, 3), textItem(categoryLabel(s.category)),
             textItem(QString::fromLatin1(cpEdgeTypeName(s.edge))), name, track});
  }
  if (p.segments.size() > kMaxRows)
    summary_->setText(
        summary_->text() +
        QStringLiteral("<br>The table lists the first %L1 segments; `opscope critical-path --csv` lists all.")
            .arg(kMaxRows));
  mark_->setEnabled(true);
}

std::vector<PathArrow> CriticalPathView::arrows() const {
  std::vector<PathArrow> out;
  if (!path_) return out;
  for (const CriticalPathSegment& s : path_->segments) {
    if (s.from == kNoRef || s.to == kNoRef) continue;
    const EventRef a = EventRef::unpack(s.from), b = EventRef::unpack(s.to);
    if (a.track == b.track) continue;
    // Launch edges leave the call's start; the rest leave where the earlier work ends.
    // Sync edges arrive at the waiting call's end; the rest at the next work's start.
    out.push_back({a, b, s.edge == CpEdgeType::LaunchDelay, s.edge != CpEdgeType::Sync});
  }
  return out;
}

void CriticalPathView::markOnTimeline() {
  if (!path_ || path_->events.empty()) return;
  std::vector<EventRef> events;
  events.reserve(path_->events.size());
  for (uint64_t r : path_->events) events.push_back(EventRef::unpack(r));
  emit pathMarked(arrows());
  emit eventsActivated(QStringLiteral("the critical path"), std::move(events));
}

}  // namespace opscope::ui
