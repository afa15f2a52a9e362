// Memory bandwidth per copy kind (analysis/memory_bandwidth.h): bytes, time and achieved
// GB/s of HtoD, DtoH, DtoD, PtoP copies and memsets, pageable and pinned apart, and the
// concurrent bandwidth of each kind over time; a counter track per device and kind in
// the window's timeline.
//
// JSON contract (names fixed; add, never rename): {"file", "start_us", "wall_us",
// "kinds": [{"kind", "count", "bytes", "us", "gbs", ...}], "series": [{"kind", "points":
// [[t_us, gbs], ...]}]}; kind spelled HtoD, DtoH, DtoD, PtoP, Memset (other copy kinds
// as their names spell them); gbs null when no copy of the kind recorded its bytes.
#include <nlohmann/json.hpp>

#include "analysis/memory_bandwidth.h"
#include "report/analysis_catalog.h"
#include "report/report_numbers.h"
#include "text/json_text.h"

namespace opscope::analyses {

namespace {

double us(TimeNs ns) { return static_cast<double>(ns) / 1000.0; }

nlohmann::ordered_json gbsJson(std::optional<double> v) { return v ? nlohmann::ordered_json(*v) : nullptr; }

nlohmann::ordered_json totalsJson(const CopyTotals& t) {
  return {{"count", t.count}, {"bytes", t.bytes}, {"us", us(t.time)}, {"gbs", gbsJson(t.gbs())}};
}

std::string bandwidthJson(const MemoryBandwidthReport& r, const Trace& trace, const std::string& path) {
  nlohmann::ordered_json j;
  j["file"] = path;
  j["start_us"] = us(r.start - trace.minTs);
  j["wall_us"] = us(r.end - r.start);
  nlohmann::ordered_json kinds = nlohmann::ordered_json::array(), series = nlohmann::ordered_json::array();
  for (const CopyKindBandwidth& k : r.kinds) {
    nlohmann::ordered_json row = {{"kind", k.kind},
                                  {"count", k.all.count},
                                  {"bytes", k.all.bytes},
                                  {"us", us(k.all.time)},
                                  {"gbs", gbsJson(k.all.gbs())}};
    row["without_bytes"] = k.all.withoutBytes;
    row["gbs_mean_of_copies"] = k.all.ratedCopies ? nlohmann::ordered_json(k.all.gbsMeanOfCopies) : nullptr;
    row["gbs_min"] = k.all.ratedCopies ? nlohmann::ordered_json(k.all.gbsMin) : nullptr;
    row["gbs_max"] = k.all.ratedCopies ? nlohmann::ordered_json(k.all.gbsMax) : nullptr;
    row["peak_gbs"] = k.peakGBs;
    row["pageable"] = totalsJson(k.pageable);
    row["pinned"] = totalsJson(k.pinned);
    kinds.push_back(std::move(row));
    nlohmann::ordered_json points = nlohmann::ordered_json::array();
    for (const BandwidthStep& s : k.steps) points.push_back({us(s.ts - trace.minTs), s.gbs});
    series.push_back({{"kind", k.kind}, {"points", std::move(points)}});
  }
  j["kinds"] = std::move(kinds);
  j["series"] = std::move(series);
  return jsonText(j, 2) + "\n";
}

std::string optionalNumber(std::optional<double> v) { return v ? shortestNumber(*v) : std::string(); }

std::string totalsCsv(const CopyTotals& t) {
  return std::to_string(t.count) + "," + std::to_string(t.bytes) + "," + usText(t.time) + "," + optionalNumber(t.gbs());
}

// One row per kind; the series are in the JSON.
std::string bandwidthCsv(const MemoryBandwidthReport& r) {
  std::string out =
      "kind,count,bytes,us,gbs,without_bytes,peak_gbs,pageable_count,pageable_bytes,pageable_us,pageable_gbs,"
      "pinned_count,pinned_bytes,pinned_us,pinned_gbs\n";
  for (const CopyKindBandwidth& k : r.kinds)
    out += k.kind + "," + totalsCsv(k.all) + "," + std::to_string(k.all.withoutBytes) + "," +
           shortestNumber(k.peakGBs) + "," + totalsCsv(k.pageable) + "," + totalsCsv(k.pinned) + "\n";
  return out;
}

}  // namespace

extern const AnalysisKind memory_bandwidth;
const AnalysisKind memory_bandwidth{
    .name = "memory-bandwidth",
    .title = "Memory bandwidth per copy kind",
    .tab = "Copies",
    .help = "bytes, time and achieved GB/s per copy kind (HtoD, DtoH, DtoD, PtoP, Memset), over time",
    .order = 67,
    .scope = AnalysisScope::Window,
    .compute = [](const Trace& trace,
                  const AnalysisRequest& r) { return analysisResult(memoryBandwidth(trace, r.window)); },
    .json = [](const AnalysisResult& v, const Trace& trace, const AnalysisRequest&,
               const std::string& path) { return bandwidthJson(analysisValue<MemoryBandwidthReport>(v), trace, path); },
    .csv = [](const AnalysisResult& v, const Trace&,
              const AnalysisRequest&) { return bandwidthCsv(analysisValue<MemoryBandwidthReport>(v)); },
    .addTimelineCounters = [](Trace& trace) { addMemoryBandwidthCounters(trace); }};

}  // namespace opscope::analyses
