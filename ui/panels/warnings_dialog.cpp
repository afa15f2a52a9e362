#include "panels/warnings_dialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace opscope::ui {

WarningsDialog::WarningsDialog(const Diagnostics& diagnostics, const QString& file, QWidget* parent) : QDialog(parent) {
  setWindowTitle(QStringLiteral("Warnings while loading"));
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(
      new QLabel(QStringLiteral("%1 was loaded; these parts of it were odd:").arg(file.toHtmlEscaped()), this));
  const auto entries = diagnostics.entries();
  auto* table = new QTableWidget(static_cast<int>(entries.size()), 5, this);
  table->setHorizontalHeaderLabels({QStringLiteral("Warning"), QStringLiteral("Count"), QStringLiteral("First at byte"),
                                    QStringLiteral("Line"), QStringLiteral("Example")});
  for (int r = 0; r < static_cast<int>(entries.size()); ++r) {
    const WarningEntry& e = entries[static_cast<size_t>(r)];
    table->setItem(r, 0, new QTableWidgetItem(QString::fromLatin1(warningKindName(e.kind))));
    table->setItem(r, 1, new QTableWidgetItem(QStringLiteral("%L1").arg(e.count)));
    table->setItem(
        r, 2,
        new QTableWidgetItem(e.firstOffset || e.firstLine ? QString::number(e.firstOffset) : QStringLiteral("–")));
    table->setItem(r, 3, new QTableWidgetItem(e.firstLine ? QString::number(e.firstLine) : QStringLiteral("–")));
    table->setItem(r, 4, new QTableWidgetItem(QString::fromStdString(e.example)));
  }
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->horizontalHeader()->setStretchLastSection(true);
  table->resizeColumnsToContents();
  layout->addWidget(table);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
  resize(820, 320);
}

}  // namespace opscope::ui
