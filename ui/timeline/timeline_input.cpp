// The timeline's input: wheel, mouse, keys, context menu and tooltips. Each
// handler turns a gesture into one of TimelineWidget's public operations
// (zoomAtPx, panPx, select, setTrackPinned, ...), so the palette, the tests
// and the mouse go through the same code.
#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "timeline/timeline_widget.h"

namespace opscope::ui {

namespace {

constexpr double kKeyZoom = 1.35;

QString qstr(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

}  // namespace

void TimelineWidget::wheelEvent(QWheelEvent* e) {
  if (!doc_) return;
  const TimelineGeometry g(eventAreaSize());
  const QPoint delta = e->angleDelta();
  const double x = e->position().x() - g.events.left();
  if (e->modifiers() & Qt::ControlModifier) {
    zoomAtPx(std::clamp(x, 0.0, double(g.events.width())), std::pow(1.0015, delta.y()));
  } else if (e->modifiers() & Qt::ShiftModifier) {
    panPx(-delta.y() * 0.5);
  } else {
    if (delta.x() != 0) panPx(-delta.x() * 0.5);
    if (delta.y() != 0) setScrollY(state_.scrollY - delta.y() / 2);
  }
  e->accept();
}

std::vector<uint32_t> TimelineWidget::tracksBetween(int y0, int y1) const {
  const TimelineGeometry g(eventAreaSize());
  std::vector<uint32_t> out;
  const int a = std::min(y0, y1) - g.events.top() + state_.scrollY;
  const int b = std::max(y0, y1) - g.events.top() + state_.scrollY;
  for (const LayoutEntry& e : layout_.entries)
    if (e.kind == LayoutEntry::Kind::Slices && e.bottom() > a && e.y <= b) out.push_back(e.index);
  return out;
}

void TimelineWidget::centreOverviewAt(int x) {
  const TimelineGeometry g(eventAreaSize());
  const OverviewDensity& d = doc_->overview;
  const double frac = std::clamp((x - g.events.left()) / double(g.events.width()), 0.0, 1.0);
  const TimeNs t = d.start + static_cast<TimeNs>(frac * double(d.end - d.start));
  TimeView v = state_.view;
  v.start = t - static_cast<TimeNs>(g.events.width() / 2.0 * v.nsPerPx);
  setView(v);
}

void TimelineWidget::mousePressEvent(QMouseEvent* e) {
  setFocus();
  if (!doc_ || e->button() != Qt::LeftButton) return;
  const TimelineGeometry g(eventAreaSize());
  const QPoint pos = e->position().toPoint();
  pressPos_ = pos;
  pressView_ = state_.view;
  pressScroll_ = state_.scrollY;
  dragMoved_ = false;
  if (g.overview.contains(pos)) {
    drag_ = Drag::Overview;
    centreOverviewAt(pos.x());
    return;
  }
  if (g.gutter.contains(pos) || (pos.y() >= g.events.top() && !g.events.contains(pos))) {
    const int k = layout_.entryAt(pos.y() - g.events.top() + state_.scrollY);
    if (k >= 0 && !toggleHeader(layout_.entries[static_cast<size_t>(k)]) &&
        layout_.entries[static_cast<size_t>(k)].kind == LayoutEntry::Kind::Slices) {
      // A thread's label folds or unfolds its deeper rows.
      const LayoutEntry& e = layout_.entries[static_cast<size_t>(k)];
      if (e.hiddenRows > 0 || expanded_.count(e.index)) setTrackExpanded(e.index, !expanded_.count(e.index));
    }
    drag_ = Drag::None;
    return;
  }
  if (g.events.contains(pos)) {
    const int k = layout_.entryAt(pos.y() - g.events.top() + state_.scrollY);
    if (k >= 0 && !(e->modifiers() & Qt::ShiftModifier) && toggleHeader(layout_.entries[static_cast<size_t>(k)])) {
      drag_ = Drag::None;
      return;
    }
    drag_ = (e->modifiers() & Qt::ShiftModifier) ? Drag::Area : Drag::Pan;
  }
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* e) {
  const QPoint pos = e->position().toPoint();
  lastMouse_ = pos;
  if (!doc_) return;
  const TimelineGeometry g(eventAreaSize());
  if (drag_ == Drag::Overview) {
    centreOverviewAt(pos.x());
    return;
  }
  if (drag_ != Drag::None && (pos - pressPos_).manhattanLength() > 3) dragMoved_ = true;
  if (drag_ == Drag::Pan && dragMoved_) {
    state_.view = panBy(pressView_, pressPos_.x() - pos.x());
    state_.scrollY = pressScroll_ + (pressPos_.y() - pos.y());
    clampState();
    vbar_->setValue(state_.scrollY);
    update();
    emit viewChanged();
    return;
  }
  if (drag_ == Drag::Area && dragMoved_) {
    const TimeNs a = state_.view.toTime(pressPos_.x() - g.events.left());
    const TimeNs b = state_.view.toTime(std::clamp(pos.x(), g.events.left(), g.events.right()) - g.events.left());
    state_.area = TimeRange{std::min(a, b), std::max(a, b)};
    state_.areaTracks = tracksBetween(pressPos_.y(), pos.y());
    update();
    return;
  }
  const auto hover = eventAt(pos);
  if (hover != state_.hovered) {
    state_.hovered = hover;
    update();
  }
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  const Drag d = drag_;
  drag_ = Drag::None;
  if (!doc_) return;
  if (d == Drag::Area && dragMoved_ && state_.area) {
    emit areaSelected(*state_.area, state_.areaTracks);
    return;
  }
  if ((d == Drag::Pan || d == Drag::Area) && !dragMoved_) {
    // A click: select what is under the mouse (nothing clears), drop the area.
    if (state_.area) {
      state_.area.reset();
      state_.areaTracks.clear();
    }
    select(eventAt(e->position().toPoint()));
  }
}

void TimelineWidget::mouseDoubleClickEvent(QMouseEvent* e) {
  if (!doc_) return;
  if (auto hit = eventAt(e->position().toPoint())) {
    select(hit);
    fitSelection();
  }
}

void TimelineWidget::keyPressEvent(QKeyEvent* e) {
  if (!doc_) {
    QWidget::keyPressEvent(e);
    return;
  }
  const TimelineGeometry g(eventAreaSize());
  const double w = g.events.width();
  double cursor = w / 2;
  if (lastMouse_.x() >= g.events.left() && lastMouse_.x() <= g.events.right())
    cursor = lastMouse_.x() - g.events.left();
  switch (e->key()) {
    case Qt::Key_W:
      zoomAtPx(cursor, kKeyZoom);
      break;
    case Qt::Key_S:
      zoomAtPx(cursor, 1 / kKeyZoom);
      break;
    case Qt::Key_A:
      panPx(-w * 0.15);
      break;
    case Qt::Key_D:
      panPx(w * 0.15);
      break;
    case Qt::Key_F:
      fitSelection();
      break;
    case Qt::Key_0:
    case Qt::Key_Home:
      fitAll();
      break;
    case Qt::Key_Escape: {
      const bool hadArea = state_.area.has_value();
      state_.area.reset();
      state_.areaTracks.clear();
      select(std::nullopt);
      if (hadArea) emit areaCleared();
      break;
    }
    case Qt::Key_BracketRight:
    case Qt::Key_BracketLeft:
      followFlow(e->key() == Qt::Key_BracketRight);
      break;
    case Qt::Key_M:
      // Perfetto's M: the selected slice's span marked on the ruler with its duration
      // (the area selection's chip), across every track; M again clears it.
      if (state_.selected) {
        const TimeRange span{doc_->trace->start(*state_.selected), doc_->trace->end(*state_.selected)};
        const bool same = state_.area && state_.area->start == span.start && state_.area->end == span.end &&
                          state_.areaTracks.empty();
        state_.area.reset();
        state_.areaTracks.clear();
        if (!same) state_.area = span;
        update();
        if (same) emit areaCleared();
      }
      break;
    default:
      QWidget::keyPressEvent(e);
      return;
  }
  e->accept();
}

void TimelineWidget::contextMenuEvent(QContextMenuEvent* e) {
  if (!doc_) return;
  const TimelineGeometry g(eventAreaSize());
  QMenu menu(this);
  if (e->pos().y() >= g.events.top()) {
    const int k = layout_.entryAt(e->pos().y() - g.events.top() + state_.scrollY);
    if (k >= 0 && layout_.entries[static_cast<size_t>(k)].kind == LayoutEntry::Kind::Slices) {
      const uint32_t track = layout_.entries[static_cast<size_t>(k)].index;
      const auto& pinned = arrangement_.pinned;
      const bool isPinned = std::find(pinned.begin(), pinned.end(), track) != pinned.end();
      menu.addSection(qstr(doc_->trace->trackLabel(track)));
      menu.addAction(isPinned ? QStringLiteral("Unpin") : QStringLiteral("Pin to the top"), this,
                     [this, track, isPinned] { setTrackPinned(track, !isPinned); });
      if (!isPinned) {
        menu.addAction(QStringLiteral("Move up"), this, [this, track] { moveTrack(track, -1); });
        menu.addAction(QStringLiteral("Move down"), this, [this, track] { moveTrack(track, +1); });
      }
      menu.addAction(QStringLiteral("Hide this track"), this, [this, track] { setTrackHidden(track, true); });
    } else if (k >= 0 && layout_.entries[static_cast<size_t>(k)].kind == LayoutEntry::Kind::Counter) {
      const uint32_t counter = layout_.entries[static_cast<size_t>(k)].index;
      menu.addSection(qstr(layout_.entries[static_cast<size_t>(k)].label));
      menu.addAction(QStringLiteral("Hide this counter"), this,
                     [this, counter] { setCountersHidden({counter}, true); });
    }
  }
  const size_t hiddenCount = arrangement_.hidden.size() + arrangement_.hiddenCounters.size();
  if (hiddenCount)
    menu.addAction(QStringLiteral("Show %1 hidden track%2").arg(hiddenCount).arg(hiddenCount == 1 ? "" : "s"), this,
                   [this] { showAllTracks(); });
  if (!menu.isEmpty()) menu.exec(e->globalPos());
}

bool TimelineWidget::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip && doc_) {
    auto* he = static_cast<QHelpEvent*>(e);
    if (const QString track = trackTipAt(he->pos()); !track.isEmpty()) {
      QToolTip::showText(he->globalPos(), track, this);
    } else if (const QString folded = foldedTipAt(he->pos()); !folded.isEmpty()) {
      QToolTip::showText(he->globalPos(), folded, this);
    } else if (auto hit = eventAt(he->pos())) {
      const Trace& t = *doc_->trace;
      const QString tip =
          QStringLiteral("<b>%1</b><br>start %2<br>duration %3<br>category %4<br>%5")
              .arg(qstr(t.name(*hit)).toHtmlEscaped(), qstr(formatDuration(t.start(*hit) - t.minTs)),
                   qstr(formatDuration(t.dur(*hit))), qstr(t.str(t.slices(hit->track).cat[hit->index])).toHtmlEscaped(),
                   qstr(t.trackLabel(hit->track)).toHtmlEscaped());
      QToolTip::showText(he->globalPos(), tip, this);
    } else if (auto in = instantAt(he->pos())) {
      const Instant& i = doc_->trace->instants[*in];
      static const char* scopes[] = {"thread", "process", "global"};
      QToolTip::showText(he->globalPos(),
                         QStringLiteral("<b>%1</b><br>instant (%2 scope) at %3")
                             .arg(qstr(doc_->trace->str(i.name)).toHtmlEscaped(),
                                  QString::fromLatin1(scopes[static_cast<int>(i.scope)]),
                                  qstr(formatDuration(i.ts - doc_->trace->minTs))),
                         this);
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QWidget::event(e);
}

}  // namespace opscope::ui
