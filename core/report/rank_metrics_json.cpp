#include "report/rank_metrics_json.h"

namespace opscope {

using ojson = nlohmann::ordered_json;

ojson rankMetricsJson(const RankMetrics& m) {
  ojson j;
  ojson its = ojson::array();
  for (const Iteration& i : m.iterations) its.push_back({i.number, i.start, i.end});
  j["iterations"] = std::move(its);
  j["iteration_wall_ends_ns"] = m.iterationWallEnds;
  j["collective_kinds"] = m.collectiveKinds;
  ojson calls = ojson::array();
  for (const CollectiveCall& c : m.collectives) calls.push_back({c.start, c.end, c.kind});
  j["collectives"] = std::move(calls);
  j["gpu_busy_ns"] = m.gpuBusy;
  j["collective_ns"] = m.collectiveTime;
  j["compute_ns"] = m.computeTime;
  j["copy_ns"] = m.copyTime;
  j["overlap_ns"] = m.overlapTime;
  j["copy_overlap_ns"] = m.copyOverlapTime;
  j["overlap_any_ns"] = m.overlapAnyTime;
  return j;
}

namespace {

bool integers(const ojson& row, size_t n) {
  if (!row.is_array() || row.size() != n) return false;
  for (const ojson& v : row)
    if (!v.is_number_integer()) return false;
  return true;
}

}  // namespace

std::optional<RankMetrics> rankMetricsFromJson(const ojson& j, std::string& error) {
  if (!j.is_object()) {
    error = "rank_metrics is not an object";
    return std::nullopt;
  }
  const auto array = [&](const char* key) -> const ojson* {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_array()) {
      error = std::string("rank_metrics.") + key + " is missing or not an array";
      return nullptr;
    }
    return &*it;
  };
  RankMetrics m;
  const ojson* its = array("iterations");
  const ojson* ends = array("iteration_wall_ends_ns");
  const ojson* kinds = array("collective_kinds");
  const ojson* calls = array("collectives");
  if (!its || !ends || !kinds || !calls) return std::nullopt;
  for (const ojson& row : *its) {
    if (!integers(row, 3) || row[2].get<TimeNs>() < row[1].get<TimeNs>()) {
      error = "rank_metrics.iterations: an entry is not [number, start_ns, end_ns]";
      return std::nullopt;
    }
    m.iterations.push_back({row[0].get<int64_t>(), row[1].get<TimeNs>(), row[2].get<TimeNs>(), kNoRef});
  }
  for (const ojson& v : *ends) {
    if (!v.is_number_integer()) {
      error = "rank_metrics.iteration_wall_ends_ns: not integers";
      return std::nullopt;
    }
    m.iterationWallEnds.push_back(v.get<TimeNs>());
  }
  if (m.iterationWallEnds.size() != m.iterations.size()) {
    error = "rank_metrics: iteration_wall_ends_ns and iterations differ in length";
    return std::nullopt;
  }
  for (const ojson& v : *kinds) {
    if (!v.is_string()) {
      error = "rank_metrics.collective_kinds: not strings";
      return std::nullopt;
    }
    m.collectiveKinds.push_back(v.get<std::string>());
  }
  for (const ojson& row : *calls) {
    if (!integers(row, 3) || row[1].get<TimeNs>() < row[0].get<TimeNs>() || row[2].get<int64_t>() < 0 ||
        row[2].get<uint64_t>() >= m.collectiveKinds.size()) {
      error = "rank_metrics.collectives: an entry is not [start_ns, end_ns, kind index]";
      return std::nullopt;
    }
    m.collectives.push_back({row[0].get<TimeNs>(), row[1].get<TimeNs>(), row[2].get<uint32_t>()});
  }
  const std::pair<const char*, TimeNs*> totals[] = {
      {"gpu_busy_ns", &m.gpuBusy},          {"collective_ns", &m.collectiveTime},
      {"compute_ns", &m.computeTime},       {"copy_ns", &m.copyTime},
      {"overlap_ns", &m.overlapTime},       {"copy_overlap_ns", &m.copyOverlapTime},
      {"overlap_any_ns", &m.overlapAnyTime}};
  for (const auto& [key, field] : totals) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer()) {
      error = std::string("rank_metrics.") + key + " is missing or not an integer";
      return std::nullopt;
    }
    *field = it->get<TimeNs>();
  }
  return m;
}

}  // namespace opscope
