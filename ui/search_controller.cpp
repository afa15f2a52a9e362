#include "search_controller.h"

#include <QAction>
#include <QCheckBox>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QToolBar>
#include <algorithm>

#include "elided_label.h"
#include "ranks/collective_match.h"
#include "timeline/timeline_widget.h"

namespace opscope::ui {

namespace {
constexpr size_t kMaxMatches = 5'000'000;
}  // namespace

SearchController::SearchController(QMainWindow* window, TimelineWidget* timeline)
    : QObject(window), timeline_(timeline) {
  QToolBar* bar = window->addToolBar(QStringLiteral("Search"));
  bar->setObjectName(QStringLiteral("searchBar"));
  bar->setMovable(false);
  bar->addWidget(new QLabel(QStringLiteral(" Search "), bar));
  box_ = new QLineEdit(bar);
  box_->setPlaceholderText(QStringLiteral("event name (Enter: next, Shift+Enter: previous)"));
  box_->setClearButtonEnabled(true);
  box_->setMinimumWidth(340);
  box_->installEventFilter(this);
  bar->addWidget(box_);
  regex_ = new QCheckBox(QStringLiteral("regex"), bar);
  bar->addWidget(regex_);
  // A fixed width, the text cut to fit (whole in its tooltip): a label as wide as its
  // text moved the Panels toolbar after it, its buttons sliding from under the mouse when
  // a status appeared (Maximise became Compare).
  label_ = new ElidedLabel(bar);
  label_->setFixedWidth(kStatusWidth);
  label_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);  // ElidedLabel's Ignored counts as 0 wide
  bar->addWidget(label_);
  auto* findAction = new QAction(window);
  findAction->setShortcut(QKeySequence::Find);
  connect(findAction, &QAction::triggered, this, [this] {
    box_->setFocus();
    box_->selectAll();
  });
  window->addAction(findAction);
  connect(box_, &QLineEdit::textChanged, this, [this](const QString& t) { run(t, regex_->isChecked()); });
  connect(regex_, &QCheckBox::toggled, this, [this](bool on) { run(box_->text(), on); });
}

void SearchController::setDocument(std::shared_ptr<const TraceDocument> doc) {
  doc_ = std::move(doc);
  matches_ = std::make_shared<std::vector<EventRef>>();
  matcher_.reset();
  collectiveMarked_ = false;
  if (doc_ && !box_->text().isEmpty()) run(box_->text(), regex_->isChecked());
}

QString SearchController::status() const { return label_->fullText(); }

void SearchController::find(const QString& name) {
  box_->setText(name);
  if (run(name, false)) step(+1);
}

bool SearchController::eventFilter(QObject* watched, QEvent* event) {
  if (watched == box_ && event->type() == QEvent::KeyPress) {
    auto* k = static_cast<QKeyEvent*>(event);
    if (k->key() == Qt::Key_Return || k->key() == Qt::Key_Enter) {
      step((k->modifiers() & Qt::ShiftModifier) ? -1 : 1);
      return true;
    }
    if (k->key() == Qt::Key_Escape) {
      timeline_->setFocus();
      return true;
    }
  }
  return QObject::eventFilter(watched, event);
}

void SearchController::markCollectivePeers(std::optional<EventRef> ref) {
  // A search or marked events in progress keep the highlight (stepping through them
  // selects collectives too); the Details still list the peers.
  if (!doc_ || (!collectiveMarked_ && matches_ && !matches_->empty())) return;
  const CollectiveMatch m = ref ? sameCollectiveOnEveryRank(*doc_->trace, *ref) : CollectiveMatch{};
  if (m.peers.size() < 2) {
    // Leaving a collective clears its marks, never the results of a search.
    if (collectiveMarked_) {
      collectiveMarked_ = false;
      matches_ = std::make_shared<std::vector<EventRef>>();
      timeline_->setSearch(nullptr);
      label_->setFullText(QString());
    }
    return;
  }
  // The same collective on every rank, highlighted like search matches (Enter steps).
  auto peers = std::make_shared<std::vector<EventRef>>();
  for (const CollectivePeer& p : m.peers) peers->push_back(p.kernel);
  matcher_.reset();
  matches_ = peers;
  cursor_ = static_cast<size_t>(std::find(peers->begin(), peers->end(), *ref) - peers->begin());
  collectiveMarked_ = true;
  timeline_->setSearch(nullptr, matches_);
  label_->setFullText(
      QStringLiteral("collective #%1 on %2 ranks · Enter to step").arg(m.ordinal + 1).arg(m.peers.size()));
}

