#include "report/breakdown_report.h"

#include <nlohmann/json.hpp>

#include "analysis/overhead_model.h"
#include "analysis/sample_stats.h"
#include "report/analysis_report.h"
#include "report/report_numbers.h"
#include "report/summary_report.h"
#include "text/json_text.h"

namespace opscope {

namespace {

using ojson = nlohmann::ordered_json;

const char* breakdownKindName(const BreakdownNode& n) {
  switch (n.kind) {
    case BreakdownKind::Stream:
      return "stream";
    case BreakdownKind::Op:
      return "op";
    case BreakdownKind::Unattributed:
      return "unattributed";
    case BreakdownKind::Gpu:
      return n.gpuKind == SliceKind::Memcpy ? "memcpy" : n.gpuKind == SliceKind::Memset ? "memset" : "kernel";
  }
  return "?";
}

std::string className(const std::vector<std::string>& classes, int32_t cls) {
  return cls >= 0 ? classes[static_cast<size_t>(cls)] : "other";
}

ojson breakdownNode(const DeviceBreakdown& b, const Trace& trace, uint32_t n) {
  const BreakdownNode& node = b.nodes[n];
  ojson j = {{"name", breakdownLabel(trace, node)},
             {"kind", breakdownKindName(node)},
             {"count", node.count},
             {"time_us", nsToUs(node.time)},
             {"share", node.share}};
  if (!node.children.empty()) {
    ojson children = ojson::array();
    for (uint32_t c : node.children) children.push_back(breakdownNode(b, trace, c));
    j["children"] = std::move(children);
  }
  return j;
}

ojson statsValue(const std::vector<double>& v) {
  const SampleStats s = describe(v);
  return {{"count", s.count}, {"mean", s.mean}, {"std", s.stddev}, {"median", s.median},
          {"p90", s.p90},     {"min", s.min},   {"max", s.max}};
}

std::string statsRow(const char* type, std::string_view name, const std::vector<double>& v) {
  const SampleStats s = describe(v);
  return std::string(type) + "," + csvField(name) + "," + std::to_string(s.count) + "," + shortestNumber(s.mean) + "," +
         shortestNumber(s.stddev) + "," + shortestNumber(s.median) + "," + shortestNumber(s.p90) + "," +
         shortestNumber(s.min) + "," + shortestNumber(s.max) + "\n";
}

}  // namespace

std::string deviceBreakdownJson(const DeviceBreakdown& b, const Trace& trace, const std::string& path) {
  ojson j;
  j["file"] = path;
  j["device_time_us"] = nsToUs(b.total);
  ojson streams = ojson::array();
  for (uint32_t r : b.roots) streams.push_back(breakdownNode(b, trace, r));
  j["streams"] = std::move(streams);
  return jsonText(j, 2) + "\n";
}

std::string deviceBreakdownCsv(const DeviceBreakdown& b, const Trace& trace) {
  std::string out = "stream,depth,path,name,kind,count,time_us,share\n";
  struct Item {
    uint32_t node;
    uint32_t depth;
    std::string path;
  };
  for (uint32_t r : b.roots) {
    const std::string stream = breakdownLabel(trace, b.nodes[r]);
    std::vector<Item> stack{{r, 0, stream}};
    while (!stack.empty()) {
      Item it = std::move(stack.back());
      stack.pop_back();
      const BreakdownNode& n = b.nodes[it.node];
      const std::string name = breakdownLabel(trace, n);
      out += csvField(stream) + "," + std::to_string(it.depth) + "," + csvField(it.path) + "," + csvField(name) + "," +
             breakdownKindName(n) + "," + std::to_string(n.count) + "," + usText(n.time) + "," +
             shortestNumber(n.share) + "\n";
      for (auto c = n.children.rbegin(); c != n.children.rend(); ++c)
        stack.push_back({*c, it.depth + 1, it.path + " > " + breakdownLabel(trace, b.nodes[*c])});
    }
  }
  return out;
}

std::string opKernelMixJson(const OpKernelMixes& m, const Trace& trace, const std::string& path) {
  ojson j;
  j["file"] = path;
  j["device_time_us"] = nsToUs(m.total);
  ojson ops = ojson::array();
  for (const OpMix& op : m.ops) {
    ojson variants = ojson::array();
    for (const OpVariant& v : op.variants) {
      ojson segments = ojson::array();
      for (const MixSegment& s : v.segments)
        segments.push_back({{"kernel", std::string(trace.str(s.kernel))},
                            {"class", className(m.classes, s.cls)},
                            {"count", s.count},
                            {"time_us", nsToUs(s.time)},
                            {"fraction", s.fraction}});
      variants.push_back({{"calls", v.calls}, {"time_us", nsToUs(v.time)}, {"segments", std::move(segments)}});
    }
    ops.push_back({{"op", std::string(trace.str(op.name))},
                   {"calls", op.calls},
                   {"time_us", nsToUs(op.time)},
                   {"variants", std::move(variants)},
                   {"hidden_variants", op.hiddenVariants},
                   {"hidden_time_us", nsToUs(op.hiddenTime)}});
  }
  j["ops"] = std::move(ops);
  return jsonText(j, 2) + "\n";
}

std::string opKernelMixCsv(const OpKernelMixes& m, const Trace& trace) {
  std::string out = "op,op_time_us,variant,variant_calls,variant_time_us,kernel,class,count,time_us,fraction\n";
  for (const OpMix& op : m.ops)
    for (size_t v = 0; v < op.variants.size(); ++v)
      for (const MixSegment& s : op.variants[v].segments)
        out += csvField(trace.str(op.name)) + "," + usText(op.time) + "," + std::to_string(v + 1) + "," +
               std::to_string(op.variants[v].calls) + "," + usText(op.variants[v].time) + "," +
               csvField(trace.str(s.kernel)) + "," + csvField(className(m.classes, s.cls)) + "," +
               std::to_string(s.count) + "," + usText(s.time) + "," + shortestNumber(s.fraction) + "\n";
  return out;
}

std::string opKernelTableJson(const OpKernelTable& t, const Trace& trace, const std::string& op,
                              const std::string& path) {
  ojson j;
  j["file"] = path;
  j["op"] = op;
  ojson groups = ojson::array();
  for (const OpShapeGroup& g : t.groups) {
    ojson kernels = ojson::array();
    for (const OpKernelRow& k : g.kernels)
      kernels.push_back({{"kernel", std::string(trace.str(k.kernel))},
                         {"class", className(t.classes, k.cls)},
                         {"count", k.count},
                         {"total_us", nsToUs(k.total)},
                         {"mean_us", k.mean / 1000.0}});
    groups.push_back({{"input_dims", g.shapes},
                      {"calls", g.calls},
                      {"cpu_time_us", nsToUs(g.cpuTime)},
                      {"gpu_time_us", nsToUs(g.gpuTime)},
                      {"kernels", std::move(kernels)}});
  }
  j["groups"] = std::move(groups);
  if (!t.error.empty()) j["error"] = t.error;
  return jsonText(j, 2) + "\n";
}

std::string opKernelTableCsv(const OpKernelTable& t, const Trace& trace) {
  std::string out = "shapes,calls,cpu_time_us,gpu_time_us,kernel,class,count,total_us,mean_us\n";
  for (const OpShapeGroup& g : t.groups)
    for (const OpKernelRow& k : g.kernels)
      out += csvField(g.shapes) + "," + std::to_string(g.calls) + "," + usText(g.cpuTime) + "," + usText(g.gpuTime) +
             "," + csvField(trace.str(k.kernel)) + "," + csvField(className(t.classes, k.cls)) + "," +
             std::to_string(k.count) + "," + usText(k.total) + "," + shortestNumber(k.mean / 1000.0) + "\n";
  return out;
}

std::string overheadsJson(const Overheads& o, const ProfilerCostEstimate* estimate) {
  ojson j = overheadModelValue(overheadModel(o));
  ojson stats;
  stats["t1"] = statsValue(o.t1);
  for (const LaunchOverheads& l : o.t4) stats["t4"][l.name] = statsValue(l.t4);
  for (const OpOverheads& op : o.ops) {
    if (!op.t2.empty()) stats["t2"][op.name] = statsValue(op.t2);
    if (!op.t3.empty()) stats["t3"][op.name] = statsValue(op.t3);
    if (!op.t5.empty()) stats["t5"][op.name] = statsValue(op.t5);
  }
  j["stats"] = std::move(stats);
  // Which standard deviation "std" is: the population's (divided by n, as numpy's default
  // and the seed notebooks); Holistic Trace Analysis reports the sample's (pandas, n - 1).
  j["std_kind"] = "population";
  j["t1_max_gap_us"] = o.t1MaxGapUs;
  j["top_level_ops"] = o.topLevelOps;
  if (estimate)
    j["profiler_costs_estimate"] = {{"cpu_event_overhead", estimate->cpuEventMethod},
                                    {"gpu_event_overhead", estimate->gpuEventMethod},
                                    {"kernel_launch_length", estimate->launchLengthMethod}};
  return jsonText(j, 1) + "\n";
}

std::string overheadsCsv(const Overheads& o) {
  std::string out = "type,name,count,mean_us,std_us,median_us,p90_us,min_us,max_us\n";
  out += statsRow("t1", "", o.t1);
  for (const OpOverheads& op : o.ops)
    if (!op.t2.empty()) out += statsRow("t2", op.name, op.t2);
  for (const OpOverheads& op : o.ops)
    if (!op.t3.empty()) out += statsRow("t3", op.name, op.t3);
  for (const LaunchOverheads& l : o.t4) out += statsRow("t4", l.name, l.t4);
  for (const OpOverheads& op : o.ops)
    if (!op.t5.empty()) out += statsRow("t5", op.name, op.t5);
  return out;
}

ojson idleClassJson(const IdleClass& c) {
  return {{"us", nsToUs(c.time)},         {"gaps", c.gapsUs.count}, {"mean_us", c.gapsUs.mean},
          {"median_us", c.gapsUs.median}, {"p90_us", c.gapsUs.p90}, {"max_us", c.gapsUs.max}};
}

std::string streamUsageJson(const StreamUsageReport& r, const Trace& trace, const std::string& path) {
  ojson j;
  j["file"] = path;
  j["start_us"] = nsToUs(r.start - trace.minTs);
  j["wall_us"] = nsToUs(r.wall);
  j["gpu_active_us"] = nsToUs(r.gpuActive);
  j["communication_us"] = nsToUs(r.communication);
  j["computation_us"] = nsToUs(r.computation);
  j["communication_hidden_us"] = nsToUs(r.commHidden);
  j["communication_hidden_share"] = r.commHiddenShare;
  ojson streams = ojson::array();
  for (size_t i = 0; i < r.streams.size(); ++i) {
    const StreamUsage& s = r.streams[i];
    ojson overlap = ojson::object();
    for (size_t k = 0; k < r.streams.size(); ++k)
      if (k != i) overlap[r.streams[k].label] = nsToUs(r.overlapOf(i, k));
    streams.push_back({{"stream", s.label},
                       {"events", s.events},
                       {"busy_us", nsToUs(s.busy)},
                       {"idle_us", nsToUs(s.idle)},
                       {"idle_host_wait_us", nsToUs(s.idleHostWait)},
                       {"idle_other_us", nsToUs(s.idleOther)},
                       {"communication_us", nsToUs(s.communication)},
                       {"utilisation", s.utilisation},
                       {"overlap_us", std::move(overlap)},
                       {"idle_hta",
                        {{"host_wait", idleClassJson(s.htaHostWait)},
                         {"kernel_wait", idleClassJson(s.htaKernelWait)},
                         {"other", idleClassJson(s.htaOther)}}}});
  }
  j["streams"] = std::move(streams);
  j["hta_kernel_wait_threshold_us"] = nsToUs(kHtaKernelWaitNs);
  j["utilisation_bin_us"] = nsToUs(r.binWidth);
  j["utilisation"] = r.utilisation;
  return jsonText(j, 2) + "\n";
}

std::string streamUsageCsv(const StreamUsageReport& r) {
  std::string out = "stream,events,busy_us,idle_us,idle_host_wait_us,idle_other_us,communication_us,utilisation";
  for (const StreamUsage& s : r.streams) {
    out += ",";
    out += csvField("overlap_us." + s.label);
  }
  out += ",hta_host_wait_us,hta_kernel_wait_us,hta_other_us\n";  // added last: earlier columns keep their places
  for (size_t i = 0; i < r.streams.size(); ++i) {
    const StreamUsage& s = r.streams[i];
    out += csvField(s.label) + "," + std::to_string(s.events) + "," + usText(s.busy) + "," + usText(s.idle) + "," +
           usText(s.idleHostWait) + "," + usText(s.idleOther) + "," + usText(s.communication) + "," +
           shortestNumber(s.utilisation);
    for (size_t k = 0; k < r.streams.size(); ++k) {
      out += ',';
      out += usText(r.overlapOf(i, k));
    }
    out += "," + usText(s.htaHostWait.time) + "," + usText(s.htaKernelWait.time) + "," + usText(s.htaOther.time) + "\n";
  }
  return out;
}

}  // namespace opscope
