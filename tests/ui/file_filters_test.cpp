// The file dialogs' filters show every file name the desktop's MIME types give opscope's
// formats (packaging/opscope-mime.xml): a name the desktop opens with opscope is never
// hidden by opscope's own Open or Compare dialog (Compare showed only JSON before).
#include "file_filters.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QRegularExpression>
#include <QStringList>

namespace opscope::ui {
namespace {

// The patterns of "Label (*.a *.b);;All files (*)"'s first entry.
QStringList patternsOf(const QString& filter) {
  const QString first = filter.section(QStringLiteral(";;"), 0, 0);
  const qsizetype open = first.indexOf('('), close = first.lastIndexOf(')');
  return first.mid(open + 1, close - open - 1).split(' ', Qt::SkipEmptyParts);
}

bool shown(const QStringList& patterns, const QString& name) {
  for (const QString& p : patterns)
    if (QRegularExpression(QRegularExpression::wildcardToRegularExpression(p)).match(name).hasMatch()) return true;
  return false;
}

TEST(FileFilters, EveryNameTheMimeTypesGiveIsShownByTheOpenDialogs) {
  QFile xml(QStringLiteral(OPSCOPE_SOURCE_DIR "/packaging/opscope-mime.xml"));
  ASSERT_TRUE(xml.open(QIODevice::ReadOnly));
  const QString text = QString::fromUtf8(xml.readAll());
  const QRegularExpression glob(QStringLiteral("<glob pattern=\"([^\"]+)\""));
  const QStringList traces = patternsOf(traceFileFilter());
  int globs = 0;
  for (auto it = glob.globalMatch(text); it.hasNext();) {
    // A file name the glob gives: each '*' a word.
    const QString name = it.next().captured(1).replace('*', QStringLiteral("run"));
    ++globs;
    EXPECT_TRUE(shown(traces, name)) << name.toStdString();
  }
  EXPECT_GE(globs, 8);
  // Execution traces: PyTorch's JSON and Chakra's protobuf.
  const QStringList ets = patternsOf(executionTraceFileFilter());
  EXPECT_TRUE(shown(ets, QStringLiteral("chakra.0.et")));
  EXPECT_TRUE(shown(ets, QStringLiteral("rank0.et.json")));
  EXPECT_FALSE(shown(traces, QStringLiteral("notes.txt")));
}

}  // namespace
}  // namespace opscope::ui
