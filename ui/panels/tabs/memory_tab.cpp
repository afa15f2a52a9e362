#include "panels/tabs/memory_tab.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QTabWidget>
#include <QTableWidget>
#include <algorithm>
#include <limits>

#include "analysis/memory_timeline.h"
#include "panels/table_items.h"

namespace opscope::ui {

MemoryTab::MemoryTab(const AnalysisKind& kind) : AnalysisTab(kind) {
  live_ = makeTable({QStringLiteral("Size (MiB)"), QStringLiteral("Allocated by op"),
                     QStringLiteral("Allocated at (ms)"), QStringLiteral("Freed at (ms)"), QStringLiteral("Address")},
                    {1});
  byOp_ = makeTable({QStringLiteral("Op"), QStringLiteral("Allocations"), QStringLiteral("Allocated (MiB)"),
                     QStringLiteral("Increase (MiB)"), QStringLiteral("Self allocations"),
                     QStringLiteral("Self allocated (MiB)"), QStringLiteral("Self increase (MiB)")});
  byOp_->setToolTip(
      QStringLiteral("With children: events anywhere inside the op; self: those whose innermost op it is. "
                     "Increase = allocated − freed. Activate a row to search the op in the timeline."));
  connect(byOp_, &QTableWidget::itemActivated, this, [this](QTableWidgetItem* item) {
    emit nameActivated(byOp_->item(item->row(), 0)->data(Qt::UserRole).toString());
  });
  tables_ = new QTabWidget;
  tables_->setDocumentMode(true);
  tables_->addTab(live_, QStringLiteral("Live allocations"));
  tables_->addTab(byOp_, QStringLiteral("By op"));
  note_ = new QLabel;
  note_->setWordWrap(true);
  setAbove(note_);
  setBelow(tables_);
  // A click on a device's curve lists the allocations live at that time.
  connect(plot(), &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
    if (!hasResults()) return;
    for (QCPAxisRect* rect : plot()->axisRects())
      if (rect->rect().contains(e->pos()) && rect->property("device").isValid()) {
        const double ms = rect->axis(QCPAxis::atBottom)->pixelToCoord(e->pos().x());
        showLiveMemory(static_cast<size_t>(rect->property("device").toInt()),
                       doc().trace->minTs + static_cast<TimeNs>(ms * 1e6));
      }
  });
}

void MemoryTab::fill() {
  const MemoryTimeline& m = analysisValue<MemoryTimeline>(result());
  // The allocations live at the first device's peak until a click picks a time.
  device_ = 0;
  time_ = m.devices.empty() ? 0 : m.devices[0].peakTs;
  fillLive();
  fillByOp();
  // Without addresses (older PyTorch) nothing can be listed as live: show the ops.
  if (!m.devices.empty() && m.devices[0].allocations.empty()) tables_->setCurrentWidget(byOp_);
}

void MemoryTab::showLiveMemory(size_t device, TimeNs t) {
  if (!hasResults()) return;
  const bool otherDevice = device != device_;
  device_ = device;
  time_ = t;
  fillLive();
  if (otherDevice) fillByOp();
}

void MemoryTab::fillByOp() {
  const MemoryTimeline& m = analysisValue<MemoryTimeline>(result());
  byOp_->setSortingEnabled(false);
  byOp_->setRowCount(0);
  if (device_ >= m.devices.size()) return;
  const auto& byOp = m.devices[device_].byOp;
  // Most allocated first, as TensorBoard lists it; the user may sort by any column.
  std::vector<const std::pair<const std::string, OpMemory>*> rows;
  rows.reserve(byOp.size());
  for (const auto& entry : byOp) rows.push_back(&entry);
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto* a, const auto* b) { return a->second.allocBytes > b->second.allocBytes; });
  const auto mib = [](int64_t b) { return static_cast<double>(b) / (1024.0 * 1024.0); };
  byOp_->setRowCount(static_cast<int>(rows.size()));
  for (size_t i = 0; i < rows.size(); ++i) {
    const OpMemory& o = rows[i]->second;
    fillRow(byOp_, static_cast<int>(i),
            {nameItem(rows[i]->first), numberItem(static_cast<double>(o.allocs), 0), numberItem(mib(o.allocBytes), 3),
             numberItem(mib(o.increase), 3), numberItem(static_cast<double>(o.selfAllocs), 0),
             numberItem(mib(o.selfAllocBytes), 3), numberItem(mib(o.selfIncrease), 3)});
  }
  byOp_->setSortingEnabled(true);
}

void MemoryTab::fillLive() {
  const MemoryTimeline& m = analysisValue<MemoryTimeline>(result());
  live_->setSortingEnabled(false);
  if (device_ >= m.devices.size()) {
    live_->setRowCount(0);
    note_->setText(m.devices.empty() ? QStringLiteral("No [memory] events in this trace.") : QString());
    return;
  }
  const DeviceMemory& d = m.devices[device_];
  const Trace& trace = *doc().trace;
  const std::vector<const MemoryAllocation*> live = liveAllocations(d, time_);
  const size_t rows = std::min<size_t>(live.size(), 5000);
  live_->setRowCount(static_cast<int>(rows));
  auto ms = [&](TimeNs t) { return static_cast<double>(t - trace.minTs) / 1e6; };
  for (size_t i = 0; i < rows; ++i) {
    const MemoryAllocation& a = *live[i];
    fillRow(live_, static_cast<int>(i),
            {numberItem(static_cast<double>(a.bytes) / (1024.0 * 1024.0), 3),
             a.op ? nameItem(trace.name(*a.op)) : textItem(QStringLiteral("(no op)")), numberItem(ms(a.alloc), 3),
             a.free == std::numeric_limits<TimeNs>::max() ? textItem(QStringLiteral("still live"))
                                                          : numberItem(ms(a.free), 3),
             textItem(QStringLiteral("0x%1").arg(a.addr, 0, 16))});
  }
  live_->setSortingEnabled(true);
  int64_t total = 0;
  for (const MemoryAllocation* a : live) total = satAdd(total, a->bytes);
  note_->setText(d.allocations.empty()
                     ? QStringLiteral("%1: this trace records no allocation addresses (older PyTorch), so live "
                                      "allocations cannot be told apart; the curve is the running sum of its events.")
                           .arg(QString::fromStdString(d.label))
                     : QStringLiteral("%1 at %2 ms: %L3 allocations live, %4 MiB%5. Click a curve to see another time.")
                           .arg(QString::fromStdString(d.label))
                           .arg(ms(time_), 0, 'f', 3)
                           .arg(live.size())
                           .arg(static_cast<double>(total) / (1024.0 * 1024.0), 0, 'f', 1)
                           .arg(time_ == d.peakTs ? QStringLiteral(" (the peak)") : QString()));
}

}  // namespace opscope::ui
