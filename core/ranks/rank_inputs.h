#pragma once
// Which files form a multi-rank session: rank traces given as files, folders or glob
// patterns, and the rank each one holds when its metadata does not say.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace opscope {

// Files named by args, in the order given; a folder contributes its trace files
// (*.json, *.json.gz, *.gz, *.sqlite; not sub-folders, not *.jsonl tables), a pattern
// with * ? or [ the files glob(3) finds, in natural order (rank2 before rank10). Empty
// with error set ("no trace files in DIR", "nothing matches PATTERN") when an argument
// yields nothing; a plain path is passed on as is (its loader reports what is wrong).
std::vector<std::string> expandRankInputs(const std::vector<std::string>& args, std::string& error);

// The rank a file name states: the number after the last "rank" in its base name
// ("trace_rank12.json.gz", "rank-3.pt.trace.json", "RANK_7.json"); nullopt when none.
std::optional<int64_t> rankFromFileName(std::string_view path);

// "a2b10" < "a10b2" compares digit runs by value: rank files sort by number.
bool naturalLess(std::string_view a, std::string_view b);

// "0-3,7, 12" -> {0,1,2,3,7,12}. False with error naming the bad part; a range wider
// than 1,000,000 ranks is refused (it would only be a typo).
bool parseRankList(std::string_view text, std::set<int64_t>& out, std::string& error);

// A table written by opscope-cluster: one JSON object per line (*.jsonl or *.ndjson), or
// the partial log an interrupted run leaves beside it (*.jsonl.partial: the lines of the
// traces that finished, in the order they did; isPartialRankTablePath).
bool isRankTablePath(std::string_view path);
bool isPartialRankTablePath(std::string_view path);

}  // namespace opscope
