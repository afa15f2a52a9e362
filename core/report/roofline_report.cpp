#include "report/roofline_report.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "report/analysis_report.h"
#include "report/report_numbers.h"
#include "report/summary_report.h"
#include "text/duration_text.h"
#include "text/json_text.h"

namespace opscope {

using ojson = nlohmann::ordered_json;

std::string rooflineJson(const Roofline& r, const Trace& trace, const std::string& file, const std::string& gpuSource) {
  ojson j;
  j["file"] = file;
  j["gpu"] = r.gpu.name;
  j["gpu_source"] = gpuSource;
  j["window"] = r.window ? ojson{{"start_us", nsToUs(r.window->start - trace.minTs)},
                                 {"end_us", nsToUs(r.window->end - trace.minTs)}}
                         : ojson(nullptr);
  ojson peaks = ojson::object();
  for (const auto& [k, v] : r.peaks) peaks[k + "_tflops"] = v;
  peaks["dram_tbs"] = r.dramTBs;
  j["peaks"] = std::move(peaks);
  ojson ops = ojson::array();
  for (const RooflineRow& o : r.ops)
    ops.push_back({{"name", o.name},
                   {"input_dims", o.inputDims},
                   {"dtype", o.dtype},
                   {"category", o.category},
                   {"count", o.count},
                   {"kernel_us_total", nsToUs(o.kernelTotal)},
                   {"kernel_us_mean", o.kernelMeanUs()},
                   {"flops", o.flops},
                   {"bytes", o.bytes},
                   {"flops_per_byte", o.flopsPerByte()},
                   {"tflops_s", o.tflopsS()},
                   {"tbs", o.tbs()},
                   {"bound", o.bound(r.dramTBs)},
                   {"roof_pct", o.roofPct(r.dramTBs)},
                   {"at_stake_us", o.atStakeUs(r.dramTBs)},
                   {"peak_tflops", o.peakTflops},
                   {"tensor_core", o.tensorCore}});
  j["ops"] = std::move(ops);
  return jsonText(j, 2) + "\n";
}

std::string rooflineCsv(const Roofline& r) {
  std::string out =
      "name,input_dims,dtype,category,count,kernel_us_total,kernel_us_mean,flops,bytes,flops_per_byte,tflops_s,tbs,"
      "bound,roof_pct,at_stake_us,peak_tflops,tensor_core\n";
  for (const RooflineRow& o : r.ops)
    out += csvField(o.name) + "," + csvField(o.inputDims) + "," + o.dtype + "," + csvField(o.category) + "," +
           std::to_string(o.count) + "," + usText(o.kernelTotal) + "," + shortestNumber(o.kernelMeanUs()) + "," +
           shortestNumber(o.flops) + "," + shortestNumber(o.bytes) + "," + shortestNumber(o.flopsPerByte()) + "," +
           shortestNumber(o.tflopsS()) + "," + shortestNumber(o.tbs()) + "," + o.bound(r.dramTBs) + "," +
           shortestNumber(o.roofPct(r.dramTBs)) + "," + shortestNumber(o.atStakeUs(r.dramTBs)) + "," +
           shortestNumber(o.peakTflops) + "," + (o.tensorCore ? "true" : "false") + "\n";
  return out;
}

std::string rooflineText(const Roofline& r, const std::string& file, const std::string& gpuSource, size_t top) {
  std::ostringstream out;
  out << file << ": roofline on " << r.gpu.name << " (" << gpuSource << ")\n  peaks:";
  char b[256];
  for (const auto& [k, v] : r.peaks) {
    std::snprintf(b, sizeof b, " %s %.4g TFLOP/s,", k.c_str(), v);
    out << b;
  }
  std::snprintf(b, sizeof b, " DRAM %.4g TB/s\n\n", r.dramTBs);
  out << b;
  out << "  at stake     total  calls  TFLOP/s   TB/s  FLOP/B  roof %  bound    dtype  op (input dims)\n";
  for (size_t i = 0; i < r.ops.size() && i < top; ++i) {
    const RooflineRow& o = r.ops[i];
    std::string name = o.name + (o.inputDims.empty() ? "" : " " + o.inputDims);
    if (name.size() > 90) name = name.substr(0, 87) + "...";
    std::snprintf(b, sizeof b, "  %9s %9s %6llu %8.2f %6.2f %7.1f %7.1f  %-7s  %-5s  %s\n",
                  reportDuration(static_cast<TimeNs>(o.atStakeUs(r.dramTBs) * 1000)).c_str(),
                  reportDuration(o.kernelTotal).c_str(), static_cast<unsigned long long>(o.count), o.tflopsS(), o.tbs(),
                  o.flopsPerByte(), o.roofPct(r.dramTBs), o.bound(r.dramTBs), o.dtype.c_str(), name.c_str());
    out << b;
  }
  if (r.ops.size() > top) out << "  ... " << r.ops.size() - top << " more (--json or --csv for every row)\n";
  if (r.ops.empty()) out << "  no op a model prices (the trace records no input shapes: record_shapes=True)\n";
  return out.str();
}

}  // namespace opscope
