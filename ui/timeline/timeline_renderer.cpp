#include "timeline/timeline_renderer.h"

#include "analysis/memory_timeline.h"

#include "timeline/names.h"

#include <QFontMetricsF>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace opscope::ui {

namespace {

QColor qcolor(Rgb c) { return QColor(c.r, c.g, c.b); }

QString qstr(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

constexpr double kLabelMinPx = 26.0;  // narrower items get no text

}  // namespace

QString counterValueText(double value, bool mebibytes) {
  if (mebibytes && value > 0 && value < 0.1) {
    const double bytes = value * 1024 * 1024;
    return bytes < 1024 ? QStringLiteral("%1 B").arg(bytes, 0, 'f', 0)
                        : QStringLiteral("%1 KiB").arg(bytes / 1024, 0, 'f', 1);
  }
  return QString::number(value, 'g', 4);
}

TimelineGeometry::TimelineGeometry(QSize size) {
  const int w = size.width(), h = size.height();
  overview = QRect(0, 0, w, kOverviewHeight);
  ruler = QRect(0, kOverviewHeight, w, kRulerHeight);
  const int top = kOverviewHeight + kRulerHeight;
  gutter = QRect(0, top, std::min(kGutterWidth, w / 3), std::max(0, h - top));
  events = QRect(gutter.right() + 1, top, std::max(1, w - gutter.width()), std::max(0, h - top));
}

void TimelineRenderer::resetCaches(const RenderState& s) {
  if (cachedDoc_ == s.doc && cachedTheme_ == s.theme) return;
  cachedDoc_ = s.doc;
  cachedTheme_ = s.theme;
  const size_t n = s.doc ? s.doc->trace->strings.size() : 0;
  colors_.assign(n, QColor());
  colorReady_.assign(n, 0);
  textWidths_.assign(n, -1.f);
  labels_.assign(n, QString());
  labelReady_.assign(n, 0);
  counterRanges_.clear();
}

QColor TimelineRenderer::colorOf(const Trace& trace, StringId name, Theme theme) {
  if (name >= colors_.size()) return qcolor(colorForName(trace.str(name), theme));
  if (!colorReady_[name]) {
    colors_[name] = qcolor(colorForName(trace.str(name), theme));
    colorReady_[name] = 1;
  }
  return colors_[name];
}

const QString& TimelineRenderer::labelOf(const Trace& trace, StringId name) {
  if (name >= labels_.size()) {
    scratchLabel_ = displayName(trace.str(name));
    return scratchLabel_;
  }
  if (!labelReady_[name]) {
    labels_[name] = displayName(trace.str(name));
    labelReady_[name] = 1;
  }
  return labels_[name];
}

float TimelineRenderer::textWidth(const QFontMetricsF& fm, const Trace& trace, StringId name) {
  if (name < textWidths_.size() && textWidths_[name] >= 0) return textWidths_[name];
  const float w = static_cast<float>(fm.horizontalAdvance(labelOf(trace, name)));
  if (name < textWidths_.size()) textWidths_[name] = w;
  return w;
}

RenderStats TimelineRenderer::paint(QPainter& p, QSize size, const RenderState& s) {
  RenderStats stats;
  resetCaches(s);
  const Palette& pal = paletteFor(s.theme);
  const TimelineGeometry g(size);
  p.fillRect(QRect(QPoint(0, 0), size), qcolor(pal.background));
  font_ = p.font();
  font_.setPixelSize(11);
  p.setFont(font_);
  if (!s.doc || !s.layout) return stats;
  paintTracks(p, g, s, stats);
  paintInstants(p, g, s);
  paintMatchMarks(p, g, s);
  paintArrows(p, g, s);
  paintLinkedMark(p, g, s);
  paintRuler(p, g, s);
  paintOverview(p, g, s);
  return stats;
}

void TimelineRenderer::paintOverview(QPainter& p, const TimelineGeometry& g, const RenderState& s) {
  const Palette& pal = paletteFor(s.theme);
  const OverviewDensity& d = s.doc->overview;
  p.fillRect(g.overview, qcolor(pal.ruler));
  p.setPen(qcolor(pal.rulerText));
  const QRect label(g.overview.left() + 8, g.overview.top(), g.gutter.width() - 16, g.overview.height());
  p.drawText(label, Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("Overview  (CPU top, GPU bottom)"));
  const QRect area(g.events.left(), g.overview.top() + 3, g.events.width(), g.overview.height() - 6);
  if (d.bins() == 0 || area.width() <= 0) return;
  const double half = area.height() / 2.0;
  const double binsPerPx = static_cast<double>(d.bins()) / area.width();
  QColor cpuColor = qcolor(pal.counterFill), gpuColor = qcolor(pal.searchHit);
  for (int x = 0; x < area.width(); ++x) {
    const size_t b0 = static_cast<size_t>(x * binsPerPx);
    const size_t b1 = std::max(b0 + 1, static_cast<size_t>((x + 1) * binsPerPx));
    float c = 0, gv = 0;
    for (size_t b = b0; b < std::min(b1, d.bins()); ++b) {
      c = std::max(c, d.cpu[b]);
      gv = std::max(gv, d.gpu[b]);
    }
    const double ch = c * (half - 1), gh = gv * (half - 1);
    if (ch > 0.2) p.fillRect(QRectF(area.left() + x, area.top() + half - ch, 1, ch), cpuColor);
    if (gh > 0.2) p.fillRect(QRectF(area.left() + x, area.top() + half, 1, gh), gpuColor);
  }
  // Iteration boundaries.
  const double pxPerNs = area.width() / static_cast<double>(std::max<TimeNs>(1, d.end - d.start));
  p.setPen(QPen(qcolor(pal.gridLine).darker(130), 1));
  for (const Iteration& it : s.doc->trace->iterations) {
    const double x = area.left() + (it.start - d.start) * pxPerNs;
    p.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
  }
  // The part of the trace on screen.
  const double vx0 = area.left() + (s.view.start - d.start) * pxPerNs;
  const double vx1 = area.left() + (s.view.endAt(g.events.width()) - d.start) * pxPerNs;
  QColor frame = qcolor(pal.selection);
  QColor fill = frame;
  fill.setAlpha(40);
  const QRectF viewport(std::clamp(vx0, double(area.left()), double(area.right())), g.overview.top() + 1,
                        std::max(2.0, std::min(vx1, double(area.right())) - std::max(vx0, double(area.left()))),
                        g.overview.height() - 2);
  p.fillRect(viewport, fill);
  p.setPen(QPen(frame, 1));
  p.drawRect(viewport);
}

void TimelineRenderer::paintRuler(QPainter& p, const TimelineGeometry& g, const RenderState& s) {
  const Palette& pal = paletteFor(s.theme);
  p.fillRect(g.ruler, qcolor(pal.ruler));
  p.setPen(qcolor(pal.gridLine));
  p.drawLine(g.ruler.bottomLeft(), g.ruler.bottomRight());
  const Ruler r = rulerTicks(s.view, g.events.width(), s.doc->trace->minTs);
  p.setPen(qcolor(pal.rulerText));
  p.drawText(QRect(g.ruler.left() + 8, g.ruler.top(), g.gutter.width() - 16, g.ruler.height()),
             Qt::AlignLeft | Qt::AlignVCenter,
             QStringLiteral("time since start · grid ") + qstr(formatDuration(r.step)));
  p.save();
  p.setClipRect(QRect(g.events.left(), g.ruler.top(), g.events.width(), g.ruler.height()));
  const QFontMetricsF fm(font_);
  // The area selection's length sits on its own chip over the ruler; tick labels that
  // would run into it are left out, so the two never overprint.
  QRectF areaLabel;
  QString areaText;
  if (s.area) {
    areaText = qstr(formatDuration(s.area->end - s.area->start));
    const double x0 = g.events.left() + s.view.toPx(s.area->start);
    const double x1 = g.events.left() + s.view.toPx(s.area->end);
    const double w = fm.horizontalAdvance(areaText) + 12;
    const double cx = std::clamp((x0 + x1) / 2, g.events.left() + w / 2, g.events.right() - w / 2);
    areaLabel = QRectF(cx - w / 2, g.ruler.top() + 2, w, g.ruler.height() - 4);
    QColor c = qcolor(pal.areaFill);
    c.setAlpha(90);
    p.fillRect(QRectF(x0, g.ruler.top(), std::max(1.0, x1 - x0), g.ruler.height()), c);
  }
  for (const Tick& t : r.ticks) {
    const double x = g.events.left() + t.x;
    p.setPen(qcolor(pal.rulerText));
    p.drawLine(QPointF(x, g.ruler.bottom() - 6), QPointF(x, g.ruler.bottom()));
    const QString label = qstr(t.label);
    // A label that would be cut by the right edge is left out rather than clipped.
    const QRectF box(x + 3, g.ruler.top(), fm.horizontalAdvance(label), g.ruler.height() - 2);
    if (box.right() > g.events.right()) continue;
    if (!areaLabel.isNull() && box.adjusted(-8, 0, 8, 0).intersects(areaLabel)) continue;
    p.drawText(QRectF(x + 3, g.ruler.top(), 200, g.ruler.height() - 2), Qt::AlignLeft | Qt::AlignVCenter, label);
  }
  if (!areaLabel.isNull()) {
    p.setPen(qcolor(pal.gridLine));
    p.setBrush(qcolor(pal.ruler));
    p.drawRoundedRect(areaLabel, 3, 3);
    p.setBrush(Qt::NoBrush);
    p.setPen(qcolor(pal.headerText));
    p.drawText(areaLabel, Qt::AlignCenter, areaText);
  }
  p.restore();
}

void TimelineRenderer::paintTracks(QPainter& p, const TimelineGeometry& g, const RenderState& s, RenderStats& stats) {
  const Palette& pal = paletteFor(s.theme);
  const TimelineLayout& layout = *s.layout;
  p.save();
  p.setClipRect(g.gutter.united(g.events));
  p.fillRect(g.gutter, qcolor(pal.gutter));
  // Vertical grid lines of the ruler's ticks.
  const Ruler r = rulerTicks(s.view, g.events.width(), s.doc->trace->minTs);
  p.setPen(qcolor(pal.gridLine));
  for (const Tick& t : r.ticks)
    p.drawLine(QPointF(g.events.left() + t.x, g.events.top()), QPointF(g.events.left() + t.x, g.events.bottom()));

  int k = std::max(0, layout.entryAt(s.scrollY));
  if (layout.entryAt(s.scrollY) < 0) {
    // scrollY fell in no entry (past the end): start from the first entry below it.
    k = 0;
    while (k < static_cast<int>(layout.entries.size()) && layout.entries[k].bottom() <= s.scrollY) ++k;
  }
  QFontMetricsF fm(font_);
  for (; k < static_cast<int>(layout.entries.size()); ++k) {
    const LayoutEntry& e = layout.entries[k];
    const int y0 = g.events.top() + e.y - s.scrollY;
    if (y0 > g.events.bottom()) break;
    switch (e.kind) {
      case LayoutEntry::Kind::RankHeader:
      case LayoutEntry::Kind::ProcessHeader: {
        const bool rank = e.kind == LayoutEntry::Kind::RankHeader;
        const QRect band(g.gutter.left(), y0, g.gutter.width() + g.events.width(), e.height);
        p.fillRect(band, qcolor(rank ? pal.rankHeaderBackground : pal.headerBackground));
        p.setPen(qcolor(rank ? pal.rankHeaderText : pal.headerText));
        QFont bold = font_;
        bold.setBold(true);
        p.setFont(bold);
        const QString arrow = e.folded ? QStringLiteral("\u25B8 ") : QStringLiteral("\u25BE ");
        // A process inside a rank's group is indented under the rank's header.
        const int indent = !rank && e.rank != kNoId ? 20 : 8;
        const QRect text = band.adjusted(indent, 0, -8, 0);
        p.drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
                   QFontMetrics(bold).elidedText(arrow + qstr(e.label), Qt::ElideRight, text.width()));
        p.setFont(font_);
        break;
      }
      case LayoutEntry::Kind::Slices:
        paintSlices(p, g, s, e, y0, stats);
        break;
      case LayoutEntry::Kind::Counter:
        paintCounter(p, g, s, e, y0);
        break;
    }
    p.setPen(qcolor(pal.gridLine));
    p.drawLine(QPoint(g.gutter.left(), y0 + e.height - 1), QPoint(g.events.right(), y0 + e.height - 1));
  }
  p.setPen(qcolor(pal.gridLine));
  p.drawLine(QPoint(g.gutter.right(), g.events.top()), QPoint(g.gutter.right(), g.events.bottom()));
  p.restore();
}

