#include "report/summary_report.h"
#include "text/duration_text.h"
#include "text/json_text.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace opscope {

double nsToUs(TimeNs ns) { return static_cast<double>(ns) / 1000.0; }

namespace {
using ojson = nlohmann::ordered_json;

ojson rawIdJson(const RawId& id, const std::string& text) {
  if (id.isString) return text;
  return id.num;
}
}  // namespace

std::string summaryJson(const Summary& s, const std::string& path) {
  ojson j;
  j["file"] = path;
  j["format"] = s.format;
  j["input_bytes"] = s.inputBytes;
  j["json_bytes"] = s.jsonBytes;
  j["events"] = s.eventsRead;
  j["slices"] = s.slices;
  j["wall_us"] = nsToUs(s.wall);
  j["kernels"] = s.kernels;
  j["gpu_events"] = s.gpuEvents;
  j["linked_gpu_events"] = s.linkedGpuEvents;
  j["memcpys"] = s.memcpys;
  j["memsets"] = s.memsets;
  j["launches"] = s.launches;
  j["cpu_ops"] = s.cpuOps;
  j["iterations"] = s.iterations.size();
  j["iteration_us_mean"] = s.iterationMeanNs ? ojson(*s.iterationMeanNs / 1000.0) : ojson(nullptr);
  // numberKey: "step" for ProfilerStep#N, "index" for marker iterations.
  auto iterationRows = [&](const std::vector<Iteration>& list, const char* numberKey) {
    ojson rows = ojson::array();
    for (const Iteration& it : list)
      rows.push_back(
          {{numberKey, it.number}, {"start_us", nsToUs(it.start - s.start)}, {"dur_us", nsToUs(it.end - it.start)}});
    return rows;
  };
  ojson steps = iterationRows(s.iterations, "step");
  // wall_us: to the end of the GPU work the step launched (added after dur_us).
  for (size_t i = 0; i < steps.size() && i < s.iterationWallEnds.size(); ++i)
    steps[i]["wall_us"] = nsToUs(s.iterationWallEnds[i] - s.iterations[i].start);
  j["iteration_list"] = std::move(steps);
  if (!s.iterationMarker.empty()) {
    j["iteration_marker"] = s.iterationMarker;
    j["marker_iterations"] = iterationRows(s.markerIterations, "index");
  }
  if (s.window) j["window_us"] = {{"start", nsToUs(s.window->start)}, {"end", nsToUs(s.window->end)}};
  ojson streams = ojson::array();
  for (const StreamSummary& r : s.streams) {
    ojson row;
    row["pid"] = rawIdJson(r.pid, r.pidText);
    row["tid"] = rawIdJson(r.tid, r.tidText);
    row["events"] = r.events;
    row["busy_us"] = nsToUs(r.busy);
    row["name"] = r.label;
    streams.push_back(row);
  }
  j["streams"] = streams;
  ojson kernels = ojson::array();
  for (const KernelTotal& k : s.topKernels)
    kernels.push_back({{"name", k.name}, {"count", k.count}, {"total_us", nsToUs(k.total)}});
  j["top_kernels"] = kernels;
  ojson ops = ojson::array();
  for (const OpTotal& o : s.topOps)
    ops.push_back({{"name", o.name}, {"count", o.count}, {"cpu_us", nsToUs(o.cpu)}, {"gpu_us", nsToUs(o.gpu)}});
  j["top_ops"] = ops;
  j["processes"] = s.processes;
  j["threads"] = s.threads;
  j["counter_series"] = s.counterSeries;
  j["flows"] = s.flows;
  j["instants"] = s.instants;
  if (s.rank) j["rank"] = *s.rank;
  if (s.worldSize) j["world_size"] = *s.worldSize;
  if (!s.deviceName.empty()) j["device_name"] = s.deviceName;
  // The keys say "gpu" whatever the accelerator; null without a device stream (a CPU-only job,
  // a browser trace), where "GPU" named a device that is not there.
  j["device_kind"] = s.gpuStreams > 0 ? ojson(s.deviceKind) : ojson(nullptr);
  ojson warnings = ojson::array();
  for (const WarningEntry& w : s.warnings) {
    ojson row{{"kind", warningKindName(w.kind)}, {"count", w.count}, {"example", w.example}};
    if (isInformational(w.kind)) row["informational"] = true;
    if (w.firstOffset || w.firstLine) {
      row["first_byte"] = w.firstOffset;
      row["first_line"] = w.firstLine;
    }
    warnings.push_back(row);
  }
  j["warnings"] = warnings;
  return jsonText(j, 2) + "\n";
}

