#include "report/multi_rank_report.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <numeric>
#include <optional>
#include <sstream>

#include "ranks/cross_rank.h"
#include "ranks/rank_inputs.h"
#include "report/summary_report.h"
#include "text/duration_text.h"
#include "text/json_stream.h"
#include "text/json_text.h"

namespace opscope {

using ojson = nlohmann::ordered_json;

namespace {

std::optional<int64_t> integerOf(const ojson& summary, const char* key) {
  if (!summary.is_object()) return std::nullopt;
  const auto it = summary.find(key);
  if (it == summary.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<int64_t>();
}

// The rank a summary or table line declares (distributedInfo's), if any.
std::optional<int64_t> declaredRankOf(const RankSummary& r) {
  return r.hasDeclaredRank ? std::optional<int64_t>(r.declaredRank) : integerOf(r.summary, "rank");
}

std::optional<int64_t> worldSizeOf(const RankSummary& r) {
  if (!r.error.empty()) return std::nullopt;
  if (r.table) return r.hasWorldSize ? std::optional<int64_t>(r.worldSize) : std::nullopt;
  return integerOf(r.summary, "world_size");
}

// Its iterations' count and mean (µs): a table line's as taken at read, a held summary's
// computed the same way (std::accumulate in order, then divided).
std::pair<size_t, double> iterationStats(const RankSummary& r) {
  if (!r.error.empty()) return {0, 0.0};
  if (r.table) return {r.iterationCount, r.iterationMeanUs};
  const std::vector<double> its = iterationWallUs(r.summary);
  if (its.empty()) return {0, 0.0};
  return {its.size(), std::accumulate(its.begin(), its.end(), 0.0) / static_cast<double>(its.size())};
}

// Applies order (new position i holds old order[i]) in place by following cycles: a
// sorted copy of 10^6 ranks would hold them twice.
void permute(std::vector<RankSummary>& ranks, std::vector<size_t> order) {
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] == i || order[i] == SIZE_MAX) continue;
    // Walk the cycle starting at i: position j takes the element at order[j].
    RankSummary held = std::move(ranks[i]);
    size_t j = i;
    for (;;) {
      const size_t from = order[j];
      order[j] = SIZE_MAX;
      if (from == i) {
        ranks[j] = std::move(held);
        break;
      }
      ranks[j] = std::move(ranks[from]);
      j = from;
    }
  }
}

}  // namespace

bool assignRanks(std::vector<RankSummary>& ranks, std::string& error) {
  // (number, index) of every rank that names its number, sorted: a vector rather than a
  // map of file names, which would cost a node and a copied name per rank.
  std::vector<std::pair<int64_t, size_t>> claimed;
  for (size_t i = 0; i < ranks.size(); ++i) {
    RankSummary& r = ranks[i];
    r.rank.reset();
    std::optional<int64_t> n = declaredRankOf(r);
    if (!n) n = rankFromFileName(r.file);
    if (n) claimed.emplace_back(*n, i);
  }
  std::sort(claimed.begin(), claimed.end());
  // The first file (in input order) to claim a number already claimed is the one named,
  // with the earliest claimant of that number: sorted by (number, index), a number's
  // first two entries are its first claimant and the first file to clash with it.
  size_t clashFirst = SIZE_MAX, clashSecond = SIZE_MAX;
  int64_t clashRank = 0;
  for (size_t k = 1; k < claimed.size(); ++k) {
    const bool secondOfGroup =
        claimed[k].first == claimed[k - 1].first && (k < 2 || claimed[k - 2].first != claimed[k].first);
    if (!secondOfGroup || claimed[k].second > clashSecond) continue;
    clashFirst = claimed[k - 1].second;
    clashSecond = claimed[k].second;
    clashRank = claimed[k].first;
  }
  if (clashSecond != SIZE_MAX) {
    error = "rank " + std::to_string(clashRank) + " is claimed by both " + ranks[clashFirst].file + " and " +
            ranks[clashSecond].file;
    return false;
  }
  for (const auto& [n, i] : claimed) ranks[i].rank = n;
  // The others, in input order, take the lowest numbers nobody claims.
  int64_t free = 0;
  size_t next = 0;
  for (RankSummary& r : ranks) {
    if (r.rank) continue;
    for (;;) {
      while (next < claimed.size() && claimed[next].first < free) ++next;
      if (next == claimed.size() || claimed[next].first != free) break;
      ++free;
    }
    r.rank = free++;
  }
  std::vector<size_t> order(ranks.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return *ranks[a].rank < *ranks[b].rank; });
  permute(ranks, std::move(order));
  return true;
}

