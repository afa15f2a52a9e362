// Queue length per GPU stream (analysis/queue_length.h): outstanding launches over
// time, per stream its mean and maximum depth, the time at each depth and at CUDA's
// full launch queue; a counter track per stream in the window's timeline.
#include <nlohmann/json.hpp>

#include "analysis/queue_length.h"
#include "report/analysis_catalog.h"
#include "report/report_numbers.h"
#include "text/json_text.h"

namespace opscope::analyses {

namespace {

double us(TimeNs ns) { return static_cast<double>(ns) / 1000.0; }

std::string queueJson(const QueueLengthReport& r, const Trace& trace, const std::string& path) {
  nlohmann::ordered_json j;
  j["file"] = path;
  j["start_us"] = us(r.start - trace.minTs);
  j["wall_us"] = us(r.end - r.start);
  j["full_queue_depth"] = kFullLaunchQueue;
  nlohmann::ordered_json streams = nlohmann::ordered_json::array();
  for (const StreamQueue& q : r.streams) {
    const Track& t = trace.tracks[q.track];
    nlohmann::ordered_json atDepth = nlohmann::ordered_json::array();
    for (TimeNs d : q.timeAtDepth) atDepth.push_back(us(d));
    streams.push_back({{"stream", q.label},
                       {"device", t.device},
                       {"stream_id", t.stream},
                       {"operations", q.operations},
                       {"without_launch", q.withoutLaunch},
                       {"mean_depth", q.meanDepth},
                       {"max_depth", q.maxDepth},
                       {"full_us", us(q.timeFull)},
                       {"time_at_depth_us", std::move(atDepth)}});
  }
  j["streams"] = std::move(streams);
  return jsonText(j, 2) + "\n";
}

// One row per stream: the summary; the depth distribution is in the JSON.
std::string queueCsv(const QueueLengthReport& r, const Trace& trace) {
  std::string out = "stream,device,stream_id,operations,without_launch,mean_depth,max_depth,empty_us,full_us\n";
  for (const StreamQueue& q : r.streams) {
    const Track& t = trace.tracks[q.track];
    std::string label = q.label;
    for (char& c : label)
      if (c == ',' || c == '"' || c == '\n') c = ' ';
    out += label + "," + std::to_string(t.device) + "," + std::to_string(t.stream) + "," +
           std::to_string(q.operations) + "," + std::to_string(q.withoutLaunch) + "," + shortestNumber(q.meanDepth) +
           "," + std::to_string(q.maxDepth) + "," + usText(q.timeAtDepth.empty() ? 0 : q.timeAtDepth[0]) + "," +
           usText(q.timeFull) + "\n";
  }
  return out;
}

}  // namespace

extern const AnalysisKind queue_length;
const AnalysisKind queue_length{
    .name = "queue-length",
    .title = "Queue length per stream: launches waiting on the GPU",
    .tab = "Queues",
    .help = "outstanding launches per stream over time: mean, max, time at each depth",
    .order = 65,
    .scope = AnalysisScope::Window,
    .compute = [](const Trace& trace,
                  const AnalysisRequest& r) { return analysisResult(queueLength(trace, r.window)); },
    .json = [](const AnalysisResult& v, const Trace& trace, const AnalysisRequest&,
               const std::string& path) { return queueJson(analysisValue<QueueLengthReport>(v), trace, path); },
    .csv = [](const AnalysisResult& v, const Trace& trace,
              const AnalysisRequest&) { return queueCsv(analysisValue<QueueLengthReport>(v), trace); },
    .addTimelineCounters = [](Trace& trace) { addQueueLengthCounters(trace); }};

}  // namespace opscope::analyses
