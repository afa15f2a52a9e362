#include "palette/window_commands.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QPointer>
#include <algorithm>

#include "timeline/time_view.h"
#include "trace_document.h"

namespace opscope::ui {

std::vector<PaletteEntry> windowPaletteEntries(QMenuBar* menus, const TraceDocument* doc,
                                               const std::function<void(uint32_t)>& goToTrack,
                                               const std::function<void(const QString&)>& selectByName) {
  std::vector<PaletteEntry> out;
  // Actions of every menu, in menu order, with their shortcut (the palette's own entry left out).
  const std::function<void(QMenu*, const QString&)> addMenu = [&](QMenu* menu, const QString& path) {
    for (QAction* a : menu->actions()) {
      if (a->isSeparator() || !a->isEnabled()) continue;
      QString text = a->text();
      text.remove(QLatin1Char('&'));
      if (QMenu* sub = a->menu()) {
        addMenu(sub, path + text + QStringLiteral(" \u25B8 "));
        continue;
      }
      if (text.startsWith(QStringLiteral("Command palette"))) continue;
      if (a->isCheckable()) text += a->isChecked() ? QStringLiteral(" (on)") : QStringLiteral(" (off)");
      QPointer<QAction> guard(a);
      out.push_back({QStringLiteral("Action"), path + text, a->shortcut().toString(QKeySequence::NativeText), [guard] {
                       if (guard) guard->trigger();
                     }});
    }
  };
  for (QAction* top : menus->actions())
    if (QMenu* m = top->menu()) {
      QString name = top->text();
      name.remove(QLatin1Char('&'));
      addMenu(m, name + QStringLiteral(" \u25B8 "));
    }
  if (!doc) return out;
  const Trace& t = *doc->trace;
  for (uint32_t tr = 0; tr < t.tracks.size(); ++tr) {
    if (t.tracks[tr].slices.size() == 0) continue;
    out.push_back({QStringLiteral("Track"), QString::fromStdString(t.trackLabel(tr)),
                   QStringLiteral("%L1 events").arg(t.tracks[tr].slices.size()), [goToTrack, tr] { goToTrack(tr); }});
  }
  // Slice names by total time, so the few letters typed land on what matters; capped so
  // a trace with millions of distinct names keeps the palette instant.
  std::vector<double> total(t.strings.size(), 0.0);
  std::vector<uint8_t> gpu(t.strings.size(), 0);
  for (const Track& track : t.tracks)
    for (size_t i = 0; i < track.slices.size(); ++i) {
      const StringId n = track.slices.name[i];
      total[n] += static_cast<double>(track.slices.dur[i]) + 1;
      gpu[n] |= track.kind == TrackKind::GpuStream;
    }
  std::vector<StringId> names;
  for (StringId n = 0; n < total.size(); ++n)
    if (total[n] > 0) names.push_back(n);
  constexpr size_t kMaxNames = 20000;
  const size_t keep = std::min(names.size(), kMaxNames);
  std::partial_sort(names.begin(), names.begin() + static_cast<ptrdiff_t>(keep), names.end(),
                    [&](StringId a, StringId b) { return total[a] > total[b]; });
  names.resize(keep);
  for (StringId n : names) {
    const QString full = QString::fromUtf8(t.str(n).data(), static_cast<qsizetype>(t.str(n).size()));
    out.push_back({gpu[n] ? QStringLiteral("Kernel") : QStringLiteral("Op"), full,
                   QString::fromStdString(formatDuration(static_cast<TimeNs>(total[n]))) + QStringLiteral(" total"),
                   [selectByName, full] { selectByName(full); }});
  }
  return out;
}

}  // namespace opscope::ui
