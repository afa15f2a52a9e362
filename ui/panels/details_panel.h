#pragma once
// Details of the selected slice: where it is, its op chain, its children and every GPU
// event it caused (ops), its launch (GPU events) or kernels (launches), and its args.
// Every related event is a link ("event:TRACK:INDEX") that selects it.
#include <QTextBrowser>
#include <optional>

#include "model/trace.h"

namespace opscope::ui {
struct EtDocument;
}

namespace opscope::ui {

// HTML of the panel; also used by tests. Lists are capped (the rest counted). With an
// execution trace linked, an op's ET node follows: its inputs and outputs (shapes,
// types), attributes and place in the ET's tree.
// The heading is the short name (names.h); a full name that differs is a "show" link
// (kFullNameToggle) away, or shown when fullNameOpen.
QString detailsHtml(const Trace& trace, EventRef ref, const EtDocument* et = nullptr, bool fullNameOpen = false);
inline constexpr const char* kFullNameToggle = "details:fullname";

// "event:3:1200" -> {3, 1200}.
std::optional<EventRef> parseEventLink(const QUrl& url);

class DetailsPanel : public QTextBrowser {
  Q_OBJECT
 public:
  explicit DetailsPanel(QWidget* parent = nullptr);
  void showDetails(const Trace* trace, std::optional<EventRef> ref, const EtDocument* et = nullptr);
  // Link and heading colours of the theme (applied at once to what is shown).
  void setDark(bool dark);
  bool dark() const { return dark_; }

 signals:
  void eventLinkActivated(opscope::EventRef ref);

 private:
  void render();
  const Trace* trace_ = nullptr;
  std::optional<EventRef> ref_;
  const EtDocument* et_ = nullptr;
  bool fullNameOpen_ = false;
  bool dark_ = false;
};

}  // namespace opscope::ui
