#pragma once
// `opscope advise` output. JSON (keys only ever added): {"file", "examined_us",
// "recommendations": [{"id", "title", "action", "at_stake_us", "share_pct",
// "where": {"track", "name", "ts_us" (from the trace start), "dur_us"} | null,
// "evidence": {name: number}}]}, most time at stake first; an empty list when no rule
// fires. For a folder of ranks also "ranks_not_loaded": ["file: error"].
#include <string>
#include <vector>

#include "analysis/advice.h"

namespace opscope {

std::string adviceJson(const std::vector<Advice>& advice, const Trace& trace, const std::string& path);
// id,at_stake_us,share_pct,title (quoted)
std::string adviceCsv(const std::vector<Advice>& advice);
std::string adviceText(const std::vector<Advice>& advice, const Trace& trace, const std::string& path);

}  // namespace opscope
