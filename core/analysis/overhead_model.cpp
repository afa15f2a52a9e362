#include "analysis/overhead_model.h"

#include <nlohmann/json.hpp>

#include "analysis/sample_stats.h"
#include "io/side_input.h"
#include "text/clip.h"
#include "text/json_text.h"

namespace opscope {

namespace {

MeanStd meanStd(const std::vector<double>& v, bool withMedian = false) {
  const SampleStats s = describe(v);
  MeanStd m{s.mean, s.stddev, s.count, std::nullopt};
  if (withMedian && s.count > 0) m.median = s.median;
  return m;
}

nlohmann::ordered_json pair(const MeanStd& m) { return nlohmann::ordered_json::array({m.mean, m.std}); }

// Reads [mean, std] (the count comes from "counts" when present).
bool readPair(const nlohmann::json& j, const std::string& where, MeanStd& out, std::string& error) {
  if (!j.is_array() || j.size() < 2 || !j[0].is_number() || !j[1].is_number()) {
    error = "overheads JSON: " + where + ": expected [mean, std] as numbers";
    return false;
  }
  out.mean = j[0].get<double>();
  out.std = j[1].get<double>();
  return true;
}

}  // namespace

OverheadModel overheadModel(const Overheads& o) {
  OverheadModel m;
  m.t1 = meanStd(o.t1);
  for (const OpOverheads& op : o.ops) {
    if (!op.t2.empty()) m.t2[op.name] = meanStd(op.t2);
    if (!op.t3.empty()) m.t3[op.name] = meanStd(op.t3);
    if (!op.t5.empty()) m.t5[op.name] = meanStd(op.t5);
    if (!op.launchSequence.empty()) m.launches[op.name] = op.launchSequence;
  }
  for (const LaunchOverheads& l : o.t4)
    if (!l.t4.empty()) m.t4[l.name] = meanStd(l.t4, true);
  m.costs = o.costs;
  return m;
}

std::string overheadModelJson(const OverheadModel& m) { return jsonText(overheadModelValue(m), 1) + "\n"; }

nlohmann::ordered_json overheadModelValue(const OverheadModel& m) {
  using json = nlohmann::ordered_json;
  json j = json::object();
  json counts = json::object();
  j["t1"] = pair(m.t1);
  counts["t1"] = m.t1.count;
  const std::pair<const char*, const MeanStdByName*> maps[] = {
      {"t2", &m.t2}, {"t3", &m.t3}, {"t4", &m.t4}, {"t5", &m.t5}};
  for (const auto& [key, map] : maps) {
    json values = json::object(), n = json::object();
    for (const auto& [name, v] : *map) {
      values[name] = pair(v);
      n[name] = v.count;
    }
    j[key] = std::move(values);
    counts[key] = std::move(n);
  }
  j["launches"] = m.launches;
  j["counts"] = std::move(counts);
  json medians = json::object();
  for (const auto& [name, v] : m.t4)
    if (v.median) medians["t4"][name] = *v.median;
  if (!medians.empty()) j["medians"] = std::move(medians);
  if (m.costs)
    j["profiler_costs"] = {{"cpu_event_overhead_us", m.costs->cpuEvent},
                           {"gpu_event_overhead_us", m.costs->gpuEvent},
                           {"kernel_launch_length_us", m.costs->launchLength}};
  return j;
}

std::optional<OverheadModel> parseOverheadModel(const std::string& text, std::string& error) {
  using nlohmann::json;
  auto parsed = parseSideJson(text, error);
  if (!parsed) {
    error = "overheads JSON: " + error;
    return std::nullopt;
  }
  const json& j = *parsed;
  if (!j.is_object()) {
    error = "overheads JSON: the top level is not an object";
    return std::nullopt;
  }
  OverheadModel m;
  if (!j.contains("t1")) {
    error = "overheads JSON: field t1 is missing";
    return std::nullopt;
  }
  if (!readPair(j["t1"], "t1", m.t1, error)) return std::nullopt;
  const json* counts = j.contains("counts") && j["counts"].is_object() ? &j["counts"] : nullptr;
  if (counts && counts->contains("t1") && (*counts)["t1"].is_number_unsigned())
    m.t1.count = (*counts)["t1"].get<uint64_t>();
  const std::pair<const char*, MeanStdByName*> maps[] = {{"t2", &m.t2}, {"t3", &m.t3}, {"t4", &m.t4}, {"t5", &m.t5}};
  for (const auto& [key, map] : maps) {
    if (!j.contains(key)) {
      error = std::string("overheads JSON: field ") + key + " is missing";
      return std::nullopt;
    }
    const json& v = j[key];
    if (!v.is_object()) {
      error = std::string("overheads JSON: ") + key + ": expected an object of name: [mean, std]";
      return std::nullopt;
    }
    for (const auto& [name, p] : v.items()) {
      MeanStd ms;
      if (!readPair(p, std::string(key) + "[\"" + clipForMessage(name) + "\"]", ms, error)) return std::nullopt;
      if (counts && counts->contains(key) && (*counts)[key].is_object() && (*counts)[key].contains(name) &&
          (*counts)[key][name].is_number_unsigned())
        ms.count = (*counts)[key][name].get<uint64_t>();
      if (std::string_view(key) == "t4" && j.contains("medians") && j["medians"].is_object() &&
          j["medians"].contains("t4") && j["medians"]["t4"].is_object() && j["medians"]["t4"].contains(name) &&
          j["medians"]["t4"][name].is_number())
        ms.median = j["medians"]["t4"][name].get<double>();
      (*map)[name] = ms;
    }
  }
  if (j.contains("launches")) {
    const json& l = j["launches"];
    if (!l.is_object()) {
      error = "overheads JSON: launches: expected an object of op: [launch names]";
      return std::nullopt;
    }
    for (const auto& [name, seq] : l.items()) {
      if (!seq.is_array()) {
        error = "overheads JSON: launches[\"" + clipForMessage(name) + "\"]: expected a list of names";
        return std::nullopt;
      }
      auto& out = m.launches[name];
      for (const json& s : seq) {
        if (!s.is_string()) {
          error = "overheads JSON: launches[\"" + clipForMessage(name) + "\"]: expected a list of names";
          return std::nullopt;
        }
        out.push_back(s.get<std::string>());
      }
    }
  }
  if (j.contains("profiler_costs") && j["profiler_costs"].is_object()) {
    const json& c = j["profiler_costs"];
    ProfilerCosts pc;
    const std::pair<const char*, double*> fields[] = {{"cpu_event_overhead_us", &pc.cpuEvent},
                                                      {"gpu_event_overhead_us", &pc.gpuEvent},
                                                      {"kernel_launch_length_us", &pc.launchLength}};
    for (const auto& [key, out] : fields) {
      if (!c.contains(key)) continue;
      if (!c[key].is_number()) {
        error = std::string("overheads JSON: profiler_costs.") + key + ": expected a number";
        return std::nullopt;
      }
      *out = c[key].get<double>();
    }
    m.costs = pc;
  }
  return m;
}

}  // namespace opscope
