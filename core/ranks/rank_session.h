#pragma once
// A multi-rank session as one trace: every rank's processes and tracks side by side,
// labelled and ordered by rank, on the first rank's clock (ClockAlignment), so the
// timeline, selection and every analysis see the job at once.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/load_result.h"
#include "model/trace.h"

namespace opscope {

struct RankPart {
  std::unique_ptr<Trace> trace;
  int64_t rank = 0;
  TimeNs offset = 0;  // added to every time of this rank
  std::string file;   // where it was read from (TraceMetadata::sessionRanks)
};

// Merges the parts (in the order given; callers sort by rank). Strings are re-interned,
// args re-encoded against the merged pool (lazy tracks keep reading their own file),
// flows and launch links re-pointed. The merged trace keeps the first part's
// iterations (shifted) as its ProfilerSteps, its device properties and format; each
// part's warnings are kept, their examples prefixed with "rank N: ".
std::unique_ptr<Trace> mergeRanks(std::vector<RankPart> parts);

// What the GUI opens for a folder (or several files): every rank trace loaded in
// parallel, ranks assigned as the multi-rank summary does, clocks aligned, merged.
// Fails (one line) when no rank loads or two files claim one rank; ranks that fail
// are left out with a warning naming them. options.progress sees the whole set.
LoadResult loadRankSession(const std::vector<std::string>& inputs, const LoadOptions& options = {});

// What the GUI opens for a path: a folder is a rank session, anything else one trace.
LoadResult loadTraceOrSession(const std::string& path, const LoadOptions& options = {});

}  // namespace opscope
