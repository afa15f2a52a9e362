#include "panels/gpu_spec_dialog.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "dialog_folder.h"
#include "save_file.h"

namespace opscope::ui {

GpuSpecDialog::GpuSpecDialog(const GpuSpec& spec, QWidget* parent) : QDialog(parent), base_(spec) {
  setWindowTitle(QStringLiteral("GPU for the performance models"));
  auto* v = new QVBoxLayout(this);
  auto* form = new QFormLayout;
  v->addLayout(form);
  name_ = new QLineEdit(QString::fromStdString(spec.name));
  form->addRow(QStringLiteral("Name"), name_);
  sms_ = new QSpinBox;
  sms_->setRange(1, 10000);
  sms_->setValue(spec.sms);
  form->addRow(QStringLiteral("SMs / CUs"), sms_);
  auto number = [&](const QString& label, double value, const QString& suffix, double max) {
    auto* s = new QDoubleSpinBox;
    s->setRange(0, max);
    s->setDecimals(2);
    s->setSuffix(suffix);
    s->setValue(value);
    form->addRow(label, s);
    return s;
  };
  dram_ = number(QStringLiteral("DRAM bandwidth"), spec.dramGBs, QStringLiteral(" GB/s"), 1e6);
  l2Bw_ = number(QStringLiteral("L2 bandwidth"), spec.l2GBs, QStringLiteral(" GB/s"), 1e6);
  l2Size_ = number(QStringLiteral("L2 size"), spec.l2Bytes / (1024 * 1024), QStringLiteral(" MiB"), 1e5);
  fp64_ = number(QStringLiteral("FP64"), spec.fp64, QStringLiteral(" TFLOP/s"), 1e5);
  fp32_ = number(QStringLiteral("FP32"), spec.fp32, QStringLiteral(" TFLOP/s"), 1e5);
  tf32_ = number(QStringLiteral("TF32"), spec.tf32, QStringLiteral(" TFLOP/s"), 1e5);
  fp16_ = number(QStringLiteral("FP16"), spec.fp16, QStringLiteral(" TFLOP/s"), 1e5);
  bf16_ = number(QStringLiteral("BF16"), spec.bf16, QStringLiteral(" TFLOP/s"), 1e5);
  floor_ = number(QStringLiteral("Shortest kernel"), spec.kernelFloorUs, QStringLiteral(" µs"), 1e4);
  fp32_->setMinimum(0.01);
  dram_->setMinimum(0.01);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  QPushButton* save = buttons->addButton(QStringLiteral("Save to file…"), QDialogButtonBox::ActionRole);
  connect(save, &QPushButton::clicked, this, &GpuSpecDialog::saveToFile);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  v->addWidget(buttons);
}

GpuSpec GpuSpecDialog::spec() const {
  GpuSpec s = base_;
  s.name = name_->text().trimmed().toStdString();
  if (s.name.empty()) s.name = base_.name;
  s.sms = sms_->value();
  s.dramGBs = dram_->value();
  s.l2GBs = l2Bw_->value();
  s.l2Bytes = l2Size_->value() * 1024 * 1024;
  s.fp64 = fp64_->value();
  s.fp32 = fp32_->value();
  s.tf32 = tf32_->value();
  s.fp16 = fp16_->value();
  s.bf16 = bf16_->value();
  s.kernelFloorUs = floor_->value();
  if (s.source.find("edited") == std::string::npos) s.source += s.source.empty() ? "edited" : ", edited";
  s.match.clear();  // an edited GPU is picked by name, never by a trace's device name
  return s;
}

void GpuSpecDialog::saveToFile() {
  const GpuSpec s = spec();
  const QString path = QFileDialog::getSaveFileName(
      this, QStringLiteral("Save GPU specs"), dialogStart(QString::fromStdString(s.name) + QStringLiteral(".json")),
      QStringLiteral("JSON (*.json)"));
  if (path.isEmpty()) return;
  QString error;
  const std::string text = "{\"gpus\": [" + gpuSpecJson(s) + "]}\n";
  if (!saveBytes(path, text, &error)) QMessageBox::warning(this, QStringLiteral("Save GPU specs"), error);
}

}  // namespace opscope::ui
