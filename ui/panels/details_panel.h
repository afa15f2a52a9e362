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
QString detailsHtml(const Trace& trace, EventRef ref, const EtDocument* et = nullptr);

// "event:3:1200" -> {3, 1200}.
std::optional<EventRef> parseEventLink(const QUrl& url);

class DetailsPanel : public QTextBrowser {
  Q_OBJECT
 public:
  explicit DetailsPanel(QWidget* parent = nullptr);
  void showDetails(const Trace* trace, std::optional<EventRef> ref, const EtDocument* et = nullptr);

 signals:
  void eventLinkActivated(opscope::EventRef ref);
};

}  // namespace opscope::ui
