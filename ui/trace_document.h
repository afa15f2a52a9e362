#pragma once
// A loaded trace with everything the views precompute from it, built off the GUI
// thread (see load_job.h) and then only read: the timeline's data (timeline/
// timeline_data.h) and what the other views add to it.
#include <memory>
#include <string>

#include "analysis/op_tree.h"
#include "io/load_result.h"
#include "timeline/timeline_data.h"

namespace opscope::ui {

struct TraceDocument : TimelineData {
  std::string path;
  OpTree opTree;
  LoadTimings timings;
  double prepareSeconds = 0;  // row index, op tree, overview
};

// Builds the view structures of a successfully loaded trace.
std::shared_ptr<const TraceDocument> prepareDocument(std::string path, LoadResult&& loaded);

// Loads and prepares synchronously (command-line modes and tests). On failure returns
// null and sets error (and status).
std::shared_ptr<const TraceDocument> loadDocument(const std::string& path, std::string& error,
                                                  LoadStatus* status = nullptr);

}  // namespace opscope::ui
