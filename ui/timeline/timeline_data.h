#pragma once
// What the timeline library draws and hit-tests: a loaded trace and the view structures
// built from it off the GUI thread, then only read. The timeline (renderer, widget,
// layout) sees only this; the window's document (trace_document.h) extends it with
// what the other views need (the op tree, the path, load timings), as Qt Creator's
// tracing library takes a timeline model rather than the application's document.
#include <cstdint>
#include <memory>
#include <vector>

#include "model/trace.h"
#include "timeline/overview.h"
#include "timeline/row_index.h"

namespace opscope::ui {

struct TimelineData {
  std::unique_ptr<Trace> trace;
  RowIndex rows;
  OverviewDensity overview;
  std::vector<uint32_t> instantsByTime;  // indices into trace->instants, sorted by ts
};

}  // namespace opscope::ui
