#pragma once
// `opscope predict` output. JSON contract (other tools rely on it; add fields, never
// rename): {"iterations": [{"index", "measured_us", "predicted_us", ...}], "gpu",
// "error_pct_mean", ...}; without --replay also "ops": [{..., "model"}] where model is
// "no model" when the op has none (its "predicted_us" is then null).
#include <string>

#include "model/trace.h"
#include "perf/prediction.h"

namespace opscope {

std::string predictionJson(const Trace& trace, const PredictionResult& r, const std::string& file);
// For people: the iterations, the error figures and the op types with the most GPU time.
std::string predictionText(const Trace& trace, const PredictionResult& r, const std::string& file, size_t topOps = 15);
// The per-op rows as CSV (the pane's export).
std::string predictionCsv(const Trace& trace, const PredictionResult& r);
// What priced the ops' efficiency, in words, as the text report and the dock say it:
// "learned curves, built-in (…), fitted on 20 traces; this trace is not one of them (out
// of sample)", or the datasheet's figures.
std::string efficiencySource(const PredictionResult& r);
// `predict --fit-samples`: one row per op a model prices (datasheetLeaves) with what
// tools/fit_efficiency.py fits on: file,gpu,vendor,fingerprint,op,model,family,dtype,at_floor,gpu_events,
// datasheet_us,measured_us (µs; sampled-out ops, measured at most kSampledOutUs, left out).
std::string fitSamplesCsv(const Trace& trace, const std::vector<OpRow>& leaves, const GpuSpec& gpu,
                          const std::string& file);

}  // namespace opscope
