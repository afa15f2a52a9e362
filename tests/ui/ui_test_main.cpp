// GoogleTest main for the GUI tests: a QApplication on the offscreen platform (unless
// the caller chose one), so widget tests run headless in CI. Each test process keeps its
// settings in a folder of its own: ctest runs tests in parallel processes, and a shared
// settings file let one test's QSettings().clear() race another's restart check (the
// restart test failed once in CI with the theme and the recent files gone).
#include <gtest/gtest.h>

#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>
#include <cstdlib>

int main(int argc, char** argv) {
  ::setenv("QT_QPA_PLATFORM", "offscreen", 0);
  QApplication::setOrganizationName(QStringLiteral("opscope-tests"));  // keeps the user's settings apart
  QApplication app(argc, argv);
  QTemporaryDir settings;
  if (!settings.isValid()) return 2;
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings.path());
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings.path());
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
