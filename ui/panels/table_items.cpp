#include "panels/table_items.h"

#include <QEvent>
#include <QHeaderView>
#include <QTableWidget>
#include <algorithm>
#include <vector>

#include "timeline/names.h"

namespace opscope::ui {

namespace {

// The number as fixed-point text (a double in the display role is drawn by the
// delegate with six significant digits: 1.06892e+06 µs, 3.37084e+08 bytes), sorted by
// its value.
class NumberItem : public QTableWidgetItem {
 public:
  NumberItem(double v, int decimals) : QTableWidgetItem(QString::number(v, 'f', decimals)), value_(v) {}
  bool operator<(const QTableWidgetItem& other) const override {
    if (const auto* n = dynamic_cast<const NumberItem*>(&other)) return value_ < n->value_;
    return QTableWidgetItem::operator<(other);
  }

 private:
  double value_;
};

}  // namespace

QTableWidgetItem* numberItem(double v, int decimals) {
  auto* item = new NumberItem(v, decimals);
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

namespace {

constexpr double kNameShare = 0.45;

// Keeps the name columns at kNameShare of the table's width, shared between them.
class NameWidth : public QObject {
 public:
  NameWidth(QTableView* table, std::vector<int> columns)
      : QObject(table), table_(table), columns_(std::move(columns)) {}
  bool eventFilter(QObject*, QEvent* e) override {
    if (e->type() == QEvent::Resize) {
      const int room = static_cast<int>(table_->viewport()->width() * kNameShare) / static_cast<int>(columns_.size());
      for (int c : columns_) table_->setColumnWidth(c, std::max(120, room));
    }
    return false;
  }

 private:
  QTableView* table_;
  std::vector<int> columns_;
};

}  // namespace

QTableWidget* makeTable(const QStringList& headers, std::initializer_list<int> textColumns) {
  auto* t = new QTableWidget;
  t->setColumnCount(static_cast<int>(headers.size()));
  t->setHorizontalHeaderLabels(headers);
  styleTable(t, textColumns);
  return t;
}

void styleTable(QTableView* t, std::initializer_list<int> textColumns) {
  const int columns = t->model() ? t->model()->columnCount() : 0;
  t->setEditTriggers(QAbstractItemView::NoEditTriggers);
  t->setSelectionBehavior(QAbstractItemView::SelectRows);
  t->verticalHeader()->hide();
  // Names share what the numbers (sized to their contents, header included) leave.
  QHeaderView* h = t->horizontalHeader();
  h->setStretchLastSection(false);
  h->setMinimumSectionSize(40);
  // Names get their width first (in a laptop dock the stretched name column was left a
  // few letters by the numbers): each holds at least kNameShare of the view between
  // them, the numbers size to their contents, and the table scrolls sideways if need be.
  std::vector<int> names;
  for (int c = 0; c < columns; ++c) {
    const bool text = std::find(textColumns.begin(), textColumns.end(), c) != textColumns.end();
    h->setSectionResizeMode(c, text ? QHeaderView::Interactive : QHeaderView::ResizeToContents);
    if (text) names.push_back(c);
  }
  if (!names.empty()) t->viewport()->installEventFilter(new NameWidth(t, std::move(names)));
  t->setAlternatingRowColors(true);
  t->setWordWrap(false);
}

void fillRow(QTableWidget* t, int row, const QList<QTableWidgetItem*>& items) {
  for (int c = 0; c < items.size(); ++c) t->setItem(row, c, items[c]);
}

QTableWidgetItem* nameItem(std::string_view full) {
  const QString text = QString::fromUtf8(full.data(), static_cast<qsizetype>(full.size()));
  auto* item = new QTableWidgetItem(displayName(full));
  item->setToolTip(text);
  item->setData(Qt::UserRole, text);
  return item;
}

QTableWidgetItem* textItem(const QString& s) {
  auto* item = new QTableWidgetItem(s);
  item->setToolTip(s);
  return item;
}

}  // namespace opscope::ui
