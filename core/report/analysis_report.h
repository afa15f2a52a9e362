#pragma once
// The data behind the analysis charts as JSON and CSV (`opscope export --format json|csv`
// and the panels' "export data"). Durations in µs, exact to the ns, like summary --json.
#include <string>

#include "analysis/kernel_stats.h"
#include "analysis/overview.h"

namespace opscope {

std::string overviewJson(const Overview& o, const Trace& trace, const std::string& path);
// metric,value rows: the scalar figures, then breakdown.<part>_us and stream rows.
std::string overviewCsv(const Overview& o);

// kernels: top limit rows by total (all when limit is 0), and the class totals.
std::string kernelStatsJson(const KernelStats& k, const Trace& trace, const std::string& path, size_t limit = 0);
// One row per kernel name: name,kind,class,count,total_us,mean_us,min_us,max_us,std_us,share.
std::string kernelStatsCsv(const KernelStats& k, const Trace& trace, size_t limit = 0);

// A CSV field, quoted when it holds a comma, quote or line break (RFC 4180).
std::string csvField(std::string_view s);

}  // namespace opscope