void TimelineRenderer::paintSlices(QPainter& p, const TimelineGeometry& g, const RenderState& s, const LayoutEntry& e,
                                   int y0, RenderStats& stats) {
  const Palette& pal = paletteFor(s.theme);
  const Trace& trace = *s.doc->trace;
  const Track& track = trace.tracks[e.index];
  const TrackRows& rows = s.doc->rows.track(e.index);
  const SliceColumns& cols = track.slices;
  const LayoutMetrics& m = s.metrics;

  // Gutter label, elided to the gutter.
  QFontMetricsF fm(font_);
  p.setPen(qcolor(pal.trackText));
  const QRectF labelRect(g.gutter.left() + 18, y0 + m.trackPadding, g.gutter.width() - 24, m.rowHeight);
  p.drawText(labelRect, Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(qstr(e.label), Qt::ElideRight, labelRect.width()));
  if (e.hiddenRows > 0 && e.rows > 1) {
    // A collapsed thread: how much is folded away, and that a click unfolds it.
    QColor dim = qcolor(pal.trackText);
    dim.setAlpha(150);
    p.setPen(dim);
    p.drawText(QRectF(labelRect.left(), rowY(e, m, e.rows - 1) - e.y + y0, labelRect.width(), m.rowHeight),
               Qt::AlignLeft | Qt::AlignVCenter,
               QStringLiteral("\u25B8 %1 more row%2 (click)").arg(e.hiddenRows).arg(e.hiddenRows == 1 ? "" : "s"));
  } else if (track.crossovers > 0 && e.rows > 1) {
    QColor dim = qcolor(pal.trackText);
    dim.setAlpha(150);
    p.setPen(dim);
    p.drawText(QRectF(labelRect.left(), rowY(e, m, rows.rowCount - 1) - e.y + y0, labelRect.width(), m.rowHeight),
               Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("overlapping (%1)").arg(track.crossovers));
  }

  p.save();
  p.setClipRect(g.events);
  const double left = g.events.left();
  const int top = g.events.top(), bottom = g.events.bottom();
  const QColor foldedColor = qcolor(pal.folded);
  const QColor selectionColor = qcolor(pal.selection);
  const QColor hitColor = qcolor(pal.searchHit);
  for (uint32_t r = 0; r < e.rows && r < rows.rowCount; ++r) {
    const int ry = rowY(e, m, r) - e.y + y0;
    if (ry + m.rowHeight < top || ry > bottom) continue;
    const bool mayOverlap = rows.hasOverflowRow && r + 1 == rows.rowCount;
    const auto row = rows.row(r);
    scratch_.clear();
    foldRow(cols, row, s.view, g.events.width(), kFoldPx, mayOverlap, scratch_);
    for (const DrawItem& it : scratch_) {
      const uint32_t i = row[it.first];
      const QRectF rect(left + it.x0, ry + 1, std::max(1.0, it.x1 - it.x0), m.rowHeight - 2);
      ++stats.drawnItems;
      if (it.folded()) {
        ++stats.foldedItems;
        // A folded block keeps the colour of the name it is mostly made of, washed
        // towards the folded grey so it never passes for a single slice.
        const DominantName dom = dominantName(cols, row, it);
        const QColor domColor = colorOf(trace, dom.name, s.theme);
        const double mix = 0.35 + 0.4 * dom.share;  // more of its colour the more it dominates
        const QColor fill = QColor::fromRgbF(float(domColor.redF() * mix + foldedColor.redF() * (1 - mix)),
                                             float(domColor.greenF() * mix + foldedColor.greenF() * (1 - mix)),
                                             float(domColor.blueF() * mix + foldedColor.blueF() * (1 - mix)));
        p.fillRect(rect, fill);
        if (rect.width() > 70) {
          const double x0 = std::max(rect.left(), left) + 3;
          const double avail = rect.right() - x0 - 3;
          p.setPen(qcolor(textColorOn({uint8_t(fill.red()), uint8_t(fill.green()), uint8_t(fill.blue())})));
          const QString count = QStringLiteral("%L1 events").arg(it.count);
          const QString withName = count + QStringLiteral(" · mostly ") + labelOf(trace, dom.name);
          const QString text = dom.share >= 0.5 && fm.horizontalAdvance(withName) <= avail ? withName : count;
          p.drawText(QRectF(x0, rect.top(), avail, rect.height()), Qt::AlignLeft | Qt::AlignVCenter,
                     fm.elidedText(text, Qt::ElideRight, avail));
        }
        continue;
      }
      const StringId name = cols.name[i];
      const QColor fill = colorOf(trace, name, s.theme);
      p.fillRect(rect, fill);
      const EventRef ref{e.index, i};
      if (s.search && (*s.search)(name)) {
        p.setPen(QPen(hitColor, 2));
        p.drawRect(rect.adjusted(1, 1, -1, -1));
      }
      if (s.selected && *s.selected == ref) {
        p.setPen(QPen(selectionColor, 2));
        p.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5));
      } else if (s.hovered && *s.hovered == ref) {
        p.setPen(QPen(fill.darker(160), 1));
        p.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5));
      }
      if (rect.width() >= kLabelMinPx) {
        // Text starts at the visible part of the slice, so a long op scrolled half
        // off screen still shows its name.
        const double x0 = std::max(rect.left(), left) + 3;
        const double avail = rect.right() - x0 - 3;
        if (avail < 8) continue;
        const QColor text = fill.lightnessF() > 0.5 ? Qt::black : Qt::white;
        p.setPen(text);
        const QRectF tr(x0, rect.top(), avail, rect.height());
        // The name as every view shows it (names.h); the tooltip and Details have the full one.
        if (textWidth(fm, trace, name) <= avail) {
          p.drawText(tr, Qt::AlignLeft | Qt::AlignVCenter, labelOf(trace, name));
        } else {
          p.drawText(tr, Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(labelOf(trace, name), Qt::ElideRight, avail));
        }
        ++stats.labels;
      }
    }
  }
  // Area selection: the tracks inside it are shaded over the range.
  if (s.area && std::find(s.areaTracks.begin(), s.areaTracks.end(), e.index) != s.areaTracks.end()) {
    QColor c = qcolor(pal.areaFill);
    c.setAlpha(45);
    const double x0 = left + s.view.toPx(s.area->start), x1 = left + s.view.toPx(s.area->end);
    p.fillRect(QRectF(x0, y0, std::max(1.0, x1 - x0), e.height), c);
  }
  p.restore();
}

