#include "layout_report.h"

#include <QDockWidget>
#include <QScreen>
#include <QTabBar>
#include <nlohmann/json.hpp>

#include "main_window.h"
#include "text/json_text.h"
#include "timeline/timeline_widget.h"

namespace opscope::ui {

namespace {

using ojson = nlohmann::ordered_json;

double usSince(const Trace& t, TimeNs ns) { return static_cast<double>(ns - t.minTs) / 1000.0; }

const char* trackKind(const Trace& t, const LayoutEntry& e) {
  if (e.kind == LayoutEntry::Kind::Counter) return "counter";
  const Track& track = t.tracks[e.index];
  switch (track.kind) {
    case TrackKind::GpuStream: {
      // A device track holding only annotations (gpu_user_annotation) is an annotation
      // track.
      const SliceColumns& s = track.slices;
      bool onlyAnnotations = s.size() > 0;
      for (uint32_t i = 0; i < s.size() && onlyAnnotations; ++i)
        onlyAnnotations = s.kind[i] == SliceKind::UserAnnotation;
      return onlyAnnotations ? "annotation" : "device";
    }
    case TrackKind::Async:
      return "async";
    case TrackKind::Thread:
      break;
  }
  return "cpu";
}

const char* areaName(Qt::DockWidgetArea a) {
  switch (a) {
    case Qt::LeftDockWidgetArea:
      return "left";
    case Qt::RightDockWidgetArea:
      return "right";
    case Qt::TopDockWidgetArea:
      return "top";
    case Qt::BottomDockWidgetArea:
      return "bottom";
    default:
      return "none";
  }
}

ojson rect(const QRect& r) { return {{"x", r.x()}, {"y", r.y()}, {"w", r.width()}, {"h", r.height()}}; }

}  // namespace

std::string layoutReportJson(const MainWindow& w) {
  ojson j;
  j["window"] = {{"w", w.width()}, {"h", w.height()}};
  const QScreen* screen = w.screen();
  const QRect avail = screen ? screen->availableGeometry() : QRect();
  j["screen"] = {{"w", avail.width()}, {"h", avail.height()}};
  TimelineWidget* tl = w.timeline();
  const TimelineGeometry g = tl->geometryNow();
  const QPoint origin = tl->isVisible() ? tl->mapTo(&w, QPoint(0, 0)) : QPoint(0, 0);
  const QRect events = g.events.translated(origin);
  const TimelineData* data = tl->data();
  ojson timeline = rect(tl->isVisible() ? QRect(origin, tl->size()) : QRect());
  if (data) {
    timeline["start_us"] = usSince(*data->trace, tl->view().start);
    timeline["end_us"] = usSince(*data->trace, tl->view().endAt(g.events.width()));
  }
  j["timeline"] = std::move(timeline);
  ojson tracks = ojson::array();
  if (data) {
    for (const LayoutEntry& e : tl->layout().entries) {
      if (e.kind != LayoutEntry::Kind::Slices && e.kind != LayoutEntry::Kind::Counter) continue;
      const int y = events.top() + e.y - tl->scrollY();
      const bool visible = tl->isVisible() && y < events.bottom() && y + e.height > events.top();
      tracks.push_back(
          {{"name", e.label}, {"kind", trackKind(*data->trace, e)}, {"y", y}, {"h", e.height}, {"visible", visible}});
    }
  }
  j["tracks"] = std::move(tracks);
  j["selection"] = nullptr;
  if (data && tl->selected()) {
    const EventRef ref = *tl->selected();
    const Trace& t = *data->trace;
    ojson s = {
        {"name", std::string(t.name(ref))}, {"start_us", usSince(t, t.start(ref))}, {"end_us", usSince(t, t.end(ref))}};
    const std::optional<QRect> r = tl->eventRect(ref);
    const QRect inWindow = r ? r->translated(origin) : QRect();
    s.update(rect(inWindow));
    s["visible"] = r.has_value() && tl->isVisible() && events.contains(inWindow.center());
    j["selection"] = std::move(s);
  }
  ojson docks = ojson::array();
  for (QDockWidget* d : w.findChildren<QDockWidget*>()) {
    // Raised: shown and not hidden behind another tab of its area.
    const bool raised = d->isVisible() && !d->visibleRegion().isEmpty();
    ojson o = {{"name", d->windowTitle().toStdString()},
               {"area", d->isFloating() ? "floating" : areaName(w.dockWidgetArea(d))},
               {"visible", d->isVisible()},
               {"raised", raised}};
    o.update(rect(d->isVisible() ? QRect(d->mapTo(&w, QPoint(0, 0)), d->size()) : QRect()));
    docks.push_back(std::move(o));
  }
  j["docks"] = std::move(docks);
  return jsonText(j, 2) + "\n";
}

}  // namespace opscope::ui
