#pragma once
// A loaded trace with everything the views precompute from it, built off the GUI
// thread (see load_job.h) and then only read.
#include <memory>
#include <string>

#include "analysis/op_tree.h"
#include "io/load_result.h"
#include "model/trace.h"
#include "timeline/overview.h"
#include "timeline/row_index.h"

namespace opscope::ui {

struct TraceDocument {
  std::string path;
  std::unique_ptr<Trace> trace;
  RowIndex rows;
  OpTree opTree;
  OverviewDensity overview;
  std::vector<uint32_t> instantsByTime;  // indices into trace->instants, sorted by ts
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
