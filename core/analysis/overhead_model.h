#pragma once
// Overhead statistics as the prediction pane consumes them, saved and loaded in the
// notebook's overheads_<model>.json shape:
//   {"t1": [mean, std], "t2": {op: [mean, std]}, "t3": {...}, "t4": {launch: [mean, std]},
//    "t5": {...}, "launches": {op: [launch names]}}
// plus fields the notebook lacks, which a reader of that shape ignores: "counts" (the
// sample count behind every pair, same nesting), "medians" ({"t4": {launch: median}}:
// the launch cost the prediction uses, robust to the first call's module loading and to
// outliers) and "profiler_costs". Means, std and medians in µs; t1 of a trace without T1
// samples is [0, 0] with count 0.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "analysis/overheads.h"

namespace opscope {

struct MeanStd {
  double mean = 0, std = 0;
  uint64_t count = 0;
  std::optional<double> median;  // t4 only; absent in the notebook's files
};

// By op or launch name; found by a string_view without building a string (the
// iteration simulation looks up every op and launch of every iteration).
using MeanStdByName = std::map<std::string, MeanStd, std::less<>>;

struct OverheadModel {
  MeanStd t1;
  MeanStdByName t2, t3, t4, t5;
  std::map<std::string, std::vector<std::string>> launches;
  std::optional<ProfilerCosts> costs;  // absent in files written by the notebook
};

OverheadModel overheadModel(const Overheads& overheads);
std::string overheadModelJson(const OverheadModel& model);
nlohmann::ordered_json overheadModelValue(const OverheadModel& model);
// Reads the notebook's files and ours; on failure nullopt and one line naming the
// field (or the byte offset of a syntax error).
std::optional<OverheadModel> parseOverheadModel(const std::string& text, std::string& error);

}  // namespace opscope
