#include "panels/details_panel.h"

#include "ranks/collective_match.h"

#include <QUrl>
#include <algorithm>
#include <cmath>

#include "et_document.h"
#include "hierarchy/queries.h"
#include "text/json_text.h"
#include "timeline/names.h"
#include "timeline/time_view.h"

namespace opscope::ui {

namespace {

constexpr size_t kListCap = 200;

QString qstr(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
QString esc(std::string_view s) { return qstr(s).toHtmlEscaped(); }

QString link(const Trace& t, EventRef r) {
  return QStringLiteral("<a href=\"event:%1:%2\">%3</a>")
      .arg(r.track)
      .arg(r.index)
      .arg(displayName(t.name(r), 90).toHtmlEscaped());
}

QString durText(TimeNs ns) { return qstr(formatDuration(ns)); }

QString valueText(const nlohmann::ordered_json& j) {
  return j.is_string() ? qstr(j.get<std::string>()) : qstr(opscope::jsonText(j));
}

void row(QString& html, const QString& key, const QString& value);

// The ET node of an op: id, parent and children, inputs and outputs, attributes.
void etNodeHtml(QString& html, const ExecutionTrace& et, const EtNode& n) {
  html += QStringLiteral("<h4>Execution trace node</h4><table>");
  row(html, QStringLiteral("Id"), QString::number(n.id));
  if (const EtNode* p = n.parent >= 0 ? et.node(n.parent) : nullptr)
    row(html, QStringLiteral("Parent"), QStringLiteral("%1 (%2)").arg(p->id).arg(esc(p->name)));
  QStringList children;
  for (const EtNode& c : et.nodes)
    if (c.parent == n.id && c.id != n.id && !c.isGpu) children << QStringLiteral("%1 %2").arg(c.id).arg(esc(c.name));
  if (!children.isEmpty()) row(html, QStringLiteral("Children"), children.mid(0, 20).join(QStringLiteral("<br>")));
  html += QStringLiteral("</table>");
  auto io = [&](const QString& title, const nlohmann::ordered_json& shapes, const nlohmann::ordered_json& types) {
    if (!shapes.is_array() || shapes.empty()) return;
    html += QStringLiteral("<h4>%1</h4><table>").arg(title);
    for (size_t i = 0; i < shapes.size(); ++i) {
      const QString type = types.is_array() && i < types.size() ? valueText(types[i]) : QString();
      row(html, QString::number(i),
          esc(type.toStdString()) + QStringLiteral(" <span style=\"color:gray\">") +
              esc(valueText(shapes[i]).toStdString()) + QStringLiteral("</span>"));
    }
    html += QStringLiteral("</table>");
  };
  io(QStringLiteral("ET inputs"), n.inputShapes(), n.inputTypes());
  io(QStringLiteral("ET outputs"), n.outputShapes(), n.outputTypes());
  const auto attrs = n.attributes();
  if (!attrs.empty()) {
    html += QStringLiteral("<h4>ET attributes</h4><table>");
    for (const auto& [k, v] : attrs) row(html, esc(k), esc(v));
    html += QStringLiteral("</table>");
  }
}

void row(QString& html, const QString& key, const QString& value) {
  html += QStringLiteral("<tr><td style=\"color:gray;padding-right:10px\">%1</td><td>%2</td></tr>").arg(key, value);
}

// A list of events with their duration and track, capped.
void eventList(QString& html, const Trace& t, const QString& title, const std::vector<EventRef>& refs, bool withTrack) {
  if (refs.empty()) return;
  TimeNs total = 0;
  for (EventRef r : refs) total += t.dur(r);
  html += QStringLiteral("<h4>%1 (%2, %3 total)</h4><table>").arg(title).arg(refs.size()).arg(durText(total));
  for (size_t k = 0; k < refs.size() && k < kListCap; ++k) {
    const EventRef r = refs[k];
    QString cell = link(t, r);
    if (withTrack) cell += QStringLiteral(" <span style=\"color:gray\">%1</span>").arg(esc(t.trackLabel(r.track)));
    html += QStringLiteral("<tr><td align=\"right\" style=\"padding-right:8px\">%1</td><td>%2</td></tr>")
                .arg(durText(t.dur(r)), cell);
  }
  if (refs.size() > kListCap)
    html += QStringLiteral("<tr><td></td><td style=\"color:gray\">… and %1 more</td></tr>").arg(refs.size() - kListCap);
  html += QStringLiteral("</table>");
}

void chain(QString& html, const Trace& t, const QString& title, const std::vector<EventRef>& refs) {
  if (refs.empty()) return;
  html += QStringLiteral("<h4>%1</h4>").arg(title);
  QString indent;
  for (EventRef r : refs) {
    html += QStringLiteral("<div>%1%2 <span style=\"color:gray\">%3</span></div>")
                .arg(indent, link(t, r), durText(t.dur(r)));
    indent += QStringLiteral("&nbsp;&nbsp;");
  }
}

}  // namespace

std::optional<EventRef> parseEventLink(const QUrl& url) {
  if (url.scheme() != QLatin1String("event")) return std::nullopt;
  const QStringList parts = url.path().split(':');
  if (parts.size() != 2) return std::nullopt;
  bool a = false, b = false;
  const uint track = parts[0].toUInt(&a), index = parts[1].toUInt(&b);
  if (!a || !b) return std::nullopt;
  return EventRef{track, index};
}

// A collective kernel of a multi-rank session: the same collective on every rank, when
// each arrived against the last one, and how long it waited for it.
static void collectivePeers(QString& html, const Trace& t, EventRef ref) {
  const CollectiveMatch m = sameCollectiveOnEveryRank(t, ref);
  if (m.peers.size() < 2) return;
  TimeNs last = t.start(m.peers.front().kernel);
  for (const CollectivePeer& p : m.peers) last = std::max(last, t.start(p.kernel));
  html += QStringLiteral("<h4>Collective #%1 on every rank</h4><table>").arg(m.ordinal + 1);
  for (const CollectivePeer& p : m.peers) {
    const TimeNs wait = std::min(last - t.start(p.kernel), t.dur(p.kernel));
    const QString when = wait > 0 ? QStringLiteral("waited %1 for the last rank").arg(durText(wait))
                                  : QStringLiteral("<b>last to arrive</b>");
    row(html, QStringLiteral("rank %1").arg(p.rank),
        QStringLiteral("%1 <span style=\"color:gray\">%2 · %3</span>")
            .arg(p.kernel == ref ? QStringLiteral("this kernel") : link(t, p.kernel), when, durText(t.dur(p.kernel))));
  }
  html += QStringLiteral("</table>");
}

QString detailsHtml(const Trace& t, EventRef ref, const EtDocument* et, bool fullNameOpen) {
  const SliceColumns& s = t.slices(ref.track);
  const SliceKind kind = s.kind[ref.index];
  // One line of heading (the name as every view shows it), the key facts right below;
  // a long full name (a demangled template is dozens of lines) waits in its own block.
  const QString shown = displayName(t.name(ref));
  QString html = QStringLiteral("<h3 style=\"margin-bottom:4px\">%1</h3><table>").arg(shown.toHtmlEscaped());
  row(html, QStringLiteral("Track"), esc(t.trackLabel(ref.track)));
  row(html, QStringLiteral("Process"), esc(t.processLabel(t.tracks[ref.track].process)));
  row(html, QStringLiteral("Start"),
      QStringLiteral("%1 <span style=\"color:gray\">(ts %2 µs)</span>")
          .arg(durText(t.start(ref) - t.minTs))
          .arg(QString::number(static_cast<double>(t.start(ref)) / 1000.0, 'f', 3)));
  row(html, QStringLiteral("Duration"), durText(t.dur(ref)));
  row(html, QStringLiteral("Category"), esc(t.str(s.cat[ref.index])));
  row(html, QStringLiteral("Kind"), QString::fromLatin1(sliceKindName(kind)));
  if (s.correlation[ref.index] != kNoId)
    row(html, QStringLiteral("Correlation"), QString::number(s.correlation[ref.index]));
  if (s.externalId[ref.index] != kNoId)
    row(html, QStringLiteral("External id"), QString::number(s.externalId[ref.index]));
  const uint8_t flags = s.flags[ref.index];
  if (flags & kFlagCrossover)
    row(html, QStringLiteral("Note"), QStringLiteral("overlaps its parent's end (crossover)"));
  if (flags & kFlagUnterminated)
    row(html, QStringLiteral("Note"), QStringLiteral("begin without end: closed at the track's last timestamp"));
  if (flags & kFlagClampedDur)
    row(html, QStringLiteral("Note"), QStringLiteral("negative or missing duration, shown as 0"));
  if (shown != qstr(t.name(ref))) {
    row(html, QStringLiteral("Full name"),
        fullNameOpen ? QStringLiteral("<a href=\"%1\">hide</a>").arg(QLatin1String(kFullNameToggle))
                     : QStringLiteral("<a href=\"%1\">show</a> <span style=\"color:gray\">(%2 characters)</span>")
                           .arg(QLatin1String(kFullNameToggle))
                           .arg(t.name(ref).size()));
    html += QStringLiteral("</table>");
    if (fullNameOpen)
      html += QStringLiteral("<p style=\"font-family:monospace;font-size:small\">%1</p>").arg(esc(t.name(ref)));
  } else {
    html += QStringLiteral("</table>");
  }

  if (isGpuKind(kind)) {
    if (auto launch = launchOf(t, ref)) {
      html += QStringLiteral("<h4>Launched by</h4><div>%1 <span style=\"color:gray\">%2 · %3</span></div>")
                  .arg(link(t, *launch), esc(t.trackLabel(launch->track)), durText(t.dur(*launch)));
      std::vector<EventRef> ops = ancestors(t, *launch);
      if (ops.empty())
        if (auto op = enclosingOp(t, *launch)) ops = {*op};
      chain(html, t, QStringLiteral("Op chain"), ops);
    } else {
      html += QStringLiteral("<p style=\"color:gray\">No launch with this correlation id in the trace.</p>");
    }
    collectivePeers(html, t, ref);
  } else if (t.tracks[ref.track].kind == TrackKind::Thread) {
    chain(html, t, QStringLiteral("Called from"), ancestors(t, ref));
    if (isLaunchKind(kind)) {
      eventList(html, t, QStringLiteral("GPU events launched"), gpuEventsOfLaunch(t, ref), true);
    } else {
      eventList(html, t, QStringLiteral("Children"), childrenOf(t, ref), false);
      eventList(html, t, QStringLiteral("GPU events caused"), gpuEventsOf(t, ref), true);
    }
  }

  if (const EtNode* node = et ? et->nodeOf(ref) : nullptr) etNodeHtml(html, et->et, *node);

  std::string argsError;
  const std::vector<NamedArg> args = t.args(ref, &argsError);
  if (!args.empty()) {
    html += QStringLiteral("<h4>Args</h4><table>");
    // Reals to 6 significant digits ("0.628571", not "0.6285714285714286"); ids, counts
    // and text as the file wrote them.
    for (const NamedArg& a : args)
      row(html, esc(a.key),
          a.type == ArgType::Double && std::isfinite(a.d) ? QString::number(a.d, 'g', 6) : esc(namedArgText(a)));
    html += QStringLiteral("</table>");
  } else if (!argsError.empty()) {
    html += QStringLiteral("<h4>Args</h4><p style=\"color:#b35900\">%1</p>").arg(esc(argsError));
  }
  return html;
}

DetailsPanel::DetailsPanel(QWidget* parent) : QTextBrowser(parent) {
  setOpenLinks(false);
  setObjectName(QStringLiteral("details"));
  connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
    if (url.toString() == QLatin1String(kFullNameToggle)) {
      fullNameOpen_ = !fullNameOpen_;
      render();
      return;
    }
    if (auto ref = parseEventLink(url)) emit eventLinkActivated(*ref);
  });
  setDark(false);
}

void DetailsPanel::setDark(bool dark) {
  dark_ = dark;
  // Links readable on either background; the HTML is rebuilt so the sheet applies.
  document()->setDefaultStyleSheet(dark ? QStringLiteral("a { color: #8ab4f8; } h4 { color: #e0e0e0; }")
                                        : QStringLiteral("a { color: #1a55b0; }"));
  render();
}

void DetailsPanel::showDetails(const Trace* trace, std::optional<EventRef> ref, const EtDocument* et) {
  if (!ref || ref != ref_) fullNameOpen_ = false;
  trace_ = trace;
  ref_ = ref;
  et_ = et;
  render();
}

void DetailsPanel::render() {
  if (!trace_ || !ref_) {
    setHtml(
        QStringLiteral("<p style=\"color:gray\">Click an event in the timeline to see its details, its op chain "
                       "and the GPU events it caused.</p>"));
    return;
  }
  setHtml(detailsHtml(*trace_, *ref_, et_, fullNameOpen_));
}

}  // namespace opscope::ui
