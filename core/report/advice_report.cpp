#include "report/advice_report.h"

#include <sstream>

#include "report/report_numbers.h"
#include "report/summary_report.h"
#include "text/duration_text.h"
#include "text/json_text.h"

namespace opscope {

namespace {

using ojson = nlohmann::ordered_json;

TimeNs examined(const Trace& trace) {
  return trace.iterations.empty() ? trace.maxTs - trace.minTs
                                  : trace.iterations.back().end - trace.iterations.front().start;
}

}  // namespace

std::string adviceJson(const std::vector<Advice>& advice, const Trace& trace, const std::string& path) {
  ojson j;
  j["file"] = path;
  j["examined_us"] = nsToUs(examined(trace));
  ojson list = ojson::array();
  for (const Advice& a : advice) {
    ojson o;
    o["id"] = a.id;
    o["title"] = a.title;
    o["action"] = a.action;
    o["at_stake_us"] = nsToUs(a.atStake);
    o["share_pct"] = a.sharePct;
    if (a.where)
      o["where"] = {{"track", trace.trackLabel(a.where->track)},
                    {"name", std::string(trace.name(*a.where))},
                    {"ts_us", nsToUs(trace.start(*a.where) - trace.minTs)},
                    {"dur_us", nsToUs(trace.dur(*a.where))}};
    else o["where"] = nullptr;
    ojson evidence = ojson::object();
    for (const auto& [k, v] : a.evidence) evidence[k] = v;
    o["evidence"] = std::move(evidence);
    list.push_back(std::move(o));
  }
  j["recommendations"] = std::move(list);
  // A folder of ranks: the rank traces left out ("file: error"), so a reader knows what
  // the recommendations did not see.
  if (!trace.meta.sessionRanks.empty()) j["ranks_not_loaded"] = trace.meta.ranksNotLoaded;
  return jsonText(j, 2) + "\n";
}

std::string adviceCsv(const std::vector<Advice>& advice) {
  std::string out = "id,at_stake_us,share_pct,title\n";
  for (const Advice& a : advice) {
    std::string title = "\"";
    for (char c : a.title) title += c == '"' ? std::string("\"\"") : std::string(1, c);
    out += a.id + "," + usText(a.atStake) + "," + shortestNumber(a.sharePct) + "," + title + "\"\n";
  }
  return out;
}

std::string adviceText(const std::vector<Advice>& advice, const Trace& trace, const std::string& path) {
  std::ostringstream out;
  out << path << ": " << advice.size() << " recommendation" << (advice.size() == 1 ? "" : "s")
      << ", most time at stake first (" << reportDuration(examined(trace)) << " examined)\n";
  size_t k = 0;
  for (const Advice& a : advice) {
    out << "\n" << ++k << ". [" << a.id << "] " << a.title << "\n";
    out << "   at stake: up to " << reportDuration(a.atStake) << "\n";
    out << "   try: " << a.action << "\n";
    if (a.where)
      out << "   e.g. " << trace.name(*a.where) << " on " << trace.trackLabel(a.where->track) << " at "
          << reportDuration(trace.start(*a.where) - trace.minTs) << "\n";
  }
  if (advice.empty()) out << "\nnothing stands out: no rule found time at stake\n";
  return out.str();
}

}  // namespace opscope
