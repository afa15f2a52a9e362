#include "panels/op_kernels_view.h"

#include "elided_label.h"

#include "preferences.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QThreadPool>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "analysis/kernel_classes.h"
#include "timeline/names.h"
#include "worker.h"

namespace opscope::ui {

namespace {

// Sorts numeric columns by value, not by text.
class Item : public QTreeWidgetItem {
 public:
  using QTreeWidgetItem::QTreeWidgetItem;
  bool operator<(const QTreeWidgetItem& other) const override {
    const int c = treeWidget() ? treeWidget()->sortColumn() : 0;
    if (c == 0) return text(0) < other.text(0);
    return data(c, Qt::UserRole).toDouble() < other.data(c, Qt::UserRole).toDouble();
  }
};

void setNumber(QTreeWidgetItem* item, int column, double value, int decimals) {
  item->setText(column, QString::number(value, 'f', decimals));
  item->setData(column, Qt::UserRole, value);
  item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
}

double ms(TimeNs ns) { return static_cast<double>(ns) / 1e6; }

}  // namespace

OpKernelsView::OpKernelsView(QWidget* parent) : QWidget(parent), classifier_(builtinKernelClassifier()) {
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(0, 0, 0, 0);
  auto* bar = new QHBoxLayout;
  op_ = new QComboBox;
  op_->setEditable(true);
  op_->setInsertPolicy(QComboBox::NoInsert);
  op_->setMinimumContentsLength(24);
  // Narrower than its 24 characters when the dock is (the Analysis beside both side docks
  // at 1280x720): the row's minimum set the whole panel's, behind a scroll bar.
  op_->setMinimumWidth(140);
  op_->setToolTip(QStringLiteral("Op name (exact); the ops with the most device time are listed"));
  byShape_ = new QCheckBox(QStringLiteral("by input shape"));
  byShape_->setChecked(true);
  byShape_->setToolTip(QStringLiteral("Group the calls by their recorded Input Dims (record_shapes=True)"));
  status_ = new ElidedLabel;  // a long status is elided, never widens the row
  bar->addWidget(new QLabel(QStringLiteral("Kernels of op")));
  bar->addWidget(op_);
  bar->addWidget(byShape_);
  bar->addWidget(status_, 1);
  v->addLayout(bar);
  tree_ = new QTreeWidget;
  tree_->setHeaderLabels({QStringLiteral("Input shapes / kernel"), QStringLiteral("Calls / count"),
                          QStringLiteral("CPU (ms)"), QStringLiteral("GPU (ms)"), QStringLiteral("Mean (µs)"),
                          QStringLiteral("Class")});
  tree_->setSortingEnabled(true);
  tree_->sortByColumn(3, Qt::DescendingOrder);
  tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  tree_->header()->setStretchLastSection(false);
  for (int c = 1; c < tree_->columnCount(); ++c)
    tree_->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
  tree_->setToolTip(QStringLiteral("Activate a kernel to search it in the timeline"));
  v->addWidget(tree_, 1);
  connect(op_, &QComboBox::activated, this, [this] { recompute(); });
  connect(op_->lineEdit(), &QLineEdit::returnPressed, this, [this] { recompute(); });
  connect(byShape_, &QCheckBox::toggled, this, [this] { recompute(); });
  connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
    if (item->parent()) emit nameActivated(item->toolTip(0));
  });
}

void OpKernelsView::setScope(std::shared_ptr<const TraceDocument> doc, std::optional<TimeWindow> window,
                             const QStringList& ops) {
  // The user's own choice survives a change of scope, not of trace.
  const QString current = doc == doc_ ? op_->currentText() : QString();
  doc_ = std::move(doc);
  window_ = window;
  {
    const QSignalBlocker block(op_);
    op_->clear();
    op_->addItems(ops);
    op_->setCurrentText(!current.isEmpty() ? current : ops.value(0));
  }
  recompute();
}

