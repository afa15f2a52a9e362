#pragma once
// Edits one GPU's figures for the performance models; can save them as a spec file
// (resources/gpu/gpu_specs.json's shape) that `opscope predict --gpu-file` and the
// pane's "Load GPU specs…" read back.
#include <QDialog>

#include "perf/gpu_spec.h"

class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace opscope::ui {

class GpuSpecDialog : public QDialog {
  Q_OBJECT
 public:
  explicit GpuSpecDialog(const GpuSpec& spec, QWidget* parent = nullptr);
  GpuSpec spec() const;

 private:
  void saveToFile();

  GpuSpec base_;
  QLineEdit* name_ = nullptr;
  QSpinBox* sms_ = nullptr;
  QDoubleSpinBox *dram_ = nullptr, *l2Bw_ = nullptr, *l2Size_ = nullptr, *fp64_ = nullptr, *fp32_ = nullptr,
                 *tf32_ = nullptr, *fp16_ = nullptr, *bf16_ = nullptr, *floor_ = nullptr;
};

}  // namespace opscope::ui