void TimelineRenderer::paintCounter(QPainter& p, const TimelineGeometry& g, const RenderState& s, const LayoutEntry& e,
                                    int y0) {
  const Palette& pal = paletteFor(s.theme);
  const CounterSeries& c = s.doc->trace->counters[e.index];
  if (counterRanges_.size() != s.doc->trace->counters.size()) counterRanges_.assign(s.doc->trace->counters.size(), {});
  CounterRange& range = counterRanges_[e.index];
  if (range.lo > range.hi) {
    range = CounterRange{};
    range.lo = range.hi = 0;  // the drawn range always includes 0
    for (size_t i = 0; i < c.value.size() && i < c.ts.size(); ++i) {
      const double v = c.value[i];
      if (!std::isfinite(v)) continue;
      range.lo = std::min(range.lo, v);
      range.hi = std::max(range.hi, v);
      if (v > range.peak) range.peak = v, range.peakTs = c.ts[i];
    }
    range.max = range.hi >= range.lo ? range.hi : 0;
    if (range.hi <= range.lo) range.hi = range.lo + 1;
  }
  const bool memory = isMemoryCounterName(s.doc->trace->str(c.name));
  QFontMetricsF fm(font_);
  p.setPen(qcolor(pal.trackText));
  const QRectF labelRect(g.gutter.left() + 18, y0 + 2, g.gutter.width() - 24, 14);
  p.drawText(labelRect, Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(qstr(e.label), Qt::ElideRight, labelRect.width()));
  p.drawText(QRectF(labelRect.left(), y0 + 16, labelRect.width(), 14), Qt::AlignLeft | Qt::AlignVCenter,
             QStringLiteral("max %1").arg(counterValueText(range.max, memory)));

  p.save();
  p.setClipRect(g.events);
  const double h = e.height - 6, base = y0 + e.height - 3;
  const double scale = h / (range.hi - range.lo);
  const int w = g.events.width();
  QPolygonF poly;
  poly.reserve(w + 3);
  poly << QPointF(g.events.left(), base);
  // Per pixel column the largest value in it (or the value holding at its left edge).
  for (int x = 0; x <= w; x += 1) {
    const TimeNs a = s.view.toTime(x), b = s.view.toTime(x + 1);
    auto lo = std::upper_bound(c.ts.begin(), c.ts.end(), a);
    double v;
    if (lo == c.ts.begin()) v = range.lo < 0 ? 0 : range.lo;
    else v = c.value[static_cast<size_t>(lo - c.ts.begin()) - 1];
    auto hi = std::lower_bound(lo, c.ts.end(), b);
    for (auto it = lo; it != hi && it - lo < 32; ++it) v = std::max(v, c.value[static_cast<size_t>(it - c.ts.begin())]);
    if (lo == c.ts.end() && a > c.ts.back()) v = c.value.back();
    if (!std::isfinite(v)) v = 0;
    poly << QPointF(g.events.left() + x, base - (v - range.lo) * scale);
  }
  poly << QPointF(g.events.left() + w, base);
  QColor fill = qcolor(pal.counterFill);
  fill.setAlpha(150);
  p.setPen(QPen(qcolor(pal.counterFill), 1));
  p.setBrush(fill);
  p.drawPolygon(poly);
  p.setBrush(Qt::NoBrush);
  // A memory track's peak (the first time it reaches its maximum): a dashed line through
  // the track, a notch on top and its value beside it, on whichever side has room. Other
  // counters (utilisation reaches 100 % again and again) show their max in the gutter only.
  if (range.peak > 0 && memory) {
    const double x = g.events.left() + s.view.toPx(range.peakTs);
    if (x >= g.events.left() - 4 && x <= g.events.right() + 4) {
      const QColor mark = qcolor(pal.arrow);
      p.setPen(QPen(mark, 1, Qt::DashLine));
      p.drawLine(QPointF(x, y0 + 2), QPointF(x, base));
      p.setPen(Qt::NoPen);
      p.setBrush(mark);
      p.drawPolygon(QPolygonF({QPointF(x - 4, y0 + 1), QPointF(x + 4, y0 + 1), QPointF(x, y0 + 6)}));
      p.setBrush(Qt::NoBrush);
      const QString text = QStringLiteral("peak %1").arg(counterValueText(range.peak, true));
      const double tw = fm.horizontalAdvance(text) + 6;
      const QRectF box(x + 6 + tw <= g.events.right() ? x + 6 : x - 6 - tw, y0 + 2, tw, fm.height());
      QColor under = qcolor(pal.background);
      under.setAlpha(210);
      p.fillRect(box, under);
      p.setPen(mark);
      p.drawText(box, Qt::AlignCenter, text);
    }
  }
  p.restore();
}