void OpKernelsView::setOp(const QString& op, bool byShape) {
  {
    const QSignalBlocker b1(op_), b2(byShape_);
    op_->setCurrentText(op);
    byShape_->setChecked(byShape);
  }
  recompute();
}

void OpKernelsView::setKernelClassifier(std::shared_ptr<const KernelClassifier> classifier) {
  classifier_ = std::move(classifier);
  if (doc_) recompute();
}

void OpKernelsView::recompute() {
  job_.supersede();
  const std::string op = op_->currentText().trimmed().toStdString();
  if (!doc_ || op.empty()) {
    table_.reset();
    tree_->clear();
    status_->setFullText(doc_ ? QStringLiteral("type an op name") : QString());
    return;
  }
  status_->setFullText(QStringLiteral("computing…"));
  std::shared_ptr<const TraceDocument> doc = doc_;
  const std::optional<TimeWindow> window = window_;
  const bool byShape = byShape_->isChecked();
  std::shared_ptr<const KernelClassifier> classifier = classifier_;
  job_.run(
      this,
      [doc, classifier, window, op, byShape] {
        return std::make_shared<const OpKernelTable>(opKernelTable(*doc->trace, *classifier, op, byShape, window));
      },
      [](OpKernelsView* self, std::shared_ptr<const OpKernelTable> t) { self->onTable(std::move(t)); },
      [](OpKernelsView* self, const QString& message) {
        self->status_->setFullText(QStringLiteral("failed: %1").arg(message));
        emit self->failed(QStringLiteral("Kernels of one op"), message);
      });
}

void OpKernelsView::onTable(std::shared_ptr<const OpKernelTable> table) {
  table_ = std::move(table);
  const Trace& trace = *doc_->trace;
  tree_->setSortingEnabled(false);
  tree_->clear();
  uint64_t calls = 0;
  TimeNs gpu = 0;
  for (const OpShapeGroup& g : table_->groups) {
    calls += g.calls;
    gpu += g.gpuTime;
    auto* group = new Item(tree_);
    const QString shapes = g.shapes.empty() ? QStringLiteral("(no shapes recorded)") : QString::fromStdString(g.shapes);
    group->setText(0, byShape_->isChecked() ? shapes : QStringLiteral("all calls"));
    group->setToolTip(0, group->text(0));
    setNumber(group, 1, static_cast<double>(g.calls), 0);
    setNumber(group, 2, ms(g.cpuTime), 3);
    setNumber(group, 3, ms(g.gpuTime), 3);
    setNumber(group, 4, g.calls ? static_cast<double>(g.gpuTime) / 1e3 / static_cast<double>(g.calls) : 0, 2);
    for (const OpKernelRow& k : g.kernels) {
      auto* row = new Item(group);
      row->setText(0, displayName(trace.str(k.kernel)));
      row->setToolTip(0, QString::fromUtf8(trace.str(k.kernel)));  // activating searches the full name
      setNumber(row, 1, static_cast<double>(k.count), 0);
      setNumber(row, 3, ms(k.total), 3);
      setNumber(row, 4, k.mean / 1e3, 2);
      if (k.cls >= 0) row->setText(5, QString::fromStdString(table_->classes[static_cast<size_t>(k.cls)]));
    }
  }
  tree_->setSortingEnabled(true);
  if (tree_->topLevelItemCount() == 1) tree_->expandAll();
  const QString op = op_->currentText();
  if (!table_->error.empty()) status_->setFullText(QString::fromStdString(table_->error));
  else if (table_->groups.empty()) status_->setFullText(QStringLiteral("no call of %1 in this scope").arg(op));
  else
    status_->setFullText(QStringLiteral("%L1 calls in %L2 groups · GPU %3 ms (group mean: GPU µs per call)")
                             .arg(calls)
                             .arg(table_->groups.size())
                             .arg(ms(gpu), 0, 'f', 3));
  emit tableReady();
}

}  // namespace opscope::ui