std::string summaryText(const Summary& s, const std::string& path) {
  std::ostringstream o;
  char line[512];
  o << path << "\n";
  auto size = [](uint64_t bytes) {
    char b[32];
    if (bytes >= 1000000) std::snprintf(b, sizeof b, "%.1f MB", static_cast<double>(bytes) / 1e6);
    else std::snprintf(b, sizeof b, "%.1f kB", static_cast<double>(bytes) / 1e3);
    return std::string(b);
  };
  // Formats read through a database (Nsight's SQLite) stream no bytes: "0.0 kB
  // decompressed" would be a figure about nothing.
  o << "  format " << s.format << ", " << size(s.inputBytes) << " on disk, ";
  if (s.jsonBytes > 0)
    o << size(s.jsonBytes) << (s.format.find("json") != std::string::npos ? " of JSON, " : " decompressed, ");
  o << s.eventsRead << " events read, " << s.slices << " slices\n";
  if (!s.deviceName.empty() || s.rank) {
    o << "  device " << (s.deviceName.empty() ? "?" : s.deviceName);
    if (s.rank) o << ", rank " << *s.rank << (s.worldSize ? " of " + std::to_string(*s.worldSize) : "");
    o << "\n";
  }
  o << "  wall time " << reportDuration(s.wall) << "; " << s.processes << " processes, " << s.threads << " threads, "
    << s.gpuStreams << " " << s.deviceKind << " streams\n";
  std::snprintf(line, sizeof line,
                "  %llu cpu ops, %llu launches, %llu kernels, %llu memcpys, %llu memsets; %llu of %llu %s events "
                "linked to their launch\n",
                static_cast<unsigned long long>(s.cpuOps), static_cast<unsigned long long>(s.launches),
                static_cast<unsigned long long>(s.kernels), static_cast<unsigned long long>(s.memcpys),
                static_cast<unsigned long long>(s.memsets), static_cast<unsigned long long>(s.linkedGpuEvents),
                static_cast<unsigned long long>(s.gpuEvents), s.deviceKind.c_str());
  o << line;
  if (s.window) o << "  restricted to events starting in a window of " << reportDuration(s.wall) << "\n";
  if (!s.iterationMarker.empty()) {
    o << "  " << s.markerIterations.size() << " iterations delimited by \"" << s.iterationMarker << "\"";
    if (!s.markerIterations.empty()) {
      long double total = 0;
      for (const Iteration& it : s.markerIterations) total += it.end - it.start;
      o << ", mean " << reportDuration(static_cast<TimeNs>(total / s.markerIterations.size()));
    }
    o << "\n";
  }
  if (s.iterations.empty()) {
    o << "  no ProfilerStep iterations\n";
  } else {
    o << "  " << s.iterations.size() << " iterations (ProfilerStep#" << s.iterations.front().number << ".."
      << s.iterations.back().number << "), mean " << reportDuration(static_cast<TimeNs>(*s.iterationMeanNs)) << "\n";
  }
  if (!s.streams.empty()) {
    std::snprintf(line, sizeof line, "\n%-35s events        busy   busy %%\n", (s.deviceKind + " streams").c_str());
    o << line;
    for (const StreamSummary& r : s.streams) {
      const double pct = s.wall > 0 ? 100.0 * static_cast<double>(r.busy) / static_cast<double>(s.wall) : 0;
      std::snprintf(line, sizeof line, "  %-32s %8llu %12s %7.1f%%\n", r.label.c_str(),
                    static_cast<unsigned long long>(r.events), reportDuration(r.busy).c_str(), pct);
      o << line;
    }
  }
  auto clip = [](const std::string& n, size_t w) { return n.size() <= w ? n : n.substr(0, w - 3) + "..."; };
  if (!s.topKernels.empty()) {
    o << "\nTop kernels by total time                                          count        total\n";
    for (const KernelTotal& k : s.topKernels) {
      std::snprintf(line, sizeof line, "  %-64s %7llu %12s\n", clip(k.name, 64).c_str(),
                    static_cast<unsigned long long>(k.count), reportDuration(k.total).c_str());
      o << line;
    }
  }
  if (!s.topOps.empty()) {
    o << "\nTop-level ops by GPU time                            count      CPU time     GPU time\n";
    for (const OpTotal& op : s.topOps) {
      std::snprintf(line, sizeof line, "  %-48s %7llu %13s %12s\n", clip(op.name, 48).c_str(),
                    static_cast<unsigned long long>(op.count), reportDuration(op.cpu).c_str(),
                    reportDuration(op.gpu).c_str());
      o << line;
    }
  }
  if (!s.warnings.empty()) {
    o << "\nWarnings\n";
    for (const WarningEntry& w : s.warnings) {
      o << "  " << w.count << " x " << warningKindName(w.kind);
      if (!w.example.empty()) o << ": " << w.example;
      if (w.firstLine) o << " (first at byte " << w.firstOffset << ", line " << w.firstLine << ")";
      o << "\n";
    }
  }
  return o.str();
}

}  // namespace opscope