std::optional<QPointF> TimelineRenderer::anchorOf(const TimelineGeometry& g, const RenderState& s, EventRef r,
                                                  bool atStart) const {
  const int k = s.layout->entryOfTrack(r.track);
  if (k < 0) return std::nullopt;
  const LayoutEntry& e = s.layout->entries[static_cast<size_t>(k)];
  const Trace& trace = *s.doc->trace;
  const uint32_t row = RowIndex::rowOf(trace.tracks[r.track], s.doc->rows.track(r.track), r.index);
  const double y = g.events.top() + rowY(e, s.metrics, row) - s.scrollY + s.metrics.rowHeight / 2.0;
  const double x = g.events.left() + s.view.toPx(atStart ? trace.start(r) : trace.end(r));
  return QPointF(x, y);
}

void TimelineRenderer::paintInstants(QPainter& p, const TimelineGeometry& g, const RenderState& s) {
  const Trace& trace = *s.doc->trace;
  const auto& order = s.doc->instantsByTime;
  if (order.empty()) return;
  const Palette& pal = paletteFor(s.theme);
  const TimeNs t0 = s.view.toTime(0), t1 = s.view.toTime(g.events.width());
  auto it =
      std::lower_bound(order.begin(), order.end(), t0, [&](uint32_t i, TimeNs t) { return trace.instants[i].ts < t; });
  p.save();
  p.setClipRect(g.events);
  QColor line = qcolor(pal.arrow);
  line.setAlpha(150);
  p.setPen(QPen(line, 1, Qt::DashLine));
  p.setBrush(qcolor(pal.arrow));
  double lastX = -10;
  for (; it != order.end() && trace.instants[*it].ts <= t1; ++it) {
    const Instant& in = trace.instants[*it];
    const double x = g.events.left() + s.view.toPx(in.ts);
    // Instants closer than 2 px draw once: a frame stays bounded by the width.
    if (x - lastX < 2) {
      auto next = std::lower_bound(it, order.end(), s.view.toTime(x - g.events.left() + 2),
                                   [&](uint32_t i, TimeNs t) { return trace.instants[i].ts < t; });
      if (next != it) it = next - 1;
      continue;
    }
    lastX = x;
    int top = g.events.top(), bottom = g.events.bottom();
    if (in.scope == InstantScope::Thread) {
      const int k = s.layout->entryOfTrack(in.track);
      if (k < 0) continue;
      const LayoutEntry& e = s.layout->entries[static_cast<size_t>(k)];
      top = g.events.top() + e.y - s.scrollY;
      QPolygonF tri;
      tri << QPointF(x - 4, top) << QPointF(x + 4, top) << QPointF(x, top + 7);
      p.setPen(Qt::NoPen);
      p.drawPolygon(tri);
      p.setPen(QPen(line, 1, Qt::DashLine));
      continue;
    }
    if (in.scope == InstantScope::Process && in.process < s.layout->processEntries.size()) {
      const int k = s.layout->processEntries[in.process];
      if (k < 0) continue;
      top = g.events.top() + s.layout->entries[static_cast<size_t>(k)].y - s.scrollY;
      bottom = g.events.top() + s.layout->processBottom[in.process] - s.scrollY;
    }
    p.drawLine(QPointF(x, top), QPointF(x, bottom));
  }
  p.restore();
  // Global instants also get a flag in the ruler, named when there is room.
  p.save();
  p.setClipRect(QRect(g.events.left(), g.ruler.top(), g.events.width(), g.ruler.height()));
  QFontMetricsF fm(font_);
  lastX = -1e9;
  for (auto k = std::lower_bound(order.begin(), order.end(), t0,
                                 [&](uint32_t i, TimeNs t) { return trace.instants[i].ts < t; });
       k != order.end() && trace.instants[*k].ts <= t1; ++k) {
    const Instant& in = trace.instants[*k];
    if (in.scope != InstantScope::Global) continue;
    const double x = g.events.left() + s.view.toPx(in.ts);
    if (x - lastX < 8) continue;
    QPolygonF flag;
    flag << QPointF(x, g.ruler.bottom()) << QPointF(x, g.ruler.top() + 3) << QPointF(x + 7, g.ruler.top() + 6)
         << QPointF(x, g.ruler.top() + 9);
    p.setPen(qcolor(pal.arrow));
    p.setBrush(qcolor(pal.arrow));
    p.drawPolygon(flag);
    lastX = x;
  }
  p.restore();
}

