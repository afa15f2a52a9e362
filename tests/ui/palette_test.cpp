// Habits of other tools' users: the command palette (Ctrl+Shift+P) reaches actions,
// tracks and ops by a few typed letters; `?` lists the keys; the empty window offers
// the recent files.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QCommandLinkButton>
#include <QLineEdit>
#include <QListWidget>
#include <QSettings>
#include <QStackedWidget>
#include <QTest>

#include "main_window.h"
#include "palette/command_palette.h"
#include "palette/key_help_overlay.h"
#include "palette/palette_match.h"
#include "panels/welcome_page.h"
#include "test_support.h"
#include "timeline/timeline_widget.h"

namespace opscope::ui {
namespace {

const std::string kSample = OPSCOPE_SOURCE_DIR "/resources/sample/sample.pt.trace.json.gz";

TEST(PaletteMatch, LettersInOrderMatchAndBetterPlacesScoreHigher) {
  EXPECT_EQ(paletteScore("", "anything"), 0);
  EXPECT_LT(paletteScore("xyz", "Dark theme"), 0);
  EXPECT_LT(paletteScore("ehtkrad", "Dark theme"), 0);                          // order matters
  EXPECT_GE(paletteScore("dark th", "View \xE2\x96\xB8 Dark theme (off)"), 0);  // spaces ignored
  // Word starts and contiguous runs beat scattered letters.
  EXPECT_GT(paletteScore("gemm", "gemm_kernel"), paletteScore("gemm", "aGgregate_eMbeddings_m"));
  EXPECT_GT(paletteScore("st", "stream 7"), paletteScore("st", "cudaLaunchKernel_first"));
  // "dt" lands on the word start of "theme" rather than the "t" of "Dark"... and still
  // matches when only a mid-word place lets the rest fit.
  EXPECT_GT(paletteScore("dt", "Dark theme"), paletteScore("dt", "Darkxtheme"));
  EXPECT_GE(paletteScore("ab", "xab_a"), 0);
  // Case does not matter.
  EXPECT_EQ(paletteScore("ADDMM", "aten::addmm"), paletteScore("addmm", "aten::addmm"));
  // A shorter text wins a tie.
  EXPECT_GT(paletteScore("addmm", "aten::addmm"), paletteScore("addmm", "aten::addmm " + std::string(120, 'x')));
}

struct Window {
  MainWindow w{false};
  Window(bool open = true) {
    w.resize(1400, 900);
    w.show();
    if (open) {
      std::string error;
      auto doc = loadDocument(kSample, error);
      EXPECT_TRUE(doc) << error;
      w.setDocument(doc);
    }
    QApplication::processEvents();
  }
};

const PaletteEntry* find(const std::vector<PaletteEntry>& entries, const QString& kind, const QString& text) {
  for (const PaletteEntry& e : entries)
    if (e.kind == kind && e.text == text) return &e;
  return nullptr;
}

TEST(CommandPalette, ListsActionsTracksAndOpsAndRunsTheChosenOne) {
  Window win;
  const auto entries = win.w.paletteEntries();
  const Trace& t = *win.w.document()->trace;
  // Every menu action, with its menu path and state.
  ASSERT_TRUE(find(entries, "Action", QStringLiteral("View \u25B8 Dark theme (off)")));
  ASSERT_TRUE(find(entries, "Action", QStringLiteral("View \u25B8 Fit all")));
  EXPECT_FALSE(find(entries, "Action", QStringLiteral("View \u25B8 Command palette\u2026")));
  // Every non-empty track, and slice names ordered by total time.
  size_t tracks = 0, names = 0;
  for (const PaletteEntry& e : entries) {
    tracks += e.kind == QLatin1String("Track");
    names += e.kind == QLatin1String("Op") || e.kind == QLatin1String("Kernel");
  }
  size_t nonEmpty = 0;
  for (const Track& tr : t.tracks) nonEmpty += tr.slices.size() > 0;
  EXPECT_EQ(tracks, nonEmpty);
  EXPECT_GT(names, 10u);
  EXPECT_TRUE(find(entries, "Op", QStringLiteral("aten::addmm")) ||
              find(entries, "Op", QStringLiteral("aten::linear")));

  // Ctrl+Shift+P opens it; typed into, the action runs on Enter.
  win.w.activateWindow();
  win.w.timeline()->setFocus();
  QTest::keyClick(win.w.timeline(), Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
  CommandPalette* p = win.w.commandPalette();
  ASSERT_TRUE(p->isVisible());
  QTest::keyClicks(p->input(), QStringLiteral("dark theme"));
  ASSERT_GT(p->list()->count(), 0);
  EXPECT_TRUE(p->list()->item(0)->text().contains(QStringLiteral("Dark theme")));
  QTest::keyClick(p->input(), Qt::Key_Return);
  EXPECT_FALSE(p->isVisible());
  EXPECT_EQ(win.w.timeline()->theme(), Theme::Dark);
  win.w.setDarkTheme(false);

  // An op: selected (the longest slice of that name).
  win.w.openCommandPalette();
  QTest::keyClicks(p->input(), QStringLiteral("ProfilerStep"));
  ASSERT_GT(p->list()->count(), 0);
  QTest::keyClick(p->input(), Qt::Key_Return);
  ASSERT_TRUE(win.w.timeline()->selected());
  EXPECT_NE(t.name(*win.w.timeline()->selected()).find("ProfilerStep"), std::string::npos);

  // A track: scrolled to, at a size where it starts off screen.
  win.w.resize(900, 360);
  win.w.timeline()->setAllTracksExpanded(true);
  QApplication::processEvents();
  uint32_t last = 0;
  for (uint32_t tr = 0; tr < t.tracks.size(); ++tr)
    if (t.tracks[tr].slices.size()) last = tr;
  win.w.timeline()->setScrollY(0);
  const std::vector<PaletteEntry> now = win.w.paletteEntries();  // entry points into it
  const auto* entry = find(now, "Track", QString::fromStdString(t.trackLabel(last)));
  ASSERT_TRUE(entry);
  entry->run();
  const TimelineWidget* tl = win.w.timeline();
  bool onScreen = false;
  for (const LayoutEntry& e : tl->layout().entries)
    if (e.kind == LayoutEntry::Kind::Slices && e.index == last)
      onScreen = e.y >= tl->scrollY() && e.y < tl->scrollY() + tl->geometryNow().events.height();
  EXPECT_TRUE(onScreen);

  // Esc closes without running anything.
  win.w.openCommandPalette();
  QTest::keyClick(p->input(), Qt::Key_Escape);
  EXPECT_FALSE(p->isVisible());
}

TEST(KeyHelp, QuestionMarkListsTimelineKeysAndMenuShortcuts) {
  Window win;
  win.w.activateWindow();
  win.w.timeline()->setFocus();
  QTest::keyClick(win.w.timeline(), '?');
  QApplication::processEvents();
  ASSERT_TRUE(win.w.keyHelp()->isVisible());
  const QString text = win.w.keyHelp()->text();
  for (const auto& [keys, what] : timelineBindings()) EXPECT_TRUE(text.contains(keys)) << keys.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("Ctrl+Shift+P"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("Command palette")));
  QTest::keyClick(win.w.keyHelp(), Qt::Key_Escape);
  EXPECT_FALSE(win.w.keyHelp()->isVisible());
}

TEST(Welcome, TheEmptyWindowOffersTheRecentFiles) {
  QSettings().setValue(QStringLiteral("recent"),
                       QStringList{QString::fromStdString(kSample), QStringLiteral("/gone/x.json")});
  Window win(/*open=*/false);
  auto* central = qobject_cast<QStackedWidget*>(win.w.centralWidget());
  ASSERT_TRUE(central);
  EXPECT_EQ(central->currentWidget(), win.w.welcome());
  EXPECT_EQ(win.w.welcome()->recentShown(), 2);
  // The missing one is shown greyed; the present one opens the trace.
  QList<QCommandLinkButton*> buttons = win.w.welcome()->findChildren<QCommandLinkButton*>();
  ASSERT_EQ(buttons.size(), 2);
  EXPECT_TRUE(buttons[0]->isEnabled());
  EXPECT_FALSE(buttons[1]->isEnabled());
  buttons[0]->click();
  for (int i = 0; i < 400 && !win.w.document(); ++i) {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
    QTest::qWait(5);
  }
  ASSERT_TRUE(win.w.document());
  // The timeline (in the pane that also holds a compared trace's) replaces the welcome page.
  EXPECT_NE(central->currentWidget(), win.w.welcome());
  EXPECT_TRUE(central->currentWidget()->isAncestorOf(win.w.timeline()));
  EXPECT_TRUE(win.w.timeline()->isVisible());
  QSettings().remove(QStringLiteral("recent"));
}

// Eight recent files with long paths do not set the window's minimum: the page scrolls
// (they asked for over 700 px, and a 1000x700 screenshot came out 706 px tall).
TEST(Welcome, ManyRecentFilesScrollInsteadOfGrowingTheWindow) {
  WelcomePage page;
  QStringList paths;
  for (int i = 0; i < 8; ++i)
    paths << QStringLiteral(
                 "/tmp/opscope_test_%1/TheWindowStreamsAndRankTablesStayUnder300MiB_threads1m_window.json.gz")
                 .arg(10000 + i);
  page.setRecent(paths);
  EXPECT_EQ(page.recentShown(), 8);
  EXPECT_LT(page.minimumSizeHint().height(), 300);
}

}  // namespace
}  // namespace opscope::ui
