#include "preferences.h"

#include <QFile>

#include "io/side_input.h"

namespace opscope::ui {

namespace {

template <typename E>
E enumValue(const QSettings& s, const QString& key, E last, E fallback) {
  bool ok = false;
  const int v = s.value(key).toInt(&ok);
  return ok && v >= 0 && v <= static_cast<int>(last) ? static_cast<E>(v) : fallback;
}

}  // namespace

Preferences loadPreferences(const QSettings& s) {
  Preferences p;
  p.timeUnit = enumValue(s, QStringLiteral("preferences/timeUnit"), TimeUnit::S, TimeUnit::Auto);
  p.dark = s.value(QStringLiteral("view/dark"), false).toBool();
  p.defaultGpu = s.value(QStringLiteral("preferences/defaultGpu")).toString();
  p.kernelClassesFile = s.value(QStringLiteral("preferences/kernelClassesFile")).toString();
  p.layout = enumValue(s, QStringLiteral("preferences/layout"), DockLayout::TimelineAndAnalysis,
                       DockLayout::TimelineAndOpTree);
  return p;
}

void savePreferences(QSettings& s, const Preferences& p) {
  s.setValue(QStringLiteral("preferences/timeUnit"), static_cast<int>(p.timeUnit));
  s.setValue(QStringLiteral("view/dark"), p.dark);
  s.setValue(QStringLiteral("preferences/defaultGpu"), p.defaultGpu);
  s.setValue(QStringLiteral("preferences/kernelClassesFile"), p.kernelClassesFile);
  s.setValue(QStringLiteral("preferences/layout"), static_cast<int>(p.layout));
}

std::shared_ptr<const KernelClassifier> kernelClassifierFor(const QString& file, QString* error) {
  std::string e;
  if (file.isEmpty()) {
    auto c = std::make_shared<const KernelClassifier>(KernelClassifier::withUserOverrides(e));
    if (error) *error = QString::fromStdString(e);  // a broken default file is ignored, and said
    return c;
  }
  SideRead read = readSideInput(QFile::encodeName(file).toStdString(), SideInputKind::KernelClasses);
  if (read.status != SideReadStatus::Ok) {
    if (error) *error = QStringLiteral("%1: %2").arg(file, QString::fromStdString(read.error));
    return nullptr;
  }
  auto rules = KernelClassifier::fromJson(read.text, e);
  if (!rules) {
    if (error) *error = QStringLiteral("%1: %2").arg(file, QString::fromStdString(e));
    return nullptr;
  }
  KernelClassifier all = KernelClassifier::builtin();
  all.prepend(*rules);
  if (error) error->clear();
  return std::make_shared<const KernelClassifier>(std::move(all));
}

std::shared_ptr<const KernelClassifier> builtinKernelClassifier() {
  // Not owned: the built-in table lives as long as the program.
  return std::shared_ptr<const KernelClassifier>(std::shared_ptr<const void>(), &KernelClassifier::builtin());
}

}  // namespace opscope::ui