void TimelineRenderer::paintMatchMarks(QPainter& p, const TimelineGeometry& g, const RenderState& s) {
  // Slices inside a folded block are not outlined, so every match in view also gets a
  // tick under its row. Bounded per frame; ticks closer than 1 px on a track merge.
  // Matches come from the search box or from an analysis that marked events.
  if (!s.matches || s.matches->empty()) return;
  constexpr size_t kMaxMarks = 20000;
  const Trace& trace = *s.doc->trace;
  const auto& m = *s.matches;
  const TimeNs t0 = s.view.toTime(0), t1 = s.view.toTime(g.events.width());
  // Matches are sorted by start; one that started before t0 may still be running, but
  // an outline already shows it (it is at least as wide as the part in view).
  auto it = std::lower_bound(m.begin(), m.end(), t0, [&](EventRef r, TimeNs t) { return trace.start(r) < t; });
  lastMarkX_.assign(trace.tracks.size(), -10.0);
  p.save();
  p.setClipRect(g.events);
  const QColor c = qcolor(paletteFor(s.theme).searchHit);
  for (size_t n = 0; it != m.end() && trace.start(*it) <= t1 && n < kMaxMarks; ++it, ++n) {
    const EventRef r = *it;
    const double x = g.events.left() + s.view.toPx(trace.start(r));
    if (x - lastMarkX_[r.track] < 1) continue;
    const int k = s.layout->entryOfTrack(r.track);
    if (k < 0) continue;
    lastMarkX_[r.track] = x;
    const LayoutEntry& e = s.layout->entries[static_cast<size_t>(k)];
    const uint32_t row = RowIndex::rowOf(trace.tracks[r.track], s.doc->rows.track(r.track), r.index);
    const double y = g.events.top() + rowY(e, s.metrics, row) - s.scrollY + s.metrics.rowHeight - 3;
    p.fillRect(QRectF(x - 1, y, 3, 3), c);
  }
  p.restore();
}

