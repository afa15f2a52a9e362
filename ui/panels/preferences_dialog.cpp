#include "panels/preferences_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "perf/gpu_spec.h"

namespace opscope::ui {

namespace {

// Combo entries in enum order: index == enum value.
const char* const kUnits[] = {"Auto (the unit that suits each value)", "ns", "\xC2\xB5s", "ms", "s"};
const char* const kLayouts[] = {"Timeline and op tree", "Timeline only", "Timeline and analyses"};

}  // namespace

PreferencesDialog::PreferencesDialog(const Preferences& current, QWidget* parent) : QDialog(parent) {
  setWindowTitle(QStringLiteral("Preferences"));
  auto* form = new QFormLayout;
  timeUnit_ = new QComboBox(this);
  for (const char* u : kUnits) timeUnit_->addItem(QString::fromUtf8(u));
  timeUnit_->setToolTip(QStringLiteral("The ruler, durations in Details, tooltips and tables"));
  form->addRow(QStringLiteral("&Time unit"), timeUnit_);
  theme_ = new QComboBox(this);
  theme_->addItems({QStringLiteral("Light"), QStringLiteral("Dark")});
  form->addRow(QStringLiteral("T&heme"), theme_);
  gpu_ = new QComboBox(this);
  gpu_->addItem(QStringLiteral("(the trace's GPU)"));
  for (const GpuSpec& g : builtinGpuSpecs().gpus) gpu_->addItem(QString::fromStdString(g.name));
  gpu_->setToolTip(QStringLiteral("The GPU the Prediction dock predicts for when a trace opens"));
  form->addRow(QStringLiteral("Default &GPU preset"), gpu_);
  rules_ = new QLineEdit(this);
  rules_->setMinimumWidth(rules_->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 48);
  rules_->setPlaceholderText(QStringLiteral("~/.config/opscope/kernel_classes.json when present"));
  rules_->setToolTip(QStringLiteral("JSON {\"rules\": [{\"class\", \"pattern\"}, …]} tried before the built-in rules"));
  auto* browse = new QPushButton(QStringLiteral("Browse…"), this);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString f = QFileDialog::getOpenFileName(this, QStringLiteral("Kernel-class rules"), rules_->text(),
                                                   QStringLiteral("JSON (*.json);;All files (*)"));
    if (!f.isEmpty()) rules_->setText(f);
  });
  auto* rulesRow = new QHBoxLayout;
  rulesRow->addWidget(rules_, 1);
  rulesRow->addWidget(browse);
  // A row holding a layout gets no buddy from addRow: the label names its field itself.
  auto* rulesLabel = new QLabel(QStringLiteral("&Kernel-class rules"), this);
  rulesLabel->setBuddy(rules_);
  form->addRow(rulesLabel, rulesRow);
  layout_ = new QComboBox(this);
  for (const char* l : kLayouts) layout_->addItem(QString::fromUtf8(l));
  layout_->setToolTip(QStringLiteral("The docks beside the timeline when no window layout is saved"));
  form->addRow(QStringLiteral("Default &layout"), layout_);
  applyLayout_ = new QCheckBox(QStringLiteral("Apply this layout to the window now"), this);
  form->addRow(QString(), applyLayout_);

  error_ = new QLabel(this);
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: #c0392b"));
  error_->hide();
  auto* buttons =
      new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &PreferencesDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
          [this] { fill(Preferences{}); });
  auto* box = new QVBoxLayout(this);
  box->addLayout(form);
  box->addWidget(error_);
  box->addWidget(buttons);
  fill(current);
}

void PreferencesDialog::fill(const Preferences& p) {
  timeUnit_->setCurrentIndex(static_cast<int>(p.timeUnit));
  theme_->setCurrentIndex(p.dark ? 1 : 0);
  // A preset that no longer exists (renamed in a newer version) reads as the default.
  gpu_->setCurrentIndex(std::max(0, p.defaultGpu.isEmpty() ? 0 : gpu_->findText(p.defaultGpu)));
  rules_->setText(p.kernelClassesFile);
  layout_->setCurrentIndex(static_cast<int>(p.layout));
}

Preferences PreferencesDialog::preferences() const {
  Preferences p;
  p.timeUnit = static_cast<TimeUnit>(timeUnit_->currentIndex());
  p.dark = theme_->currentIndex() == 1;
  p.defaultGpu = gpu_->currentIndex() > 0 ? gpu_->currentText() : QString();
  p.kernelClassesFile = rules_->text().trimmed();
  p.layout = static_cast<DockLayout>(layout_->currentIndex());
  return p;
}

bool PreferencesDialog::applyLayoutNow() const { return applyLayout_->isChecked(); }

void PreferencesDialog::accept() {
  QString error;
  classifier_ = kernelClassifierFor(rules_->text().trimmed(), &error);
  if (!classifier_) {
    error_->setText(error);
    error_->show();
    rules_->setFocus();
    return;
  }
  QDialog::accept();
}

}  // namespace opscope::ui
