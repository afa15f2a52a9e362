#pragma once
// The link of an execution trace with the loaded trace: the summary line, the notes
// and every item that could not be linked, with its reason, in a sortable table.
// Activating a Kineto op or GPU event row selects it.
#include <QDialog>

#include "et_document.h"

class QTableWidget;

namespace opscope::ui {

class EtLinkDialog : public QDialog {
  Q_OBJECT
 public:
  EtLinkDialog(const EtDocument& doc, QWidget* parent = nullptr);
  QTableWidget* table() const { return table_; }

 signals:
  void eventActivated(opscope::EventRef ref);

 private:
  QTableWidget* table_ = nullptr;
};

}  // namespace opscope::ui
