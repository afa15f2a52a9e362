// The Breakdown tab: device time per stream, op, sub-op and kernel as a filterable
// tree; the chart follows the tree (a selected row with children shows them as bars),
// activating a row marks its GPU events in the timeline.
#include <qcustomplot.h>

#include <QHeaderView>
#include <QLineEdit>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <functional>

#include "analysis/device_breakdown.h"
#include "panels/analysis_tab.h"

namespace opscope::ui {

namespace {

class BreakdownTab : public AnalysisTab {
 public:
  explicit BreakdownTab(const AnalysisKind& kind) : AnalysisTab(kind) {
    auto* w = new QWidget;
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(0, 0, 0, 0);
    filter_ = new QLineEdit;
    filter_->setPlaceholderText(QStringLiteral("Filter ops and kernels…"));
    filter_->setClearButtonEnabled(true);
    tree_ = new QTreeWidget;
    tree_->setObjectName(QStringLiteral("breakdownTree"));
    tree_->setHeaderLabels({QStringLiteral("Stream / op / kernel"), QStringLiteral("Device time (ms)"),
                            QStringLiteral("Share of stream"), QStringLiteral("GPU events")});
    tree_->setSortingEnabled(true);
    tree_->sortByColumn(1, Qt::DescendingOrder);
    tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    tree_->header()->setStretchLastSection(false);
    for (int c = 1; c < tree_->columnCount(); ++c)
      tree_->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    tree_->setToolTip(QStringLiteral("Activate a row to mark its GPU events in the timeline"));
    v->addWidget(filter_);
    v->addWidget(tree_, 1);
    setBelow(w);
    connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
      // Shows matching rows and the path to them.
      std::function<bool(QTreeWidgetItem*)> apply = [&](QTreeWidgetItem* item) {
        bool any = text.isEmpty() || item->text(0).contains(text, Qt::CaseInsensitive);
        for (int c = 0; c < item->childCount(); ++c) any = apply(item->child(c)) || any;
        item->setHidden(!any);
        return any;
      };
      for (int i = 0; i < tree_->topLevelItemCount(); ++i) apply(tree_->topLevelItem(i));
      if (!text.isEmpty()) tree_->expandAll();
    });
    connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
      if (!hasResults()) return;
      const DeviceBreakdown& b = analysisValue<DeviceBreakdown>(result());
      uint32_t focus = UINT32_MAX;
      if (item) {
        const uint32_t node = item->data(0, Qt::UserRole).toUInt();
        if (!b.nodes[node].children.empty()) focus = node;
        else if (b.nodes[node].parent != UINT32_MAX) focus = b.nodes[node].parent;
      }
      if (focus == focus_) return;
      focus_ = focus;
      redraw();
    });
    connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
      if (!hasResults()) return;
      const DeviceBreakdown& b = analysisValue<DeviceBreakdown>(result());
      const BreakdownNode& n = b.nodes[item->data(0, Qt::UserRole).toUInt()];
      std::vector<EventRef> events;
      for (uint32_t i = n.firstEvent; i < n.endEvent; ++i) events.push_back(EventRef::unpack(b.events[i]));
      emit eventsActivated(item->text(0), std::move(events));
    });
    connect(plot(), &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable* p, int index, QMouseEvent*) {
      const QStringList tips = p->property("tips").toStringList();
      if (hasResults() && index >= 0 && index < tips.size()) emit nameActivated(tips[index].section('\n', 0, 0));
    });
  }

  ChartOptions chartOptions() const override {
    ChartOptions o;
    o.focus = focus_;
    return o;
  }

 protected:
  void fill() override {
    focus_ = UINT32_MAX;  // node ids belong to the previous results
    const DeviceBreakdown& b = analysisValue<DeviceBreakdown>(result());
    const Trace& trace = *doc().trace;
    const QSignalBlocker block(tree_);
    tree_->setSortingEnabled(false);
    tree_->clear();
    std::function<void(QTreeWidgetItem*, uint32_t)> add = [&](QTreeWidgetItem* parent, uint32_t n) {
      const BreakdownNode& node = b.nodes[n];
      auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree_);
      const QString label = QString::fromStdString(breakdownLabel(trace, node));
      item->setText(0, label);
      item->setToolTip(0, label);
      item->setData(0, Qt::UserRole, n);
      item->setData(1, Qt::DisplayRole, QString::number(static_cast<double>(node.time) / 1e6, 'f', 3).toDouble());
      item->setData(2, Qt::DisplayRole, QString::number(100 * node.share, 'f', 1).toDouble());
      item->setData(3, Qt::DisplayRole, static_cast<qulonglong>(node.count));
      for (int c = 1; c < 4; ++c) item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
      for (uint32_t c : node.children) add(item, c);
    };
    for (uint32_t root : b.roots) add(nullptr, root);
    tree_->setSortingEnabled(true);
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) tree_->topLevelItem(i)->setExpanded(true);
  }

 private:
  QLineEdit* filter_ = nullptr;
  QTreeWidget* tree_ = nullptr;
  uint32_t focus_ = UINT32_MAX;  // node whose children the chart shows
};

}  // namespace

AnalysisTab* makeBreakdownTab(const AnalysisKind& kind) { return new BreakdownTab(kind); }

}  // namespace opscope::ui
