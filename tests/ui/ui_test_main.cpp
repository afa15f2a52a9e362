// GoogleTest main for the GUI tests: a QApplication on the offscreen platform (unless
// the caller chose one), so widget tests run headless in CI.
#include <gtest/gtest.h>

#include <QApplication>
#include <cstdlib>

int main(int argc, char** argv) {
  ::setenv("QT_QPA_PLATFORM", "offscreen", 0);
  QApplication::setOrganizationName(QStringLiteral("opscope-tests"));  // keeps the user's settings apart
  QApplication app(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
