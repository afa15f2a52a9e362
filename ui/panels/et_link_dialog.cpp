#include "panels/et_link_dialog.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "panels/table_items.h"

namespace opscope::ui {

EtLinkDialog::EtLinkDialog(const EtDocument& doc, QWidget* parent) : QDialog(parent) {
  setWindowTitle(
      QStringLiteral("Execution trace link · %1").arg(QFileInfo(QString::fromStdString(doc.path)).fileName()));
  resize(900, 500);
  auto* v = new QVBoxLayout(this);
  QString head = QString::fromStdString(doc.link.summaryLine()).toHtmlEscaped();
  for (const std::string& n : doc.link.notes)
    head += QStringLiteral("<br>note: ") + QString::fromStdString(n).toHtmlEscaped();
  for (const EtProblem& p : doc.et.problems)
    head += QStringLiteral("<br>execution trace: ") + QString::fromStdString(p.what).toHtmlEscaped();
  auto* label = new QLabel(head);
  label->setWordWrap(true);
  v->addWidget(label);
  table_ = makeTable(
      {QStringLiteral("Kind"), QStringLiteral("Name"), QStringLiteral("ET id"), QStringLiteral("Reason")}, {1, 3});
  table_->setRowCount(static_cast<int>(doc.link.issues.size()));
  const Trace& trace = *doc.kineto->trace;
  for (size_t i = 0; i < doc.link.issues.size(); ++i) {
    const EtLinkIssue& issue = doc.link.issues[i];
    auto* kind = textItem(QString::fromLatin1(etLinkIssueKindName(issue.kind)));
    if (issue.ref) kind->setData(Qt::UserRole, static_cast<qulonglong>(issue.ref->packed()));
    fillRow(table_, static_cast<int>(i),
            {kind, textItem(QString::fromStdString(issue.name)),
             issue.etId >= 0 ? numberItem(static_cast<double>(issue.etId), 0) : textItem(QString()),
             textItem(QString::fromStdString(issue.reasonText()))});
  }
  (void)trace;
  table_->setSortingEnabled(true);
  table_->setToolTip(QStringLiteral("Activate a Kineto op or GPU event to select it in the timeline"));
  connect(table_, &QTableWidget::itemActivated, this, [this](QTableWidgetItem* item) {
    const QVariant ref = table_->item(item->row(), 0)->data(Qt::UserRole);
    if (ref.isValid()) emit eventActivated(EventRef::unpack(ref.toULongLong()));
  });
  v->addWidget(table_, 1);
  if (doc.link.issues.empty()) table_->hide();
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  v->addWidget(buttons);
}

}  // namespace opscope::ui
