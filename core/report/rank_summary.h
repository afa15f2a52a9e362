#pragma once
// One rank of a multi-rank summary, and the opscope-cluster table (ranks.jsonl) that
// lists them: held in memory for a folder of traces, read again from the table's file
// for a table, so that a table of 10^6 ranks or 10^4 iterations a rank is not held whole.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "ranks/rank_metrics.h"

namespace opscope {

// A table read by readRankTable, kept open so that its lines can be read again when the
// report is written (a file replaced meanwhile does not change what is read).
struct RankTableFile;

// One rank. Either its summary is held (`summary`: a folder of traces, a test) or it is
// a line of an opscope-cluster table that stays in its file (`table`, `lineOffset`,
// `lineBytes`; `summary` null) and is read again when written: a table of 10^6 ranks
// or 10^4 iterations a rank is not held whole. For a table line, the few facts the
// report needs are taken out at read (`declaredRank`, `worldSize`, the iterations' count
// and mean); summaryOf/iterationsOf read either form.
struct RankSummary {
  std::optional<int64_t> rank;  // set by assignRanks
  std::string file;
  nlohmann::ordered_json summary;              // summaryJson's object when held; null on error and for table lines
  std::string error;                           // why this rank has no summary
  std::shared_ptr<const RankMetrics> metrics;  // when the trace itself was read (or the line carried them)

  std::shared_ptr<RankTableFile> table;
  uint64_t lineOffset = 0;  // of the line's first byte
  uint32_t lineBytes = 0;   // without the newline (a line is at most 64 MiB)
  uint32_t lineNumber = 0;  // from 1, for messages
  // The line's "rank" and "world_size" when integers (has*: present): plain fields, not
  // optionals, as a table of 10^6 ranks holds one record a rank.
  int64_t declaredRank = 0;
  int64_t worldSize = 0;
  bool hasDeclaredRank = false;
  bool hasWorldSize = false;
  uint32_t iterationCount = 0;
  double iterationMeanUs = 0;
};

// The rank's summary object: held, or its table line read again (without rank_metrics);
// null for a failed rank. Throws std::runtime_error ("line N: …") when the table cannot
// be read again as it was (changed since it was read).
nlohmann::ordered_json summaryOf(const RankSummary& r);
// The same with only the named top-level keys, in the summary's order (a table line is
// parsed with the others skipped).
nlohmann::ordered_json summaryKeysOf(const RankSummary& r, const std::vector<std::string>& keys);
// Its iterations' wall times in µs (iterationWallUs of summaryOf); none for a failed rank.
std::vector<double> iterationsOf(const RankSummary& r);
// Its top_kernels entries that have a string name and a number total (µs), in its order;
// none for a failed rank. A table line's are read again without building its document
// (report/rank_line_facts.h); throws as summaryOf does.
std::vector<std::pair<std::string, double>> topKernelsOf(const RankSummary& r);

// Per rank, its iterations' wall times in µs: iteration_list[i].wall_us (host end or GPU
// drain), dur_us in summaries that predate wall_us.
std::vector<double> iterationWallUs(const nlohmann::ordered_json& summary);

// Reads an opscope-cluster table: one JSON object per line, each a summary with "rank"
// and "file" (or "error"). Blank lines are skipped; false with error "LINE N: what" on
// anything else, or when a line exceeds 64 MiB. Each line is checked whole and then
// dropped: the ranks point into the file (RankSummary), which stays open.
bool readRankTable(const std::string& path, std::vector<RankSummary>& out, std::string& error);

}  // namespace opscope
