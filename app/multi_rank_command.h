#pragma once
// `opscope summary` over several rank traces (files, a folder, a glob) or an
// opscope-cluster table: the multi-rank summary (report/multi_rank_report.h).
#include <string>
#include <vector>

#include "analysis/summary.h"

namespace opscope::app {

struct MultiRankRequest {
  std::vector<std::string> inputs;  // as given on the command line
  bool json = false;
  double stragglerPct = 5.0;
  unsigned jobs = 0;       // loading threads; 0: the machine's (at most 8)
  SummaryOptions summary;  // iteration marker, applied to every rank
};

// True when the inputs name a session rather than one trace: more than one, a folder,
// a pattern nothing on disk is called, or a *.jsonl table.
bool isMultiRankInput(const std::vector<std::string>& inputs);

int runMultiRankSummary(const MultiRankRequest& request);

}  // namespace opscope::app
