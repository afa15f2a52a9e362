#include "timeline/timeline_widget.h"

#include <QPainter>
#include <QResizeEvent>
#include <algorithm>
#include <cmath>

#include "hierarchy/queries.h"

namespace opscope::ui {

namespace {

constexpr int kScrollBarWidth = 14;
constexpr size_t kMaxArrows = 400;

QString qstr(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

}  // namespace

TimelineWidget::TimelineWidget(QWidget* parent) : QWidget(parent) {
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  setMinimumSize(400, 120);  // two of them (Compare) and a bottom dock fit a 720 px screen
  setAttribute(Qt::WA_OpaquePaintEvent);
  vbar_ = new QScrollBar(Qt::Vertical, this);
  connect(vbar_, &QScrollBar::valueChanged, this, [this](int v) {
    if (v != state_.scrollY) {
      state_.scrollY = v;
      update();
    }
  });
  // What this timeline shows, published to the timelines linked with it.
  connect(this, &TimelineWidget::viewChanged, this, [this] {
    if (!link_ || !doc_) return;
    TimeView v = state_.view;
    v.start -= linkOffset_;
    link_->setView(v, this);
  });
  connect(this, &TimelineWidget::selectionChanged, this, [this](std::optional<EventRef> ref) {
    if (!link_ || !doc_) return;
    std::optional<TimeRange> mark;
    if (ref) mark = TimeRange{doc_->trace->start(*ref) - linkOffset_, doc_->trace->end(*ref) - linkOffset_};
    link_->setMark(mark, this);
  });
}

void TimelineWidget::linkView(std::shared_ptr<SharedTimeView> shared, TimeNs offset) {
  if (link_) link_->disconnect(this);
  link_ = std::move(shared);
  linkOffset_ = offset;
  state_.linkedMark.reset();
  if (!link_) {
    update();
    return;
  }
  // Another timeline's change, applied without publishing it again.
  connect(link_.get(), &SharedTimeView::viewSet, this, [this](TimeView v, const void* from) {
    if (from == this || !doc_) return;
    v.start += linkOffset_;
    state_.view = v;
    clampState();
    update();
  });
  connect(link_.get(), &SharedTimeView::markSet, this, [this](std::optional<TimeRange> m, const void* from) {
    if (from == this) return;
    if (m) m = TimeRange{m->start + linkOffset_, m->end + linkOffset_};
    state_.linkedMark = m;
    update();
  });
  if (link_->view() && doc_) {
    TimeView v = *link_->view();
    v.start += linkOffset_;
    state_.view = v;
    clampState();
    update();
  } else if (doc_) {
    emit viewChanged();  // the first linked timeline sets the shared view
  }
}

QSize TimelineWidget::eventAreaSize() const { return QSize(std::max(1, width() - kScrollBarWidth), height()); }

double TimelineWidget::eventsWidth() const { return TimelineGeometry(eventAreaSize()).events.width(); }

void TimelineWidget::setData(std::shared_ptr<const TimelineData> data) {
  doc_ = std::move(data);
  state_.doc = doc_.get();
  state_.selected.reset();
  state_.hovered.reset();
  state_.area.reset();
  state_.areaTracks.clear();
  state_.arrows.clear();
  state_.pathArrows.clear();
  state_.scrollY = 0;
  collapsed_.clear();
  collapsedRanks_.clear();
  expanded_.clear();
  hidden_.clear();
  arrangement_ = {};
  search_.reset();
  matches_.reset();
  state_.search = nullptr;
  state_.matches = nullptr;
  linkFlows_.clear();
  if (doc_) {
    const Trace& t = *doc_->trace;
    const StringId ac2g = t.strings.find("ac2g");
    for (const Flow& f : t.flows)
      if (f.cat != ac2g || ac2g == 0) linkFlows_.push_back(f);
    // A multi-rank session opens on every rank's GPU streams: the CPU processes of each
    // rank start folded (their headers stay, one click unfolds them).
    std::vector<bool> hasGpu(t.processes.size(), false);
    for (const Track& tr : t.tracks)
      if (tr.kind == TrackKind::GpuStream && tr.slices.size() > 0) hasGpu[tr.process] = true;
    for (uint32_t p = 0; p < t.processes.size(); ++p)
      if (t.processes[p].rank != kNoId && !hasGpu[p]) collapsed_.insert(p);
    // A trace with many CPU threads opens on its device streams too: a CPU process of
    // more than kFoldThreads threads starts folded (an MTIA trace's ~50 threads pushed its
    // 12 device streams 3,000 px down).
    if (!t.tracks.empty()) {
      std::vector<uint32_t> threads(t.processes.size(), 0);
      for (const Track& tr : t.tracks)
        if (tr.kind != TrackKind::GpuStream && tr.slices.size() > 0) ++threads[tr.process];
      for (uint32_t p = 0; p < t.processes.size(); ++p)
        if (!hasGpu[p] && threads[p] > kFoldThreads) collapsed_.insert(p);
    }
  }
  relayout();
  fitAll();
  emit selectionChanged(std::nullopt);
  emit dataChanged();
}

void TimelineWidget::relayout() {
  if (!doc_) {
    layout_ = {};
  } else {
    layout_ = layoutTracks(*doc_->trace, doc_->rows, collapsed_, state_.metrics, expanded_, hidden_, collapsedRanks_,
                           arrangement_);
  }
  state_.layout = &layout_;
  clampState();
  updateScrollBar();
  update();
}

void TimelineWidget::setShownRanks(const std::set<int64_t>& ranks) {
  hidden_.clear();
  if (doc_ && !ranks.empty())
    for (uint32_t p = 0; p < doc_->trace->processes.size(); ++p) {
      const int64_t rank = doc_->trace->processes[p].rank;
      if (rank != kNoId && !ranks.count(rank)) hidden_.insert(p);
    }
  relayout();
}

void TimelineWidget::setProcessCollapsed(uint32_t process, bool collapsed) {
  if (collapsed) collapsed_.insert(process);
  else collapsed_.erase(process);
  relayout();
}

void TimelineWidget::setRankCollapsed(int64_t rank, bool collapsed) {
  if (collapsed) collapsedRanks_.insert(rank);
  else collapsedRanks_.erase(rank);
  relayout();
}

void TimelineWidget::setAllRanksCollapsed(bool collapsed) {
  collapsedRanks_.clear();
  if (doc_ && collapsed)
    for (const Process& p : doc_->trace->processes)
      if (p.rank != kNoId) collapsedRanks_.insert(p.rank);
  relayout();
}

bool TimelineWidget::toggleHeader(const LayoutEntry& header) {
  // Copied first: folding lays the timeline out again, and header lives in the layout.
  const int64_t rank = header.rank;
  const uint32_t process = header.process;
  switch (header.kind) {
    case LayoutEntry::Kind::RankHeader:
      setRankCollapsed(rank, !collapsedRanks_.count(rank));
      return true;
    case LayoutEntry::Kind::ProcessHeader:
      setProcessCollapsed(process, !collapsed_.count(process));
      return true;
    default:
      return false;
  }
}

void TimelineWidget::setTrackPinned(uint32_t track, bool pinned) {
  auto& p = arrangement_.pinned;
  p.erase(std::remove(p.begin(), p.end(), track), p.end());
  if (pinned) p.push_back(track);
  relayout();
  emit arrangementChanged();
}

void TimelineWidget::setTrackHidden(uint32_t track, bool hidden) {
  if (hidden) arrangement_.hidden.insert(track);
  else arrangement_.hidden.erase(track);
  relayout();
  emit arrangementChanged();
}

void TimelineWidget::setCountersHidden(const std::vector<uint32_t>& counters, bool hidden) {
  for (uint32_t c : counters)
    if (hidden) arrangement_.hiddenCounters.insert(c);
    else arrangement_.hiddenCounters.erase(c);
  relayout();
  emit arrangementChanged();
}

void TimelineWidget::showAllTracks() {
  arrangement_.hidden.clear();
  arrangement_.hiddenCounters.clear();
  relayout();
  emit arrangementChanged();
}

bool TimelineWidget::moveTrack(uint32_t track, int delta) {
  if (!doc_ || track >= doc_->trace->tracks.size()) return false;
  const uint32_t process = doc_->trace->tracks[track].process;
  // The process's tracks as shown now (the user's order, then the default one).
  std::vector<uint32_t> order =
      arrangement_.order.count(process) ? arrangement_.order[process] : std::vector<uint32_t>{};
  for (uint32_t t : defaultTrackOrder(*doc_->trace, process))
    if (std::find(order.begin(), order.end(), t) == order.end()) order.push_back(t);
  const auto it = std::find(order.begin(), order.end(), track);
  const long at = it - order.begin(), to = at + delta;
  if (it == order.end() || to < 0 || to >= static_cast<long>(order.size())) return false;
  std::swap(order[static_cast<size_t>(at)], order[static_cast<size_t>(to)]);
  arrangement_.order[process] = std::move(order);
  relayout();
  emit arrangementChanged();
  return true;
}

void TimelineWidget::setTrackExpanded(uint32_t track, bool expanded) {
  if (expanded) expanded_.insert(track);
  else expanded_.erase(track);
  relayout();
}

void TimelineWidget::setAllTracksExpanded(bool expanded) {
  expanded_.clear();
  if (expanded && doc_)
    for (uint32_t t = 0; t < doc_->trace->tracks.size(); ++t) expanded_.insert(t);
  relayout();
}

void TimelineWidget::clampState() {
  if (!doc_) return;
  const Trace& t = *doc_->trace;
  state_.view = clampView(state_.view, t.minTs, t.maxTs, eventsWidth());
  const int visible = TimelineGeometry(eventAreaSize()).events.height();
  state_.scrollY = std::clamp(state_.scrollY, 0, std::max(0, layout_.height - visible));
}

void TimelineWidget::updateScrollBar() {
  const TimelineGeometry g(eventAreaSize());
  vbar_->setGeometry(width() - kScrollBarWidth, g.events.top(), kScrollBarWidth, g.events.height());
  vbar_->setRange(0, std::max(0, layout_.height - g.events.height()));
  vbar_->setPageStep(std::max(1, g.events.height()));
  vbar_->setSingleStep(state_.metrics.rowHeight);
  vbar_->setValue(state_.scrollY);
}

void TimelineWidget::setView(const TimeView& v) {
  state_.view = v;
  clampState();
  update();
  emit viewChanged();
}

void TimelineWidget::showRange(TimeNs start, TimeNs end) { setView(fitView(start, end, eventsWidth(), 0.05)); }

void TimelineWidget::fitAll() {
  if (!doc_) return;
  setView(fitView(doc_->trace->minTs, doc_->trace->maxTs, eventsWidth()));
}

void TimelineWidget::fitSelection() {
  if (!doc_) return;
  if (state_.selected) {
    showRange(doc_->trace->start(*state_.selected), doc_->trace->end(*state_.selected));
  } else if (state_.area) {
    showRange(state_.area->start, state_.area->end);
  } else {
    fitAll();
  }
}

void TimelineWidget::zoomAtPx(double eventX, double factor) { setView(zoomAt(state_.view, eventX, factor)); }

void TimelineWidget::panPx(double dx) { setView(panBy(state_.view, dx)); }

void TimelineWidget::setScrollY(int y) {
  state_.scrollY = y;
  clampState();
  vbar_->setValue(state_.scrollY);
  update();
}

void TimelineWidget::computeArrows() {
  state_.arrows.clear();
  if (!doc_ || !state_.selected) return;
  const Trace& t = *doc_->trace;
  const EventRef sel = *state_.selected;
  const SliceKind kind = t.kind(sel);
  if (isGpuKind(kind)) {
    if (auto l = launchOf(t, sel)) state_.arrows.push_back({*l, sel});
  } else if (isLaunchKind(kind)) {
    for (EventRef g : gpuEventsOfLaunch(t, sel)) state_.arrows.push_back({sel, g});
  } else if (t.tracks[sel.track].kind == TrackKind::Thread) {
    for (EventRef l : launchesOf(t, sel)) {
      for (EventRef g : gpuEventsOfLaunch(t, l)) {
        if (state_.arrows.size() >= kMaxArrows) break;
        state_.arrows.push_back({l, g});
      }
      if (state_.arrows.size() >= kMaxArrows) break;
    }
  }
  for (const Flow& f : linkFlows_) {
    if (f.from == sel.packed() || f.to == sel.packed())
      if (f.from != kNoRef && f.to != kNoRef)
        state_.arrows.push_back({EventRef::unpack(f.from), EventRef::unpack(f.to)});
  }
}

void TimelineWidget::select(std::optional<EventRef> ref, bool revealIt) {
  if (ref && doc_ && (ref->track >= doc_->trace->tracks.size() || ref->index >= doc_->trace->slices(ref->track).size()))
    ref.reset();
  state_.selected = ref;
  computeArrows();
  if (ref && revealIt) reveal(*ref);
  update();
  emit selectionChanged(ref);
}

bool TimelineWidget::followFlow(bool forward) {
  if (!state_.selected) return false;
  const EventRef sel = *state_.selected;
  for (const auto& [from, to] : state_.arrows) {
    if (forward && from == sel) {
      select(to, true);
      return true;
    }
    if (!forward && to == sel) {
      select(from, true);
      return true;
    }
  }
  return false;
}

void TimelineWidget::reveal(EventRef ref) {
  if (!doc_) return;
  const Trace& t = *doc_->trace;
  // Expand its process if collapsed.
  const uint32_t process = t.tracks[ref.track].process;
  // A slice of a rank the filter hides brings that rank back (a link from another rank).
  if (hidden_.count(process)) {
    const int64_t rank = t.processes[process].rank;
    for (uint32_t p = 0; p < t.processes.size(); ++p)
      if (t.processes[p].rank == rank) hidden_.erase(p);
    relayout();
  }
  if (collapsedRanks_.count(t.processes[process].rank)) setRankCollapsed(t.processes[process].rank, false);
  if (collapsed_.count(process)) setProcessCollapsed(process, false);
  // A slice on a row of a collapsed thread unfolds the thread.
  if (const int k = layout_.entryOfTrack(ref.track); k >= 0) {
    const uint32_t row = RowIndex::rowOf(t.tracks[ref.track], doc_->rows.track(ref.track), ref.index);
    if (row >= layout_.entries[static_cast<size_t>(k)].rows) setTrackExpanded(ref.track, true);
  }
  const double w = eventsWidth();
  const double x0 = state_.view.toPx(t.start(ref)), x1 = state_.view.toPx(t.end(ref));
  if (x1 - x0 < 3 || x1 - x0 > w) {
    // Too small to see, or wider than the screen: frame it with context on both sides.
    const TimeNs d = std::max<TimeNs>(t.dur(ref), 1000);
    showRange(t.start(ref) - d, t.end(ref) + d);
  } else if (x1 < 0 || x0 > w) {
    const TimeNs mid = t.start(ref) + t.dur(ref) / 2;
    TimeView v = state_.view;
    v.start = mid - static_cast<TimeNs>(w / 2 * v.nsPerPx);
    setView(v);
  }
  const int k = layout_.entryOfTrack(ref.track);
  if (k >= 0) {
    const LayoutEntry& e = layout_.entries[static_cast<size_t>(k)];
    const uint32_t row = RowIndex::rowOf(t.tracks[ref.track], doc_->rows.track(ref.track), ref.index);
    const int y = rowY(e, state_.metrics, row);
    const int visible = TimelineGeometry(eventAreaSize()).events.height();
    if (y < state_.scrollY || y + state_.metrics.rowHeight > state_.scrollY + visible)
      setScrollY(std::max(0, e.y - visible / 3));
  }
}

void TimelineWidget::setPathArrows(std::vector<PathArrow> arrows) {
  state_.pathArrows = std::move(arrows);
  update();
}

void TimelineWidget::setSearch(std::shared_ptr<const NameMatcher> matcher,
                               std::shared_ptr<const std::vector<EventRef>> matches) {
  search_ = std::move(matcher);
  matches_ = std::move(matches);
  state_.search = search_ && search_->any() ? search_.get() : nullptr;
  state_.matches = matches_.get();
  update();
}

void TimelineWidget::setTheme(Theme theme) {
  state_.theme = theme;
  update();
}

std::optional<TimelineWidget::RowAt> TimelineWidget::sliceRowAt(QPoint pos) const {
  if (!doc_) return std::nullopt;
  const TimelineGeometry g(eventAreaSize());
  if (!g.events.contains(pos)) return std::nullopt;
  const int cy = pos.y() - g.events.top() + state_.scrollY;
  const int k = layout_.entryAt(cy);
  if (k < 0) return std::nullopt;
  const LayoutEntry& e = layout_.entries[static_cast<size_t>(k)];
  if (e.kind != LayoutEntry::Kind::Slices) return std::nullopt;
  const int inner = cy - e.y - state_.metrics.trackPadding;
  if (inner < 0) return std::nullopt;
  const uint32_t row = static_cast<uint32_t>(inner / state_.metrics.rowHeight);
  const TrackRows& rows = doc_->rows.track(e.index);
  if (row >= rows.rowCount || row >= e.rows) return std::nullopt;
  return RowAt{e.index, rows.row(row), rows.hasOverflowRow && row + 1 == rows.rowCount,
               static_cast<double>(pos.x() - g.events.left()), static_cast<double>(g.events.width())};
}

std::optional<EventRef> TimelineWidget::eventAt(QPoint pos) const {
  const auto at = sliceRowAt(pos);
  if (!at) return std::nullopt;
  const SliceColumns& cols = doc_->trace->slices(at->track);
  // Over a folded block the click takes what the tooltip names (the run's longest), not
  // whichever of its slivers lies nearest the pointer.
  if (const auto item = drawItemAt(cols, at->row, state_.view, at->width, kFoldPx, at->mayOverlap, at->x);
      item && item->folded())
    return EventRef{at->track, longestInItem(cols, at->row, *item)};
  const auto hit = hitTest(cols, at->row, state_.view, at->x, 2.0, at->mayOverlap);
  if (!hit) return std::nullopt;
  return EventRef{at->track, *hit};
}

QString TimelineWidget::trackTipAt(QPoint pos) const {
  if (!doc_) return {};
  const TimelineGeometry g(eventAreaSize());
  if (!g.gutter.contains(pos)) return {};
  const int k = layout_.entryAt(pos.y() - g.events.top() + state_.scrollY);
  if (k < 0) return {};
  const LayoutEntry& e = layout_.entries[static_cast<size_t>(k)];
  if (e.kind != LayoutEntry::Kind::Slices) return {};
  const Trace& t = *doc_->trace;
  const Track& track = t.tracks[e.index];
  QString tip = QStringLiteral("<b>%1</b><br>%L2 events")
                    .arg(qstr(t.trackLabel(e.index)).toHtmlEscaped())
                    .arg(track.slices.size());
  if (track.queueNumber != kNoId)
    tip += QStringLiteral("<br>queue handle 0x%1").arg(static_cast<qulonglong>(track.stream), 0, 16);
  else if (track.stream != kNoId) tip += QStringLiteral("<br>stream id %1").arg(track.stream);
  if (e.hiddenRows > 0) tip += QStringLiteral("<br>%1 deeper rows folded: click to show").arg(e.hiddenRows);
  return tip;
}

QString TimelineWidget::foldedTipAt(QPoint pos) const {
  const auto at = sliceRowAt(pos);
  if (!at) return {};
  const SliceColumns& cols = doc_->trace->slices(at->track);
  const auto row = at->row;
  const auto item = drawItemAt(cols, row, state_.view, at->width, kFoldPx, at->mayOverlap, at->x);
  if (!item || !item->folded()) return {};
  const DominantName dom = dominantName(cols, row, *item);
  const TimeNs from = cols.start[row[item->first]];
  const TimeNs to = cols.end(row[item->first + item->count - 1]);
  return QStringLiteral(
             "<b>%L1 events folded</b> (zoom in to see them)<br>mostly <b>%2</b> (%3 % of their time)"
             "<br>from %4 to %5<br>%6<br>a click selects the longest: %7")
      .arg(item->count)
      .arg(qstr(doc_->trace->str(dom.name)).toHtmlEscaped())
      .arg(std::lround(dom.share * 100))
      .arg(qstr(formatDuration(from - doc_->trace->minTs)), qstr(formatDuration(to - doc_->trace->minTs)),
           qstr(doc_->trace->trackLabel(at->track)).toHtmlEscaped(),
           qstr(doc_->trace->str(cols.name[longestInItem(cols, row, *item)])).toHtmlEscaped());
}

std::optional<uint32_t> TimelineWidget::instantAt(QPoint pos) const {
  if (!doc_) return std::nullopt;
  const TimelineGeometry g(eventAreaSize());
  if (!g.events.contains(pos) && !g.ruler.contains(pos)) return std::nullopt;
  const Trace& t = *doc_->trace;
  const auto& order = doc_->instantsByTime;
  const double x = pos.x() - g.events.left();
  const TimeNs lo = state_.view.toTime(x - 3), hi = state_.view.toTime(x + 3);
  auto it =
      std::lower_bound(order.begin(), order.end(), lo, [&](uint32_t i, TimeNs v) { return t.instants[i].ts < v; });
  const int k = layout_.entryAt(pos.y() - g.events.top() + state_.scrollY);
  for (; it != order.end() && t.instants[*it].ts <= hi; ++it) {
    const Instant& in = t.instants[*it];
    if (in.scope != InstantScope::Thread) return *it;
    if (k >= 0 && layout_.entryOfTrack(in.track) == k) return *it;
  }
  return std::nullopt;
}

std::optional<QPoint> TimelineWidget::positionOf(EventRef ref) const {
  if (!doc_) return std::nullopt;
  const int k = layout_.entryOfTrack(ref.track);
  if (k < 0) return std::nullopt;
  const TimelineGeometry g(eventAreaSize());
  const Trace& t = *doc_->trace;
  const LayoutEntry& e = layout_.entries[static_cast<size_t>(k)];
  const uint32_t row = RowIndex::rowOf(t.tracks[ref.track], doc_->rows.track(ref.track), ref.index);
  const double x0 = std::max(0.0, state_.view.toPx(t.start(ref)));
  const double x1 = std::min<double>(g.events.width(), state_.view.toPx(t.end(ref)));
  const int y = g.events.top() + rowY(e, state_.metrics, row) - state_.scrollY + state_.metrics.rowHeight / 2;
  return QPoint(g.events.left() + static_cast<int>((x0 + x1) / 2), y);
}

std::optional<QRect> TimelineWidget::eventRect(EventRef ref) const {
  if (!doc_) return std::nullopt;
  const int k = layout_.entryOfTrack(ref.track);
  if (k < 0) return std::nullopt;
  const TimelineGeometry g(eventAreaSize());
  const Trace& t = *doc_->trace;
  const LayoutEntry& e = layout_.entries[static_cast<size_t>(k)];
  const uint32_t row = RowIndex::rowOf(t.tracks[ref.track], doc_->rows.track(ref.track), ref.index);
  const double x0 = state_.view.toPx(t.start(ref)), x1 = state_.view.toPx(t.end(ref));
  const int y = g.events.top() + rowY(e, state_.metrics, row) - state_.scrollY;
  const int left = g.events.left() + static_cast<int>(std::floor(x0));
  return QRect(left, y, std::max(1, static_cast<int>(std::ceil(x1)) + g.events.left() - left),
               state_.metrics.rowHeight);
}

RenderStats TimelineWidget::render(QPainter& painter, QSize size) {
  RenderState s = state_;
  s.layout = &layout_;
  return renderer_.paint(painter, size, s);
}

QSize TimelineWidget::wholeListSize() const {
  const TimelineGeometry g(eventAreaSize());
  return QSize(eventAreaSize().width(), g.events.top() + layout_.height);
}

RenderStats TimelineWidget::renderWholeList(QPainter& painter) {
  RenderState s = state_;
  s.layout = &layout_;
  s.scrollY = 0;
  return renderer_.paint(painter, wholeListSize(), s);
}

void TimelineWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  state_.layout = &layout_;
  renderer_.paint(p, eventAreaSize(), state_);
  // Corner above the scroll bar.
  const TimelineGeometry g(eventAreaSize());
  p.fillRect(
      QRect(width() - kScrollBarWidth, 0, kScrollBarWidth, g.events.top()),
      QColor(paletteFor(state_.theme).ruler.r, paletteFor(state_.theme).ruler.g, paletteFor(state_.theme).ruler.b));
  if (!doc_) {
    p.setPen(palette().color(QPalette::Text));
    p.drawText(
        rect(), Qt::AlignCenter,
        QStringLiteral("Open a trace: File \u25B8 Open, drag and drop a file here, or pass it on the command line"));
  }
}

void TimelineWidget::resizeEvent(QResizeEvent* e) {
  if (doc_) {
    // The same time range stays in view (a dock opening beside the timeline compresses
    // it rather than cutting off its end): what was selected or looked at stays on screen.
    const int oldWidth =
        TimelineGeometry(QSize(std::max(1, e->oldSize().width() - kScrollBarWidth), std::max(1, e->oldSize().height())))
            .events.width();
    const int newWidth = TimelineGeometry(eventAreaSize()).events.width();
    if (e->oldSize().isValid() && oldWidth > 0 && newWidth > 0 && oldWidth != newWidth)
      state_.view.nsPerPx = std::max(kMinNsPerPx, state_.view.nsPerPx * oldWidth / newWidth);
    clampState();
    // Linked timelines share one column and resize together, each keeping its range: a
    // resize is not published (B's view, clamped to its shorter trace, would move A's).
    if (link_) update();
    else emit viewChanged();
  }
  updateScrollBar();
}

}  // namespace opscope::ui
