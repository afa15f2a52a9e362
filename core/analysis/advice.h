#pragma once
// Recommendations with measured evidence: rules over one trace (or a merged multi-rank
// session), each firing only when the trace shows the problem, each saying how much time
// is at stake (what a user could gain at most) and pointing at an example in the trace,
// ordered by that time. The thresholds are in advice.cpp next to each rule.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/trace.h"
#include "ranks/rank_table.h"

namespace opscope {

struct Advice {
  std::string id;       // stable: launch_bound, small_kernels, host_sync, pageable_memcpy, low_occupancy, data_loading,
                        // exposed_communication, stragglers
  std::string title;    // what was found, with its figures
  std::string action;   // what to try
  TimeNs atStake = 0;   // at most this much time could be gained
  double sharePct = 0;  // atStake against the time examined (the iterations, else the trace)
  std::optional<EventRef> where;                         // an example in the trace
  std::vector<std::pair<std::string, double>> evidence;  // named figures (µs, counts, %)
};

// Rules that fire, most time at stake first. The time examined is the ProfilerStep
// iterations when there are any, else the whole trace.
std::vector<Advice> advise(const Trace& trace);
// The same, with the trace's rankTable(trace) already computed (the Analysis dock has it).
std::vector<Advice> advise(const Trace& trace, const RankTable& ranks);

}  // namespace opscope