namespace {

struct Derived {
  std::vector<Straggler> stragglers;
  bool measured = false;  // every loaded rank has metrics
  ClockAlignment clocks;
  std::vector<CollectiveWait> waits;
  std::vector<size_t> measuredIndex;  // into ranks, of the ranks with metrics
};

// A table's µs × 1000 made safe to convert to TimeNs: any double may come from a line
// (1e300, or sums that overflow to infinity), and converting one beyond int64 is
// undefined. NaN becomes 0.
double clampNs(double ns) {
  if (std::isnan(ns)) return 0;
  return std::clamp(ns, -9.2e18, 9.2e18);
}

int64_t rankNumber(const std::vector<RankSummary>& ranks, size_t i) {
  return ranks[i].rank.value_or(static_cast<int64_t>(i));
}

// Holds nothing per rank but what the stragglers need (a table can have 10^6 ranks).
Derived derive(const std::vector<RankSummary>& ranks, const MultiRankOptions& options) {
  Derived d;
  std::vector<const RankMetrics*> metrics;
  std::vector<Straggler> means;
  bool anyLoaded = false;
  d.measured = true;
  for (size_t i = 0; i < ranks.size(); ++i) {
    const RankSummary& r = ranks[i];
    const auto [count, mean] = iterationStats(r);
    if (count > 0) means.push_back({rankNumber(ranks, i), mean, 0});
    if (!r.error.empty()) continue;
    anyLoaded = true;
    if (r.metrics) {
      metrics.push_back(r.metrics.get());
      d.measuredIndex.push_back(i);
    } else {
      d.measured = false;
    }
  }
  d.measured = d.measured && anyLoaded;
  d.stragglers = stragglersOfMeans(std::move(means), options.stragglerPct);
  if (d.measured) {
    d.clocks = alignClocks(metrics);
    d.waits = collectiveWaits(metrics, d.clocks);
  }
  return d;
}

std::optional<int64_t> commonWorldSize(const std::vector<RankSummary>& ranks) {
  std::optional<int64_t> ws;
  for (const RankSummary& r : ranks) {
    const auto w = worldSizeOf(r);
    if (!w) continue;
    if (ws && *ws != *w) return std::nullopt;
    ws = w;
  }
  return ws;
}

double pct(TimeNs part, TimeNs whole) {
  return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

// The kernels with the most time summed over ranks (from each rank's top_kernels).
std::vector<std::string> topKernelNames(const std::vector<RankSummary>& ranks, size_t keep) {
  std::map<std::string, double> sum;
  for (const RankSummary& r : ranks)
    for (const auto& [name, us] : topKernelsOf(r)) sum[name] += us;
  std::vector<std::pair<std::string, double>> order(sum.begin(), sum.end());
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (order.size() > keep) order.resize(keep);
  std::vector<std::string> names;
  for (const auto& [name, total] : order) names.push_back(name);
  return names;
}

// A rank's total for each of names; unset where a kernel is not in its list (the last
// entry of a name wins, as a list that repeats one would have it).
std::vector<std::optional<double>> kernelRow(const RankSummary& r, const std::vector<std::string>& names) {
  std::vector<std::optional<double>> row(names.size());
  for (const auto& [name, us] : topKernelsOf(r))
    for (size_t n = 0; n < names.size(); ++n)
      if (names[n] == name) row[n] = us;
  return row;
}

ojson kernelRowJson(const std::vector<std::optional<double>>& row) {
  ojson cells = ojson::array();
  for (const auto& v : row) cells.push_back(v ? ojson(*v) : ojson(nullptr));
  return cells;
}

}  // namespace

void writeMultiRankJson(const std::vector<RankSummary>& ranks, const MultiRankOptions& options, const TextSink& write) {
  const Derived d = derive(ranks, options);
  JsonObjectWriter j(write, 0);
  j.value("format", "multi-rank");
  const auto ws = commonWorldSize(ranks);
  j.value("world_size", ws ? *ws : static_cast<int64_t>(ranks.size()));
  size_t failed = 0;
  for (const RankSummary& r : ranks) failed += r.error.empty() ? 0 : 1;
  j.array("ranks", ranks.size(), [&](size_t i) -> ojson {
    const RankSummary& r = ranks[i];
    const ojson rank = r.rank ? ojson(*r.rank) : ojson(nullptr);
    if (!r.error.empty()) return {{"rank", rank}, {"file", r.file}, {"error", r.error}};
    ojson entry = summaryOf(r);
    entry["rank"] = rank;
    if (!entry.contains("file")) entry["file"] = r.file;
    return entry;
  });
  j.array("iteration_us", ranks.size(), [&](size_t i) { return ojson(iterationsOf(ranks[i])); });
  ojson stragglers = ojson::array();
  for (const Straggler& s : d.stragglers)
    stragglers.push_back({{"rank", s.rank}, {"iteration_us_mean", s.iterationUsMean}, {"excess_pct", s.excessPct}});
  j.value("stragglers", stragglers);
  j.value("straggler_threshold_pct", options.stragglerPct);
  j.value("failed_ranks", failed);
  if (d.measured) {
    ojson offsets = ojson::array();
    for (size_t m = 0; m < d.measuredIndex.size(); ++m)
      offsets.push_back({{"rank", rankNumber(ranks, d.measuredIndex[m])}, {"offset_us", nsToUs(d.clocks.offsets[m])}});
    j.value("clock_alignment", {{"method", d.clocks.method}, {"anchors", d.clocks.anchors}, {"offsets", offsets}});
    ojson coll = ojson::array();
    for (size_t m = 0; m < d.measuredIndex.size(); ++m) {
      const RankMetrics& rm = *ranks[d.measuredIndex[m]].metrics;
      const CollectiveWait& w = d.waits[m];
      coll.push_back({{"rank", rankNumber(ranks, d.measuredIndex[m])},
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
    j.value("collectives", coll);
  } else {
    j.value("clock_alignment", nullptr);
    j.value("collectives", nullptr);
  }
  const std::vector<std::string> names = topKernelNames(ranks, RankTable::kTopKernels);
  JsonObjectWriter kernels = j.object("top_kernels");
  kernels.value("names", names);
  kernels.array("total_us", ranks.size(), [&](size_t i) { return kernelRowJson(kernelRow(ranks[i], names)); });
  kernels.close();
  j.close();
  write("\n");
}

std::string multiRankJson(const std::vector<RankSummary>& ranks, const MultiRankOptions& options) {
  std::string out;
  writeMultiRankJson(ranks, options, [&](std::string_view piece) { out += piece; });
  return out;
}

void writeMultiRankText(const std::vector<RankSummary>& ranks, const MultiRankOptions& options, const TextSink& write) {
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
  write(out.str());
  // A rank's collective waits, when every loaded rank has metrics (d.measured): with some
  // ranks lacking them there are none to show (and d.waits is empty; indexing it by the
  // measured ranks crashed on such a table, found by fuzzing).
  std::vector<size_t> measuredAt(ranks.size(), SIZE_MAX);
  if (d.measured)
    for (size_t m = 0; m < d.measuredIndex.size(); ++m) measuredAt[d.measuredIndex[m]] = m;
  for (size_t i = 0; i < ranks.size(); ++i) {
    const RankSummary& r = ranks[i];
    const std::string rank = r.rank ? std::to_string(*r.rank) : "?";
    if (!r.error.empty()) {
      // The error and the file can be long: written as they are, not through the buffer.
      write(std::string(6 - std::min<size_t>(6, rank.size()), ' ') + rank + "  not loaded: " + r.error + "  " + r.file +
            "\n");
      continue;
    }
    const auto [count, mean] = iterationStats(r);
    const std::string meanText = count == 0 ? "-" : reportDuration(static_cast<TimeNs>(clampNs(mean * 1000.0)));
    std::string coll = "-", wait = "-", overlap = "-";
    if (measuredAt[i] != SIZE_MAX) {
      const CollectiveWait& w = d.waits[measuredAt[i]];
      if (w.count > 0) {
        coll = reportDuration(w.total);
        wait = reportDuration(w.wait);
        char o[32];
        std::snprintf(o, sizeof o, "%.1f%%", pct(r.metrics->overlapTime, r.metrics->collectiveTime));
        overlap = o;
      }
    }
    std::snprintf(line, sizeof line, "%6s %6zu %16s %14s %14s %9s  ", rank.c_str(), count, meanText.c_str(),
                  coll.c_str(), wait.c_str(), overlap.c_str());
    write(line + r.file + "\n");
  }
  out.str("");
  out << "\n";
  if (d.stragglers.empty()) {
    std::snprintf(line, sizeof line, "no stragglers (no rank's mean iteration is more than %g%% over the median)\n",
                  options.stragglerPct);
    out << line;
  } else {
    out << "stragglers (mean iteration more than " << options.stragglerPct << "% over the median):\n";
    for (const Straggler& s : d.stragglers) {
      std::snprintf(line, sizeof line, "  rank %lld  %s  +%.1f%%\n", static_cast<long long>(s.rank),
                    reportDuration(static_cast<TimeNs>(clampNs(s.iterationUsMean * 1000.0))).c_str(), s.excessPct);
      out << line;
    }
  }
  write(out.str());
}

std::string multiRankText(const std::vector<RankSummary>& ranks, const MultiRankOptions& options) {
  std::string out;
  writeMultiRankText(ranks, options, [&](std::string_view piece) { out += piece; });
  return out;
}

RankTable rankTableOfSummaries(const std::vector<RankSummary>& ranks, double stragglerPct) {
  RankTable t;
  t.stragglerPct = stragglerPct;
  t.collectivesMeasured = false;
  std::vector<Straggler> means;
  for (size_t i = 0; i < ranks.size(); ++i) {
    RankRow row;
    row.rank = ranks[i].rank.value_or(static_cast<int64_t>(i));
    const auto [count, mean] = iterationStats(ranks[i]);
    for (double v : iterationsOf(ranks[i]))
      row.iterationWall.push_back(static_cast<TimeNs>(std::llround(clampNs(v * 1000.0))));
    t.maxIterations = std::max(t.maxIterations, row.iterationWall.size());
    if (count > 0) means.push_back({row.rank, mean, 0});
    t.rows.push_back(std::move(row));
  }
  t.stragglers = stragglersOfMeans(std::move(means), stragglerPct);
  t.kernelNames = topKernelNames(ranks, RankTable::kTopKernels);
  for (size_t i = 0; i < t.rows.size(); ++i)
    for (const auto& v : kernelRow(ranks[i], t.kernelNames))
      t.rows[i].kernelTime.push_back(v ? static_cast<TimeNs>(std::llround(clampNs(*v * 1000.0))) : TimeNs{-1});
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
  ojson kernelUs = ojson::array();
  for (const RankRow& r : table.rows) {
    std::vector<std::optional<double>> row;
    for (TimeNs v : r.kernelTime) row.push_back(v < 0 ? std::nullopt : std::optional<double>(nsToUs(v)));
    kernelUs.push_back(kernelRowJson(row));
  }
  j["top_kernels"] = {{"names", table.kernelNames}, {"total_us", std::move(kernelUs)}};
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
