// The window as a new user first sees it: the timeline owns the window, every GPU
// stream is on screen after opening a trace at the default size and at 1280x720, the
// panels wait to be asked for, Details appears with a selection and follows the theme,
// and names stay apart in every view that shortens them.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDockWidget>
#include <QIcon>
#include <QImage>
#include <QTextBlock>
#include <QTextDocument>
#include <QTreeView>
#include <map>
#include <set>

#include "hierarchy/queries.h"
#include "main_window.h"
#include "panels/details_panel.h"
#include "panels/op_tree_model.h"
#include "panels/op_tree_panel.h"
#include "test_support.h"
#include "timeline/names.h"
#include "timeline/timeline_widget.h"

namespace opscope::ui {
namespace {

const std::string kSample = OPSCOPE_SOURCE_DIR "/resources/sample/sample.pt.trace.json.gz";

std::shared_ptr<const TraceDocument> load(const std::string& path) {
  std::string error;
  auto doc = loadDocument(path, error);
  EXPECT_TRUE(doc) << path << ": " << error;
  return doc;
}

// GPU streams whose whole entry is inside the timeline's event area without scrolling.
struct StreamsOnScreen {
  int streams = 0, visible = 0;
  std::string firstHidden;
};
StreamsOnScreen gpuStreamsOnScreen(MainWindow& w) {
  TimelineWidget* tl = w.timeline();
  const Trace& t = *w.document()->trace;
  const TimelineGeometry g = tl->geometryNow();
  StreamsOnScreen s;
  for (uint32_t k = 0; k < t.tracks.size(); ++k) {
    if (t.tracks[k].kind != TrackKind::GpuStream) continue;
    ++s.streams;
    const int entry = tl->layout().entryOfTrack(k);
    if (entry < 0) {
      if (s.firstHidden.empty()) s.firstHidden = t.trackLabel(k) + " (folded)";
      continue;
    }
    const LayoutEntry& e = tl->layout().entries[entry];
    const int top = g.events.top() + e.y - tl->scrollY(), bottom = g.events.top() + e.bottom() - tl->scrollY();
    if (top >= g.events.top() && bottom <= g.events.bottom() + 1) ++s.visible;
    else if (s.firstHidden.empty())
      s.firstHidden = e.label + " at y " + std::to_string(top) + ".." + std::to_string(bottom);
  }
  return s;
}

TEST(FirstGlance, TheTimelineOwnsTheDefaultWindow) {
  MainWindow w(false);
  w.show();
  auto doc = load(kSample);
  w.setDocument(doc);
  QApplication::processEvents();
  EXPECT_EQ(w.size(), QSize(1400, 900));
  EXPECT_FALSE(w.analysisDock()->isVisible());
  EXPECT_FALSE(w.predictionDock()->isVisible());
  auto* details = w.findChild<QDockWidget*>(QStringLiteral("detailsDock"));
  ASSERT_TRUE(details);
  EXPECT_FALSE(details->isVisible()) << "Details shows before anything is selected";
  EXPECT_GE(w.timeline()->width(), w.width() * 7 / 10);
  EXPECT_GE(w.timeline()->height(), w.height() * 8 / 10);

  // Selecting something brings Details; the timeline keeps most of the width.
  w.timeline()->select(test::slicesNamed(*doc->trace, "aten::addmm").front(), true);
  QApplication::processEvents();
  EXPECT_TRUE(details->isVisible());
  EXPECT_GE(w.timeline()->width(), w.width() / 2);

  // The analyses open from their toolbar toggle with a readable share of the height.
  w.analysisDock()->toggleViewAction()->trigger();
  QApplication::processEvents();
  EXPECT_TRUE(w.analysisDock()->isVisible());
  EXPECT_GE(w.analysisDock()->height(), 280);
  EXPECT_GE(w.timeline()->height(), 250);
}

TEST(FirstGlance, EveryGpuStreamOfTheSampleIsOnScreenAtTheDefaultSize) {
  MainWindow w(false);
  w.show();
  w.setDocument(load(kSample));
  QApplication::processEvents();
  const StreamsOnScreen s = gpuStreamsOnScreen(w);
  ASSERT_GT(s.streams, 0);
  EXPECT_EQ(s.visible, s.streams) << "first off screen: " << s.firstHidden;
}

TEST(FirstGlance, EveryGpuStreamOfTheRealTracesIsOnScreenAt1280x720) {
  bool any = false;
  for (const char* name :
       {"recsys_rank0_cuda.json.gz", "mi250_minitoy_train_rocm.json.gz", "alexnet_train_cuda.json.gz"}) {
    const auto path = test::sharedTrace(name);
    if (!path) continue;
    any = true;
    MainWindow w(false);
    w.resize(1280, 720);
    w.show();
    w.setDocument(load(*path));
    QApplication::processEvents();
    const StreamsOnScreen s = gpuStreamsOnScreen(w);
    EXPECT_GT(s.streams, 0) << name;
    EXPECT_EQ(s.visible, s.streams) << name << ": first off screen: " << s.firstHidden;
  }
  if (!any) GTEST_SKIP() << "../shared/traces not present";
}

// The colour of the first link drawn in the panel's document.
std::optional<QColor> firstLinkColour(DetailsPanel* d) {
  for (QTextBlock b = d->document()->begin(); b.isValid(); b = b.next())
    for (auto it = b.begin(); !it.atEnd(); ++it) {
      const QTextCharFormat f = it.fragment().charFormat();
      if (f.isAnchor() && f.foreground().style() != Qt::NoBrush) return f.foreground().color();
    }
  return std::nullopt;
}

TEST(FirstGlance, AThemeSwitchRestylesWhatDetailsShows) {
  MainWindow w(false);
  w.show();
  auto doc = load(kSample);
  w.setDocument(doc);
  w.timeline()->select(test::slicesNamed(*doc->trace, "aten::addmm").front(), true);
  QApplication::processEvents();
  const auto light = firstLinkColour(w.details());
  ASSERT_TRUE(light) << "no link in Details";
  const QColor lightBase = w.details()->palette().color(QPalette::Base);
  w.setDarkTheme(true);
  QApplication::processEvents();
  const auto dark = firstLinkColour(w.details());
  ASSERT_TRUE(dark);
  const QColor darkBase = w.details()->palette().color(QPalette::Base);
  // Links stay readable on their background: dark on light, light on dark.
  EXPECT_GT(lightBase.lightnessF(), 0.6);
  EXPECT_LT(light->lightnessF(), 0.5);
  EXPECT_LT(darkBase.lightnessF(), 0.4);
  EXPECT_GT(dark->lightnessF(), 0.55) << dark->name().toStdString();
  w.setDarkTheme(false);
  QApplication::processEvents();
  EXPECT_EQ(firstLinkColour(w.details())->name(), light->name());
}

TEST(FirstGlance, OpTreeSiblingsNeverShareAShownName) {
  std::vector<std::string> files{kSample};
  for (const char* name :
       {"recsys_rank0_cuda.json.gz", "alexnet_train_cuda.json.gz", "mi250_minitoy_train_rocm.json.gz"})
    if (const auto p = test::sharedTrace(name)) files.push_back(*p);
  for (const std::string& file : files) {
    MainWindow w(false);
    w.show();
    w.setDocument(load(file));
    QApplication::processEvents();
    auto* view = w.opTree()->findChild<QTreeView*>();
    ASSERT_TRUE(view);
    QAbstractItemModel* m = view->model();
    size_t checked = 0;
    std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
      std::map<QString, QString> shownToFull;
      for (int r = 0; r < m->rowCount(parent); ++r) {
        const QModelIndex i = m->index(r, OpTreeModel::Name, parent);
        const QString shown = i.data(Qt::DisplayRole).toString(), full = i.data(Qt::ToolTipRole).toString();
        const auto [it, fresh] = shownToFull.emplace(shown, full);
        EXPECT_TRUE(fresh || it->second == full) << file << ": '" << shown.toStdString() << "' shows both\n  "
                                                 << it->second.toStdString() << "\n  " << full.toStdString();
        ++checked;
        walk(i);
      }
    };
    walk(QModelIndex());
    EXPECT_GT(checked, 10u) << file;
  }
}

TEST(FirstGlance, ChartLabelsAtTheirWidthKeepRealNamesApart) {
  // Op names under the op-kernels bars (kOpAxisChars) and every name beside bars
  // (kBarLabelChars): the labels of distinct names of the real traces stay distinct.
  std::vector<std::string> files{kSample};
  for (const char* name :
       {"recsys_rank0_cuda.json.gz", "alexnet_train_cuda.json.gz", "mi250_minitoy_train_rocm.json.gz"})
    if (const auto p = test::sharedTrace(name)) files.push_back(*p);
  for (const std::string& file : files) {
    auto doc = load(file);
    ASSERT_TRUE(doc);
    std::set<std::string> ops, all;
    for (const Track& tr : doc->trace->tracks)
      for (size_t i = 0; i < tr.slices.size(); ++i) {
        const std::string n(doc->trace->str(tr.slices.name[i]));
        all.insert(n);
        if (tr.kind == TrackKind::Thread) ops.insert(n);
      }
    for (const auto& [names, width] : {std::pair{&ops, kOpAxisChars}, std::pair{&all, kBarLabelChars}}) {
      const std::vector<std::string> list(names->begin(), names->end());
      const QStringList shown = distinctDisplayNames(list, width);
      ASSERT_EQ(shown.size(), static_cast<qsizetype>(list.size()));
      std::map<QString, std::string> seen;
      for (size_t i = 0; i < list.size(); ++i) {
        EXPECT_LE(shown[i].size(), width) << list[i];
        const auto [it, fresh] = seen.emplace(shown[i], list[i]);
        // One short name may stand for several full names (shortName's choice); two
        // short names never share a label.
        if (!fresh && displayName(it->second) != displayName(list[i]))
          ADD_FAILURE() << file << " at " << width << ": '" << shown[i].toStdString() << "' shows both\n  "
                        << displayName(it->second).toStdString() << "\n  " << displayName(list[i]).toStdString();
      }
      EXPECT_GT(seen.size(), 5u) << file;
    }
  }
}

// The icon a window shows when the desktop's theme has none (a build run from its
// folder): compiled in, and drawn, not blank, at the smallest size a title bar uses.
TEST(FirstGlance, TheApplicationIconIsCompiledInAndDrawsAtSixteenPixels) {
  const QIcon icon(QStringLiteral(":/icons/opscope.svg"));
  ASSERT_FALSE(icon.isNull());
  for (int size : {16, 256}) {
    const QImage image = icon.pixmap(size, size).toImage();
    ASSERT_EQ(image.width(), size);
    int opaque = 0, colours = 0;
    std::set<QRgb> seen;
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x) {
        const QRgb p = image.pixel(x, y);
        if (qAlpha(p) == 255) ++opaque;
        if (qAlpha(p) == 255 && seen.insert(p & 0xF0F0F0).second) ++colours;
      }
    EXPECT_GT(opaque, size * size / 2) << size;  // a filled tile, not an outline
    EXPECT_GE(colours, 4) << size;               // the bars stay apart from the tile
  }
}

}  // namespace
}  // namespace opscope::ui
