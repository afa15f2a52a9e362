#pragma once
// The multi-rank summary: `opscope summary --json` over several rank traces, a folder
// of them, or an opscope-cluster table (ranks.jsonl), and its readable table.
//
// Contract (names and meanings fixed; add, never rename):
//   {"format": "multi-rank", "world_size", "ranks": [{"rank", "file", <every key of the
//   single-trace summary>} | {"rank", "file", "error"}], "iteration_us": [[per rank, per
//   iteration]], "stragglers": [{"rank", "iteration_us_mean", "excess_pct"}]}
// Added: "straggler_threshold_pct", "failed_ranks", "clock_alignment", "collectives"
// and "top_kernels" (null where a table has no trace to measure).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ranks/rank_table.h"
#include "report/rank_summary.h"
#include "text/json_stream.h"

namespace opscope {

// Each rank: the summary's "rank" (distributedInfo), else the file name's rank<N>, else
// the lowest number no other file claims. Sorts by rank. False with error naming both
// files when two claim one rank.
bool assignRanks(std::vector<RankSummary>& ranks, std::string& error);

struct MultiRankOptions {
  double stragglerPct = 5.0;  // a straggler's mean iteration exceeds the median by more
};

// ranks: as assignRanks left them. The write* forms hand the text to `write` a piece at a
// time (a rank's entry, a row), so memory does not grow with the number of ranks; the
// string forms collect the same bytes.
void writeMultiRankJson(const std::vector<RankSummary>& ranks, const MultiRankOptions& options, const TextSink& write);
void writeMultiRankText(const std::vector<RankSummary>& ranks, const MultiRankOptions& options, const TextSink& write);
std::string multiRankJson(const std::vector<RankSummary>& ranks, const MultiRankOptions& options);
std::string multiRankText(const std::vector<RankSummary>& ranks, const MultiRankOptions& options);

// The ranks of a multi-rank summary (assignRanks done) as a RankTable: iteration wall
// times from each summary, stragglers; no collectives (collectivesMeasured false).
RankTable rankTableOfSummaries(const std::vector<RankSummary>& ranks, double stragglerPct);

// `opscope export --chart ranks` (data): the ranks of a loaded session, with the same key
// names as the multi-rank summary: {"file", "world_size", "ranks": [{"rank",
// "clock_offset_us", "iterations", "iteration_us_mean", "gpu_busy_us", "compute_us",
// "overlap_pct" (under compute kernels), "copy_overlap_pct" (under memcpy/memset),
// "collectives": {"count", "matched", "total_us", "wait_us",
// "wait_pct"}}], "iteration_us", "stragglers", "straggler_threshold_pct",
// "clock_alignment", "top_kernels": {"names", "total_us": [per rank, per name]}}.
// clock_offset_us and clock_alignment are null outside a merged session; a kernel time
// is null where unknown. CSV: one row per rank and iteration (rank,iteration,wall_us).
std::string rankTableJson(const RankTable& table, const std::string& path);
std::string rankTableCsv(const RankTable& table);

}  // namespace opscope
