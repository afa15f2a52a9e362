#pragma once
// Edit ▸ Preferences: time unit, theme, default GPU preset, kernel-class rules file and
// the default dock layout in one dialog. OK validates the rules file first (a broken
// file keeps the dialog open with its one-line error) and then stores everything.
#include <QDialog>

#include "preferences.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

namespace opscope::ui {

class PreferencesDialog : public QDialog {
  Q_OBJECT
 public:
  explicit PreferencesDialog(const Preferences& current, QWidget* parent = nullptr);

  Preferences preferences() const;
  // The rules of preferences().kernelClassesFile, parsed when OK was pressed.
  std::shared_ptr<const KernelClassifier> classifier() const { return classifier_; }
  // "Apply this layout to the window now" was ticked.
  bool applyLayoutNow() const;

  QComboBox* timeUnitBox() const { return timeUnit_; }
  QComboBox* themeBox() const { return theme_; }
  QComboBox* gpuBox() const { return gpu_; }
  QLineEdit* rulesEdit() const { return rules_; }
  QComboBox* layoutBox() const { return layout_; }
  QCheckBox* applyLayoutBox() const { return applyLayout_; }
  QLabel* errorLabel() const { return error_; }

  void accept() override;

 private:
  void fill(const Preferences& p);

  QComboBox* timeUnit_ = nullptr;
  QComboBox* theme_ = nullptr;
  QComboBox* gpu_ = nullptr;
  QLineEdit* rules_ = nullptr;
  QComboBox* layout_ = nullptr;
  QCheckBox* applyLayout_ = nullptr;
  QLabel* error_ = nullptr;
  std::shared_ptr<const KernelClassifier> classifier_;
};

}  // namespace opscope::ui
