#pragma once
// Read-only tables of the panels: sortable numeric cells, text cells with their full
// text as tooltip, rows filled in one call.
#include <QList>
#include <QStringList>

class QTableWidget;
class QTableWidgetItem;

namespace opscope::ui {

QTableWidget* makeTable(const QStringList& headers);
// A cell that sorts by number, shown with the given precision.
QTableWidgetItem* numberItem(double v, int decimals);
QTableWidgetItem* textItem(const QString& s);
void fillRow(QTableWidget* t, int row, const QList<QTableWidgetItem*>& items);

}  // namespace opscope::ui
