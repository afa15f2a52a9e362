#pragma once
// Read-only tables of the panels: sortable numeric cells, text cells with their full
// text as tooltip, rows filled in one call.
#include <QList>
#include <QStringList>
#include <initializer_list>
#include <string_view>

class QTableView;
class QTableWidget;
class QTableWidgetItem;

namespace opscope::ui {

// textColumns stretch (names); the others fit their contents (numbers).
QTableWidget* makeTable(const QStringList& headers, std::initializer_list<int> textColumns = {0});
// The same read-only look for a view of a model (set before: its columns are sized).
void styleTable(QTableView* t, std::initializer_list<int> textColumns = {0});
// A cell that sorts by number, shown in fixed point with the given decimals (never in
// scientific notation).
QTableWidgetItem* numberItem(double v, int decimals);
QTableWidgetItem* textItem(const QString& s);
// An op or kernel name: shown short (names.h), the full name as tooltip and in
// Qt::UserRole (what activating the row searches for); sorts by the short name.
QTableWidgetItem* nameItem(std::string_view full);
void fillRow(QTableWidget* t, int row, const QList<QTableWidgetItem*>& items);

}  // namespace opscope::ui
