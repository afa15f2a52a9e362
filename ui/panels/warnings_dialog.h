#pragma once
// The list behind the status bar's warning notice: each kind with its count, where it
// first happened (byte offset, line) and one example.
#include <QDialog>

#include "model/diagnostics.h"

namespace opscope::ui {

class WarningsDialog : public QDialog {
  Q_OBJECT
 public:
  WarningsDialog(const Diagnostics& diagnostics, const QString& file, QWidget* parent = nullptr);
};

}  // namespace opscope::ui
