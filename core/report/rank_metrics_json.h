#pragma once
// A rank's measurements (ranks/rank_metrics.h) as JSON, and back: `summary --json
// --rank-metrics` adds them to a trace's summary under "rank_metrics", opscope-cluster
// asks for them, and reading the cluster's table turns them back into RankMetrics, so a
// table gets the clock alignment and the collective waits a folder of traces gets (the
// table route dropped both). Times are integers in ns on the rank's own clock, exact.
//
//   {"iterations": [[number, start_ns, end_ns], ...], "iteration_wall_ends_ns": [...],
//    "collective_kinds": ["AllReduce", ...], "collectives": [[start_ns, end_ns, kind], ...],
//    "gpu_busy_ns", "collective_ns", "compute_ns", "copy_ns", "overlap_ns",
//    "copy_overlap_ns", "overlap_any_ns"}
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "ranks/rank_metrics.h"

namespace opscope {

nlohmann::ordered_json rankMetricsJson(const RankMetrics& m);
// Nullopt with error naming the first key that is missing or of the wrong type; a kind
// index beyond collective_kinds or an interval that ends before it starts is an error too.
std::optional<RankMetrics> rankMetricsFromJson(const nlohmann::ordered_json& j, std::string& error);

}  // namespace opscope
