#pragma once
// Renderings of a Summary: the JSON contract of `opscope summary --json` and the
// readable table of `opscope summary`.
#include <string>

#include "analysis/summary.h"

namespace opscope {

// One JSON object. Contract keys (names and meanings fixed; add, never rename):
// kernels, gpu_events, linked_gpu_events, iterations, iteration_us_mean, streams,
// top_kernels, top_ops. Durations are µs numbers exact to the ns.
std::string summaryJson(const Summary& s, const std::string& path);
std::string summaryText(const Summary& s, const std::string& path);

// ns -> µs as a double whose shortest decimal text is exact to the ns (5100 -> 5.1).
double nsToUs(TimeNs ns);
// Human text: "1.234 ms", "56.7 µs", "2.345 s".

}  // namespace opscope
