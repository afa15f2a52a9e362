#pragma once
// `opscope roofline` (perf/roofline.h) as JSON, CSV and text. The JSON is a contract
// other tools read: names and meanings never change, keys may be added.
//
//   {"file", "gpu", "gpu_source", "window": {"start_us", "end_us"} | null,
//    "peaks": {"<dtype>_tflops": …, "dram_tbs": …},
//    "ops": [{"name", "input_dims", "dtype", "category", "count", "kernel_us_total",
//             "kernel_us_mean", "flops", "bytes", "flops_per_byte", "tflops_s", "tbs",
//             "bound", "roof_pct", "at_stake_us", "peak_tflops", "tensor_core"}]}
//
// flops and bytes are per call (the mean where calls differ); bound is "compute",
// "memory", or "link" (collectives: bus bytes against the link); rows by at_stake_us. CSV: one row per op,
// the same keys as columns (input_dims quoted).
#include <string>

#include "perf/roofline.h"

namespace opscope {

std::string rooflineJson(const Roofline& r, const Trace& trace, const std::string& file, const std::string& gpuSource);
std::string rooflineCsv(const Roofline& r);
std::string rooflineText(const Roofline& r, const std::string& file, const std::string& gpuSource, size_t top = 25);

}  // namespace opscope
