#pragma once
// The data behind the breakdown, op-kernel, overhead and stream charts as JSON and CSV
// (`opscope export --chart ... --format json|csv` and the panels' "export data").
// Durations in µs.
#include <string>

#include "analysis/device_breakdown.h"
#include "analysis/op_kernel_mix.h"
#include "analysis/overheads.h"
#include "analysis/stream_usage.h"

namespace opscope {

// Nested: streams -> children, each {name, kind, count, time_us, share}.
std::string deviceBreakdownJson(const DeviceBreakdown& b, const Trace& trace, const std::string& path);
// One row per node, depth first: stream,depth,path,name,kind,count,time_us,share
// (path joins the names from the stream down with " > ").
std::string deviceBreakdownCsv(const DeviceBreakdown& b, const Trace& trace);

std::string opKernelMixJson(const OpKernelMixes& m, const Trace& trace, const std::string& path);
// One row per segment: op,op_time_us,variant,variant_calls,variant_time_us,kernel,class,count,time_us,fraction.
std::string opKernelMixCsv(const OpKernelMixes& m, const Trace& trace);

std::string opKernelTableJson(const OpKernelTable& t, const Trace& trace, const std::string& op,
                              const std::string& path);
// shapes,calls,cpu_time_us,gpu_time_us,kernel,class,count,total_us,mean_us.
std::string opKernelTableCsv(const OpKernelTable& t, const Trace& trace);

// The notebook's overheads JSON (what the prediction pane loads) plus "stats": count,
// mean, std, median, p90, min, max per type and name, and the costs' estimate methods.
std::string overheadsJson(const Overheads& o, const ProfilerCostEstimate* estimate);
// type,name,count,mean_us,std_us,median_us,p90_us,min_us,max_us (t1 and t4 per launch
// name, t2, t3, t5 per op name).
std::string overheadsCsv(const Overheads& o);

// Each stream also carries "idle_hta": {"host_wait", "kernel_wait", "other"}, each {"us",
// "gaps", "mean_us", "median_us", "p90_us", "max_us"} (HTA's idle classes), and the
// report "hta_kernel_wait_threshold_us".
std::string streamUsageJson(const StreamUsageReport& r, const Trace& trace, const std::string& path);
// stream,events,busy_us,idle_us,idle_host_wait_us,idle_other_us,communication_us,
// utilisation, then overlap_us.<other stream> per stream, then hta_host_wait_us,
// hta_kernel_wait_us, hta_other_us.
std::string streamUsageCsv(const StreamUsageReport& r);

}  // namespace opscope
