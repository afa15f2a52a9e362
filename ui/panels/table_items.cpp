#include "panels/table_items.h"

#include <algorithm>

#include <QHeaderView>
#include <QTableWidget>

#include "timeline/names.h"

namespace opscope::ui {

QTableWidgetItem* numberItem(double v, int decimals) {
  auto* item = new QTableWidgetItem;
  item->setData(Qt::DisplayRole, QString::number(v, 'f', decimals).toDouble());
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

QTableWidget* makeTable(const QStringList& headers, std::initializer_list<int> textColumns) {
  auto* t = new QTableWidget;
  t->setColumnCount(static_cast<int>(headers.size()));
  t->setHorizontalHeaderLabels(headers);
  t->setEditTriggers(QAbstractItemView::NoEditTriggers);
  t->setSelectionBehavior(QAbstractItemView::SelectRows);
  t->verticalHeader()->hide();
  // Names share what the numbers (sized to their contents, header included) leave.
  QHeaderView* h = t->horizontalHeader();
  h->setStretchLastSection(false);
  h->setMinimumSectionSize(40);
  for (int c = 0; c < headers.size(); ++c)
    h->setSectionResizeMode(c, std::find(textColumns.begin(), textColumns.end(), c) != textColumns.end()
                                   ? QHeaderView::Stretch
                                   : QHeaderView::ResizeToContents);
  t->setAlternatingRowColors(true);
  t->setWordWrap(false);
  return t;
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
