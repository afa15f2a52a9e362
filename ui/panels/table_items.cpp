#include "panels/table_items.h"

#include <QHeaderView>
#include <QTableWidget>

namespace opscope::ui {

QTableWidgetItem* numberItem(double v, int decimals) {
  auto* item = new QTableWidgetItem;
  item->setData(Qt::DisplayRole, QString::number(v, 'f', decimals).toDouble());
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

QTableWidget* makeTable(const QStringList& headers) {
  auto* t = new QTableWidget;
  t->setColumnCount(static_cast<int>(headers.size()));
  t->setHorizontalHeaderLabels(headers);
  t->setEditTriggers(QAbstractItemView::NoEditTriggers);
  t->setSelectionBehavior(QAbstractItemView::SelectRows);
  t->verticalHeader()->hide();
  t->horizontalHeader()->setStretchLastSection(true);
  t->setAlternatingRowColors(true);
  t->setWordWrap(false);
  return t;
}

void fillRow(QTableWidget* t, int row, const QList<QTableWidgetItem*>& items) {
  for (int c = 0; c < items.size(); ++c) t->setItem(row, c, items[c]);
}

QTableWidgetItem* textItem(const QString& s) {
  auto* item = new QTableWidgetItem(s);
  item->setToolTip(s);
  return item;
}

}  // namespace opscope::ui
