// Edit ▸ Preferences: stored and read back with QSettings (bad values read as defaults),
// the dialog refuses a broken rules file with its one-line error, and applying changes
// what the window shows: units, theme, the Prediction dock's GPU, the analyses' kernel
// classes and the docks.
#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QTemporaryDir>
#include <set>

#include "analysis/kernel_stats.h"
#include "main_window.h"
#include "panels/analysis_panel.h"
#include "panels/prediction_panel.h"
#include "panels/preferences_dialog.h"
#include "preferences.h"
#include "test_support.h"
#include "ui/ui_wait.h"

namespace opscope::ui {
namespace {

const std::string kSample = OPSCOPE_SOURCE_DIR "/resources/sample/sample.pt.trace.json.gz";

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
  const QString path = dir.filePath(name);
  QFile f(path);
  EXPECT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(text);
  return path;
}

Preferences everythingChanged(const QString& rules) {
  Preferences p;
  p.timeUnit = TimeUnit::Ms;
  p.dark = true;
  p.defaultGpu = QStringLiteral("H100-SXM");
  p.kernelClassesFile = rules;
  p.layout = DockLayout::TimelineOnly;
  return p;
}

TEST(Preferences, RoundTripThroughSettingsAndBadValuesReadAsDefaults) {
  QTemporaryDir dir;
  QSettings s(dir.filePath(QStringLiteral("opscope.conf")), QSettings::IniFormat);
  EXPECT_EQ(loadPreferences(s), Preferences{});  // nothing stored yet
  const Preferences p = everythingChanged(QStringLiteral("/x/rules.json"));
  savePreferences(s, p);
  EXPECT_EQ(loadPreferences(s), p);
  EXPECT_TRUE(s.value(QStringLiteral("view/dark")).toBool());  // View ▸ Dark theme's key
  s.setValue(QStringLiteral("preferences/timeUnit"), 9);
  s.setValue(QStringLiteral("preferences/layout"), QStringLiteral("sideways"));
  const Preferences bad = loadPreferences(s);
  EXPECT_EQ(bad.timeUnit, TimeUnit::Auto);
  EXPECT_EQ(bad.layout, DockLayout::TimelineAndOpTree);
  EXPECT_EQ(bad.defaultGpu, p.defaultGpu);
}

TEST(Preferences, TheDialogShowsTheValuesAndRefusesABrokenRulesFile) {
  QTemporaryDir dir;
  const QString broken =
      writeFile(dir, QStringLiteral("broken.json"), R"({"rules": [{"class": "x", "pattern": "(("}]})");
  PreferencesDialog d(everythingChanged(broken));
  EXPECT_EQ(d.timeUnitBox()->currentIndex(), static_cast<int>(TimeUnit::Ms));
  EXPECT_EQ(d.themeBox()->currentText(), QStringLiteral("Dark"));
  EXPECT_EQ(d.gpuBox()->currentText(), QStringLiteral("H100-SXM"));
  EXPECT_EQ(d.preferences(), everythingChanged(broken));
  d.accept();
  EXPECT_NE(d.result(), QDialog::Accepted);
  EXPECT_FALSE(d.errorLabel()->isHidden());
  EXPECT_TRUE(d.errorLabel()->text().contains(QStringLiteral("broken.json"))) << d.errorLabel()->text().toStdString();
  EXPECT_FALSE(d.classifier());
  d.rulesEdit()->setText(dir.filePath(QStringLiteral("missing.json")));
  d.accept();
  EXPECT_NE(d.result(), QDialog::Accepted);
  // The side-input reader's message: the file, then why (as the command line says it).
  EXPECT_TRUE(d.errorLabel()->text().endsWith(QStringLiteral("missing.json: cannot open: No such file or directory")))
      << d.errorLabel()->text().toStdString();
  // A good file: accepted, its rules before the built-in ones.
  const QString good =
      writeFile(dir, QStringLiteral("good.json"), R"({"rules": [{"class": "my_gemm", "pattern": "sgemm"}]})");
  d.rulesEdit()->setText(good);
  d.accept();
  EXPECT_EQ(d.result(), QDialog::Accepted);
  ASSERT_TRUE(d.classifier());
  EXPECT_EQ(d.classifier()->classify("ampere_sgemm_128x64_tn"), "my_gemm");
  EXPECT_EQ(d.classifier()->classify("ncclDevKernel_AllReduce_Sum_f32_RING_LL"),
            KernelClassifier::builtin().classify("ncclDevKernel_AllReduce_Sum_f32_RING_LL"));
}

using test::waitUntil;

TEST(Preferences, ApplyingThemChangesUnitsThemeGpuKernelClassesAndDocks) {
  struct Restore {
    ~Restore() { setTimeUnit(TimeUnit::Auto); }
  } restore;
  QTemporaryDir dir;
  const QString rules =
      writeFile(dir, QStringLiteral("rules.json"), R"({"rules": [{"class": "my_gemm", "pattern": "sgemm"}]})");
  MainWindow w(false);
  std::string error;
  auto doc = loadDocument(kSample, error);
  ASSERT_TRUE(doc) << error;
  w.resize(1400, 900);
  w.show();
  w.setDocument(doc);
  w.analysisDock()->show();
  ASSERT_TRUE(waitUntil([&] { return !w.analysis()->busy() && w.analysis()->results(); }));
  const auto classes = [&] {
    const KernelStats& k = w.analysis()->results()->value<KernelStats>("kernel-stats");
    return std::set<std::string>(k.classes.begin(), k.classes.end());
  };
  EXPECT_EQ(classes().count("my_gemm"), 0u);
  EXPECT_EQ(classes().count("gemm"), 1u);

  PreferencesDialog d(w.preferences());
  d.timeUnitBox()->setCurrentIndex(static_cast<int>(TimeUnit::Ms));
  d.themeBox()->setCurrentIndex(1);
  d.gpuBox()->setCurrentText(QStringLiteral("H100-SXM"));
  d.rulesEdit()->setText(rules);
  d.layoutBox()->setCurrentIndex(static_cast<int>(DockLayout::TimelineOnly));
  d.applyLayoutBox()->setChecked(true);
  d.accept();
  ASSERT_EQ(d.result(), QDialog::Accepted);
  w.applyPreferences(d.preferences(), d.classifier(), d.applyLayoutNow());

  EXPECT_EQ(timeUnit(), TimeUnit::Ms);
  EXPECT_EQ(formatDuration(812), "0.000812 ms");
  EXPECT_LT(QApplication::palette().color(QPalette::Window).lightness(), 128);  // dark
  EXPECT_EQ(w.prediction()->gpu(), QStringLiteral("H100-SXM"));
  EXPECT_TRUE(w.analysisDock()->isHidden());
  QDockWidget* tree = w.findChild<QDockWidget*>(QStringLiteral("opTreeDock"));
  ASSERT_TRUE(tree);
  EXPECT_TRUE(tree->isHidden());
  w.applyDockLayout(DockLayout::TimelineAndAnalysis);
  EXPECT_FALSE(w.analysisDock()->isHidden());
  ASSERT_TRUE(
      waitUntil([&] { return !w.analysis()->busy() && w.analysis()->results() && classes().count("my_gemm"); }));
  EXPECT_EQ(classes().count("my_gemm"), 1u);  // the sample's sgemm kernels, by the file's rule
  EXPECT_EQ(w.preferences(), d.preferences());

  // Back to the defaults: Auto units, light, the trace's GPU; the user's GPU choice in
  // the dock survives a re-apply that leaves the default GPU alone.
  w.applyPreferences(Preferences{}, builtinKernelClassifier(), false);
  EXPECT_EQ(formatDuration(812), "812 ns");
  EXPECT_EQ(w.prediction()->gpu(), QString());
  ASSERT_TRUE(w.prediction()->setGpus(QStringLiteral("V100"), QString()));
  w.applyPreferences(Preferences{}, nullptr, false);
  EXPECT_EQ(w.prediction()->gpu(), QStringLiteral("V100"));
}

}  // namespace
}  // namespace opscope::ui