void TimelineRenderer::paintLinkedMark(QPainter& p, const TimelineGeometry& g, const RenderState& s) {
  // A span marked with M (an area without tracks) or selected in a linked timeline:
  // two dashed lines through every track, lightly filled between.
  const std::optional<TimeRange> mark = s.linkedMark                     ? s.linkedMark
                                        : s.area && s.areaTracks.empty() ? s.area
                                                                         : std::nullopt;
  if (!mark) return;
  const Palette& pal = paletteFor(s.theme);
  const double x0 = g.events.left() + s.view.toPx(mark->start);
  const double x1 = std::max(x0 + 1, g.events.left() + s.view.toPx(mark->end));
  p.save();
  p.setClipRect(g.events);
  QColor fill = qcolor(pal.selection);
  fill.setAlpha(40);
  p.fillRect(QRectF(x0, g.events.top(), x1 - x0, g.events.height()), fill);
  p.setPen(QPen(qcolor(pal.selection), 1, Qt::DashLine));
  p.drawLine(QPointF(x0, g.events.top()), QPointF(x0, g.events.bottom()));
  p.drawLine(QPointF(x1, g.events.top()), QPointF(x1, g.events.bottom()));
  p.restore();
}

void TimelineRenderer::paintArrows(QPainter& p, const TimelineGeometry& g, const RenderState& s) {
  if (s.arrows.empty() && s.pathArrows.empty()) return;
  const Palette& pal = paletteFor(s.theme);
  p.save();
  p.setClipRect(g.events);
  p.setRenderHint(QPainter::Antialiasing, true);
  const auto draw = [&](EventRef from, EventRef to, bool fromStart, bool toStart, const QColor& c) {
    const auto a = anchorOf(g, s, from, fromStart);
    const auto b = anchorOf(g, s, to, toStart);
    if (!a || !b) return;
    QPainterPath path(*a);
    const double dy = (b->y() - a->y()) / 2;
    path.cubicTo(QPointF(a->x(), a->y() + dy), QPointF(b->x(), b->y() - dy), *b);
    p.setPen(QPen(c, 1.5));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    // Head pointing down (or up) into the target's start.
    const double dir = b->y() >= a->y() ? -1 : 1;
    QPolygonF head;
    head << *b << QPointF(b->x() - 4, b->y() + dir * 7) << QPointF(b->x() + 4, b->y() + dir * 7);
    p.setBrush(c);
    p.drawPolygon(head);
  };
  // The critical path's edges first, in a warm colour that reads on both themes; the
  // selection's arrows go over them. A whole-trace path has ~10^5 edges: only those
  // overlapping the visible time range are laid out.
  if (!s.pathArrows.empty()) {
    const QColor critical = s.theme == Theme::Dark ? QColor(255, 140, 60) : QColor(214, 72, 0);
    const Trace& trace = *s.doc->trace;
    const TimeNs t0 = s.view.start, t1 = s.view.endAt(g.events.width());
    for (const PathArrow& a : s.pathArrows) {
      const TimeNs ta = a.fromStart ? trace.start(a.from) : trace.end(a.from);
      const TimeNs tb = a.toStart ? trace.start(a.to) : trace.end(a.to);
      if (std::max(ta, tb) < t0 || std::min(ta, tb) > t1) continue;
      draw(a.from, a.to, a.fromStart, a.toStart, critical);
    }
  }
  const QColor c = qcolor(pal.arrow);
  for (const auto& [from, to] : s.arrows) draw(from, to, true, true, c);
  p.restore();
}

}  // namespace opscope::ui