bool SearchController::run(const QString& text, bool regex) {
  collectiveMarked_ = false;
  matches_ = std::make_shared<std::vector<EventRef>>();
  cursor_ = 0;
  box_->setStyleSheet(QString());
  if (!doc_ || text.isEmpty()) {
    matcher_.reset();
    timeline_->setSearch(nullptr);
    label_->setFullText(QString());
    return true;
  }
  SearchQuery q{text.toStdString(), regex, false};
  try {
    matcher_ = std::make_shared<NameMatcher>(matchNames(doc_->trace->strings, q));
  } catch (const PatternError& e) {
    matcher_.reset();
    timeline_->setSearch(nullptr);
    box_->setStyleSheet(QStringLiteral("background: #ffd6d6; color: black;"));
    label_->setFullText(QStringLiteral("bad regular expression: %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
  *matches_ = findEvents(*doc_->trace, *matcher_, kMaxMatches);
  timeline_->setSearch(matcher_, matches_);
  if (matches_->empty()) label_->setFullText(QStringLiteral("no match"));
  else
    label_->setFullText(QStringLiteral("%L1%2 match%3 in %L4 name%5 · Enter to step")
                            .arg(matches_->size())
                            .arg(matches_->size() >= kMaxMatches ? QStringLiteral("+") : QString())
                            .arg(matches_->size() == 1 ? "" : "es")
                            .arg(matcher_->names)
                            .arg(matcher_->names == 1 ? "" : "s"));
  return true;
}

void SearchController::markEvents(const QString& what, std::vector<EventRef> events) {
  if (!doc_ || events.empty()) return;
  const Trace& t = *doc_->trace;
  std::sort(events.begin(), events.end(),
            [&t](EventRef a, EventRef b) { return t.start(a) != t.start(b) ? t.start(a) < t.start(b) : a < b; });
  matcher_.reset();
  collectiveMarked_ = false;
  matches_ = std::make_shared<std::vector<EventRef>>(std::move(events));
  cursor_ = 0;
  timeline_->setSearch(nullptr, matches_);
  timeline_->select(matches_->front(), true);
  label_->setFullText(QStringLiteral("%L1 event%2 of %3 · Enter to step")
                          .arg(matches_->size())
                          .arg(matches_->size() == 1 ? "" : "s")
                          .arg(what.size() > 60 ? what.left(57) + QStringLiteral("…") : what));
}

void SearchController::step(int direction) {
  if (matches_->empty()) return;
  if (timeline_->selected() && cursor_ < matches_->size() && (*matches_)[cursor_] == *timeline_->selected()) {
    cursor_ = (cursor_ + matches_->size() + static_cast<size_t>(direction > 0 ? 1 : -1)) % matches_->size();
  } else if (direction < 0) {
    cursor_ = matches_->size() - 1;
  } else {
    cursor_ = 0;
  }
  timeline_->select((*matches_)[cursor_], true);
  label_->setFullText(QStringLiteral("%L1 of %L2 matches").arg(cursor_ + 1).arg(matches_->size()));
}

bool SearchController::selectByName(const QString& name) {
  if (!doc_) return false;
  const Trace& t = *doc_->trace;
  const std::string wanted = name.toStdString();
  std::optional<EventRef> exact, partial;
  for (uint32_t tr = 0; tr < t.tracks.size(); ++tr) {
    const SliceColumns& s = t.tracks[tr].slices;
    for (uint32_t i = 0; i < s.size(); ++i) {
      const std::string_view n = t.str(s.name[i]);
      if (n == wanted) {
        if (!exact || s.dur[i] > t.dur(*exact)) exact = EventRef{tr, i};
      } else if (!exact && n.find(wanted) != std::string_view::npos) {
        if (!partial || s.dur[i] > t.dur(*partial)) partial = EventRef{tr, i};
      }
    }
  }
  const auto pick = exact ? exact : partial;
  if (!pick) return false;
  timeline_->select(pick, true);
  return true;
}

}  // namespace opscope::ui
