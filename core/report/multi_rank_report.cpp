#include "report/multi_rank_report.h"

#include "report/rank_metrics_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "io/input_limits.h"
#include "ranks/cross_rank.h"
#include "ranks/rank_inputs.h"
#include "report/rank_metrics_json.h"
#include "report/summary_report.h"
#include "text/duration_text.h"
#include "text/json_text.h"

namespace opscope {

using ojson = nlohmann::ordered_json;

bool assignRanks(std::vector<RankSummary>& ranks, std::string& error) {
  std::map<int64_t, std::string> claimed;
  auto claim = [&](RankSummary& r, int64_t n) {
    auto [it, fresh] = claimed.emplace(n, r.file);
    if (!fresh) {
      error = "rank " + std::to_string(n) + " is claimed by both " + it->second + " and " + r.file;
      return false;
    }
    r.rank = n;
    return true;
  };
  for (RankSummary& r : ranks) {
    r.rank.reset();
    std::optional<int64_t> n;
    if (r.summary.is_object() && r.summary.contains("rank") && r.summary["rank"].is_number_integer())
      n = r.summary["rank"].get<int64_t>();
    if (!n) n = rankFromFileName(r.file);
    if (n && !claim(r, *n)) return false;
  }
  int64_t free = 0;
  for (RankSummary& r : ranks) {
    if (r.rank) continue;
    while (claimed.count(free)) ++free;
    if (!claim(r, free)) return false;
  }
  std::stable_sort(ranks.begin(), ranks.end(),
                   [](const RankSummary& a, const RankSummary& b) { return *a.rank < *b.rank; });
  return true;
}

std::vector<double> iterationWallUs(const ojson& summary) {
  std::vector<double> out;
  if (!summary.is_object() || !summary.contains("iteration_list") || !summary["iteration_list"].is_array()) return out;
  for (const ojson& it : summary["iteration_list"]) {
    if (!it.is_object()) continue;
    if (it.contains("wall_us") && it["wall_us"].is_number()) out.push_back(it["wall_us"].get<double>());
    else if (it.contains("dur_us") && it["dur_us"].is_number()) out.push_back(it["dur_us"].get<double>());
  }
  return out;
}

namespace {

struct Derived {
  std::vector<int64_t> rankNumbers;
  std::vector<std::vector<double>> iterations;
  std::vector<Straggler> stragglers;
  bool measured = false;  // every loaded rank has metrics
  ClockAlignment clocks;
  std::vector<CollectiveWait> waits;
  std::vector<size_t> measuredIndex;  // into ranks, of the ranks with metrics
};

Derived derive(const std::vector<RankSummary>& ranks, const MultiRankOptions& options) {
  Derived d;
  std::vector<const RankMetrics*> metrics;
  bool anyLoaded = false;
  d.measured = true;
  for (size_t i = 0; i < ranks.size(); ++i) {
    const RankSummary& r = ranks[i];
    d.rankNumbers.push_back(r.rank.value_or(static_cast<int64_t>(i)));
    d.iterations.push_back(r.error.empty() ? iterationWallUs(r.summary) : std::vector<double>{});
    if (!r.error.empty()) continue;
    anyLoaded = true;
    if (r.metrics) {
      metrics.push_back(&*r.metrics);
      d.measuredIndex.push_back(i);
    } else {
      d.measured = false;
    }
  }
  d.measured = d.measured && anyLoaded;
  d.stragglers = findStragglers(d.rankNumbers, d.iterations, options.stragglerPct);
  if (d.measured) {
    d.clocks = alignClocks(metrics);
    d.waits = collectiveWaits(metrics, d.clocks);
  }
  return d;
}

std::optional<int64_t> commonWorldSize(const std::vector<RankSummary>& ranks) {
  std::optional<int64_t> ws;
  for (const RankSummary& r : ranks) {
    if (!r.summary.is_object() || !r.summary.contains("world_size") || !r.summary["world_size"].is_number_integer())
      continue;
    const int64_t w = r.summary["world_size"].get<int64_t>();
    if (ws && *ws != w) return std::nullopt;
    ws = w;
  }
  return ws;
}

double pct(TimeNs part, TimeNs whole) {
  return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

// The kernels with the most time summed over ranks (from each rank's top_kernels), and
// each rank's total for them; unset where a kernel is not in that rank's list.
struct KernelsByRank {
  std::vector<std::string> names;
  std::vector<std::vector<std::optional<double>>> totalUs;  // per rank, per name
};

KernelsByRank kernelsByRank(const std::vector<RankSummary>& ranks, size_t keep) {
  auto listOf = [](const RankSummary& r) -> const ojson* {
    if (!r.error.empty() || !r.summary.contains("top_kernels") || !r.summary["top_kernels"].is_array()) return nullptr;
    return &r.summary["top_kernels"];
  };
  auto valid = [](const ojson& k) {
    return k.is_object() && k.contains("name") && k["name"].is_string() && k.contains("total_us") &&
           k["total_us"].is_number();
  };
  std::map<std::string, double> sum;
  for (const RankSummary& r : ranks)
    if (const ojson* list = listOf(r))
      for (const ojson& k : *list)
        if (valid(k)) sum[k["name"].get<std::string>()] += k["total_us"].get<double>();
  std::vector<std::pair<std::string, double>> order(sum.begin(), sum.end());
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (order.size() > keep) order.resize(keep);
  KernelsByRank out;
  for (const auto& [name, total] : order) out.names.push_back(name);
  for (const RankSummary& r : ranks) {
    std::vector<std::optional<double>> row(out.names.size());
    if (const ojson* list = listOf(r))
      for (const ojson& k : *list)
        if (valid(k))
          for (size_t n = 0; n < out.names.size(); ++n)
            if (out.names[n] == k["name"].get<std::string>()) row[n] = k["total_us"].get<double>();
    out.totalUs.push_back(std::move(row));
  }
  return out;
}

ojson kernelsJson(const std::vector<std::string>& names,
                  const std::vector<std::vector<std::optional<double>>>& totalUs) {
  ojson table = ojson::array();
  for (const auto& row : totalUs) {
    ojson cells = ojson::array();
    for (const auto& v : row) cells.push_back(v ? ojson(*v) : ojson(nullptr));
    table.push_back(std::move(cells));
  }
  return {{"names", names}, {"total_us", std::move(table)}};
}

}  // namespace

std::string multiRankJson(const std::vector<RankSummary>& ranks, const MultiRankOptions& options) {
  const Derived d = derive(ranks, options);
  ojson j;
  j["format"] = "multi-rank";
  const auto ws = commonWorldSize(ranks);
  j["world_size"] = ws ? *ws : static_cast<int64_t>(ranks.size());
  ojson list = ojson::array();
  size_t failed = 0;
  for (const RankSummary& r : ranks) {
    if (!r.error.empty()) {
      ++failed;
      list.push_back({{"rank", r.rank ? ojson(*r.rank) : ojson(nullptr)}, {"file", r.file}, {"error", r.error}});
      continue;
    }
    ojson entry = r.summary;
    entry["rank"] = r.rank ? ojson(*r.rank) : ojson(nullptr);
    if (!entry.contains("file")) entry["file"] = r.file;
    list.push_back(std::move(entry));
  }
  j["ranks"] = std::move(list);
  j["iteration_us"] = d.iterations;
  ojson stragglers = ojson::array();
  for (const Straggler& s : d.stragglers)
    stragglers.push_back({{"rank", s.rank}, {"iteration_us_mean", s.iterationUsMean}, {"excess_pct", s.excessPct}});
  j["stragglers"] = std::move(stragglers);
  j["straggler_threshold_pct"] = options.stragglerPct;
  j["failed_ranks"] = failed;
  if (d.measured) {
    ojson offsets = ojson::array();
    for (size_t m = 0; m < d.measuredIndex.size(); ++m)
      offsets.push_back({{"rank", d.rankNumbers[d.measuredIndex[m]]}, {"offset_us", nsToUs(d.clocks.offsets[m])}});
    j["clock_alignment"] = {{"method", d.clocks.method}, {"anchors", d.clocks.anchors}, {"offsets", offsets}};
    ojson coll = ojson::array();
    for (size_t m = 0; m < d.measuredIndex.size(); ++m) {
      const RankMetrics& rm = *ranks[d.measuredIndex[m]].metrics;
      const CollectiveWait& w = d.waits[m];
      coll.push_back({{"rank", d.rankNumbers[d.measuredIndex[m]]},
                      {"count", w.count},
                      {"matched", w.matched},
                      {"total_us", nsToUs(w.total)},
                      {"wait_us", nsToUs(w.wait)},
                      {"wait_pct", pct(w.wait, w.total)},
                      {"compute_us", nsToUs(rm.computeTime)},
                      {"gpu_busy_us", nsToUs(rm.gpuBusy)},
                      {"overlap_pct", pct(rm.overlapTime, rm.collectiveTime)},
                      {"copy_overlap_pct", pct(rm.copyOverlapTime, rm.collectiveTime)}});
    }
    j["collectives"] = std::move(coll);
  } else {
    j["clock_alignment"] = nullptr;
    j["collectives"] = nullptr;
  }
  const KernelsByRank kernels = kernelsByRank(ranks, RankTable::kTopKernels);
  j["top_kernels"] = kernelsJson(kernels.names, kernels.totalUs);
  return jsonText(j, 2) + "\n";
}

std::string multiRankText(const std::vector<RankSummary>& ranks, const MultiRankOptions& options) {
  const Derived d = derive(ranks, options);
  std::ostringstream out;
  const auto ws = commonWorldSize(ranks);
  size_t failed = 0;
  for (const RankSummary& r : ranks) failed += r.error.empty() ? 0 : 1;
  out << ranks.size() << " rank" << (ranks.size() == 1 ? "" : "s");
  if (ws) out << " of world size " << *ws;
  if (failed) out << ", " << failed << " not loaded";
  out << "\n";
  if (d.measured) {
    if (d.clocks.method == "none") {
      out << "  clocks as recorded (no collective or ProfilerStep on every rank to align them at)\n";
    } else {
      TimeNs lo = 0, hi = 0;
      for (TimeNs o : d.clocks.offsets) lo = std::min(lo, o), hi = std::max(hi, o);
      out << "  clocks aligned at "
          << (d.clocks.method == "collectives" ? "the ends of " + std::to_string(d.clocks.anchors) + " collectives"
                                               : std::string("the first ProfilerStep"))
          << "; offsets applied " << reportDuration(lo) << " to " << reportDuration(hi) << "\n";
    }
  }
  out << "\n";
  char line[512];
  std::snprintf(line, sizeof line, "%6s %6s %16s %14s %14s %9s  %s\n", "rank", "iters", "mean iteration", "collectives",
                "waiting", "overlap", "file");
  out << line;
  std::map<size_t, size_t> measuredAt;
  for (size_t m = 0; m < d.measuredIndex.size(); ++m) measuredAt[d.measuredIndex[m]] = m;
  for (size_t i = 0; i < ranks.size(); ++i) {
    const RankSummary& r = ranks[i];
    const std::string rank = r.rank ? std::to_string(*r.rank) : "?";
    if (!r.error.empty()) {
      std::snprintf(line, sizeof line, "%6s  not loaded: %s  %s\n", rank.c_str(), r.error.c_str(), r.file.c_str());
      out << line;
      continue;
    }
    const auto& its = d.iterations[i];
    double mean = 0;
    for (double v : its) mean += v;
    const std::string meanText =
        its.empty() ? "-" : reportDuration(static_cast<TimeNs>(mean / static_cast<double>(its.size()) * 1000.0));
    std::string coll = "-", wait = "-", overlap = "-";
    if (auto m = measuredAt.find(i); m != measuredAt.end()) {
      const CollectiveWait& w = d.waits[m->second];
      if (w.count > 0) {
        coll = reportDuration(w.total);
        wait = reportDuration(w.wait);
        char o[32];
        std::snprintf(o, sizeof o, "%.1f%%", pct(r.metrics->overlapTime, r.metrics->collectiveTime));
        overlap = o;
      }
    }
    std::snprintf(line, sizeof line, "%6s %6zu %16s %14s %14s %9s  %s\n", rank.c_str(), its.size(), meanText.c_str(),
                  coll.c_str(), wait.c_str(), overlap.c_str(), r.file.c_str());
    out << line;
  }
  out << "\n";
  if (d.stragglers.empty()) {
    std::snprintf(line, sizeof line, "no stragglers (no rank's mean iteration is more than %g%% over the median)\n",
                  options.stragglerPct);
    out << line;
  } else {
    out << "stragglers (mean iteration more than " << options.stragglerPct << "% over the median):\n";
    for (const Straggler& s : d.stragglers) {
      std::snprintf(line, sizeof line, "  rank %lld  %s  +%.1f%%\n", static_cast<long long>(s.rank),
                    reportDuration(static_cast<TimeNs>(s.iterationUsMean * 1000.0)).c_str(), s.excessPct);
      out << line;
    }
  }
  return out.str();
}

bool readRankTable(const std::string& path, std::vector<RankSummary>& out, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open the file";
    return false;
  }
  std::string text;
  size_t lineNo = 0;
  for (;;) {
    text.clear();
    // Reads one line without letting a file with no newline take unbounded memory.
    char c;
    bool any = false, terminated = false;
    while (in.get(c)) {
      any = true;
      if (c == '\n') {
        terminated = true;
        break;
      }
      if (text.size() >= kMaxJsonValueBytes) {
        error = "line " + std::to_string(lineNo + 1) + ": longer than 64 MiB, the ceiling for one JSON value";
        return false;
      }
      text.push_back(c);
    }
    if (!any) break;
    ++lineNo;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    ojson j;
    bool tooDeep = false;
    // Deep nesting would overflow the stack when the entry is written out again.
    const ojson::parser_callback_t depthGuard = [&](int depth, ojson::parse_event_t, ojson&) {
      if (depth > kMaxJsonDepth) tooDeep = true;
      return !tooDeep;
    };
    try {
      j = ojson::parse(text, depthGuard, true, false);
    } catch (const nlohmann::json::exception& e) {
      // A partial log's last line can be cut where its run died while writing it.
      if (!terminated && isPartialRankTablePath(path) && !out.empty()) break;
      error = "line " + std::to_string(lineNo) + ": not JSON (" + e.what() + ")";
      return false;
    }
    if (tooDeep) {
      error = "line " + std::to_string(lineNo) + ": nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
      return false;
    }
    if (!j.is_object()) {
      error = "line " + std::to_string(lineNo) + ": not a JSON object";
      return false;
    }
    RankSummary r;
    r.file =
        j.contains("file") && j["file"].is_string() ? j["file"].get<std::string>() : "line " + std::to_string(lineNo);
    if (j.contains("error") && !j["error"].is_null()) {
      r.error = j["error"].is_string() ? j["error"].get<std::string>() : j["error"].dump();
      if (j.contains("rank") && j["rank"].is_number_integer()) r.summary = {{"rank", j["rank"]}};
    } else {
      // The rank's measurements (summary --rank-metrics, as opscope-cluster asks): the table
      // then aligns clocks and measures collective waits as a folder of traces does.
      if (const auto m = j.find("rank_metrics"); m != j.end()) {
        std::string why;
        if (auto metrics = rankMetricsFromJson(*m, why)) {
          r.metrics = std::move(metrics);
        } else {
          error = "line " + std::to_string(lineNo) + ": " + why;
          return false;
        }
        j.erase(m);
      }
      r.summary = std::move(j);
    }
    out.push_back(std::move(r));
  }
  if (out.empty()) {
    error = "no rank lines in the table";
    return false;
  }
  return true;
}

RankTable rankTableOfSummaries(const std::vector<RankSummary>& ranks, double stragglerPct) {
  RankTable t;
  t.stragglerPct = stragglerPct;
  t.collectivesMeasured = false;
  std::vector<int64_t> numbers;
  std::vector<std::vector<double>> us;
  for (size_t i = 0; i < ranks.size(); ++i) {
    RankRow row;
    row.rank = ranks[i].rank.value_or(static_cast<int64_t>(i));
    const std::vector<double> its = ranks[i].error.empty() ? iterationWallUs(ranks[i].summary) : std::vector<double>{};
    for (double v : its) row.iterationWall.push_back(static_cast<TimeNs>(std::llround(v * 1000.0)));
    t.maxIterations = std::max(t.maxIterations, row.iterationWall.size());
    numbers.push_back(row.rank);
    us.push_back(its);
    t.rows.push_back(std::move(row));
  }
  t.stragglers = findStragglers(numbers, us, stragglerPct);
  const KernelsByRank kernels = kernelsByRank(ranks, RankTable::kTopKernels);
  t.kernelNames = kernels.names;
  for (size_t i = 0; i < t.rows.size(); ++i)
    for (const auto& v : kernels.totalUs[i])
      t.rows[i].kernelTime.push_back(v ? static_cast<TimeNs>(std::llround(*v * 1000.0)) : TimeNs{-1});
  return t;
}

std::string rankTableJson(const RankTable& table, const std::string& path) {
  ojson j;
  j["file"] = path;
  j["world_size"] = table.rows.size();
  ojson rows = ojson::array(), its = ojson::array();
  for (const RankRow& r : table.rows) {
    double mean = 0;
    ojson list = ojson::array();
    for (TimeNs w : r.iterationWall) {
      mean += nsToUs(w);
      list.push_back(nsToUs(w));
    }
    const CollectiveWait& c = r.collectives;
    rows.push_back(
        {{"rank", r.rank},
         {"clock_offset_us", r.clockOffset ? ojson(nsToUs(*r.clockOffset)) : ojson(nullptr)},
         {"iterations", r.iterationWall.size()},
         {"iteration_us_mean",
          r.iterationWall.empty() ? ojson(nullptr) : ojson(mean / static_cast<double>(r.iterationWall.size()))},
         {"gpu_busy_us", nsToUs(r.gpuBusy)},
         {"compute_us", nsToUs(r.computeTime)},
         {"overlap_pct", pct(r.overlapTime, c.total)},
         {"copy_overlap_pct", pct(r.copyOverlapTime, c.total)},
         {"collectives",
          {{"count", c.count},
           {"matched", c.matched},
           {"total_us", nsToUs(c.total)},
           {"wait_us", nsToUs(c.wait)},
           {"wait_pct", pct(c.wait, c.total)}}}});
    its.push_back(std::move(list));
  }
  j["ranks"] = std::move(rows);
  j["iteration_us"] = std::move(its);
  ojson stragglers = ojson::array();
  for (const Straggler& s : table.stragglers)
    stragglers.push_back({{"rank", s.rank}, {"iteration_us_mean", s.iterationUsMean}, {"excess_pct", s.excessPct}});
  j["stragglers"] = std::move(stragglers);
  j["straggler_threshold_pct"] = table.stragglerPct;
  j["clock_alignment"] = table.clockAlignment.empty() ? ojson(nullptr) : ojson(table.clockAlignment);
  std::vector<std::vector<std::optional<double>>> kernelUs;
  for (const RankRow& r : table.rows) {
    std::vector<std::optional<double>> row;
    for (TimeNs v : r.kernelTime) row.push_back(v < 0 ? std::nullopt : std::optional<double>(nsToUs(v)));
    kernelUs.push_back(std::move(row));
  }
  j["top_kernels"] = kernelsJson(table.kernelNames, kernelUs);
  return jsonText(j, 2) + "\n";
}

std::string rankTableCsv(const RankTable& table) {
  std::string out = "rank,iteration,wall_us\n";
  char line[96];
  for (const RankRow& r : table.rows)
    for (size_t i = 0; i < r.iterationWall.size(); ++i) {
      std::snprintf(line, sizeof line, "%lld,%zu,%.3f\n", static_cast<long long>(r.rank), i,
                    nsToUs(r.iterationWall[i]));
      out += line;
    }
  return out;
}

}  // namespace opscope
