#pragma once
// `opscope diff` output. JSON (the contract other tools read; keys are only ever added):
//   {"a", "b", "ops": [{"name", "shape", "count_a", "count_b", "total_us_a", "total_us_b",
//    "delta_us", "mean_us_a", "mean_us_b", "ratio"}], "kernels": [{"name", "count_a",
//    "count_b", "total_us_a", "total_us_b", "delta_us", "mean_us_a", "mean_us_b",
//    "ratio"}], "iteration_us_a", "iteration_us_b", "iterations_a", "iterations_b",
//    "per_iteration", "totals"}
// Rows sorted by |delta_us|, largest first; a row on one side only has the other
// side's count 0 and total 0 (mean null there, ratio null when total_us_a is 0).
// "kernels" holds every GPU event kind that runs on a stream: kernels, memcpys, memsets.
// Every row also has "match": "name", "base name" (kernels whose signatures differ
// only in template arguments or parameters) or "runtime call" (cudaX <-> hipX); rows
// matched other than by name add "names_a" and "names_b", each side's own names. CSV:
// a last column, match.
// iterations_a/b: the range compared ("FIRST:COUNT" as given, null: the whole trace).
// totals: {"op_rows_added", "op_rows_removed", "kernel_rows_added",
// "kernel_rows_removed", "gpu_us_a", "gpu_us_b", "iteration_us_mean_a", "iteration_us_mean_b"}.
#include <string>

#include "analysis/trace_diff.h"

namespace opscope {

struct DiffLabels {
  std::string a, b;                      // the files
  std::string iterationsA, iterationsB;  // "FIRST:COUNT", empty: whole trace
  bool perIteration = false;
};

std::string traceDiffJson(const TraceDiff& d, const DiffLabels& labels);
// Every row of both tables: table,name,shape,count_a,count_b,total_us_a,total_us_b,delta_us
// (table "op" or "kernel"; names quoted as CSV needs).
std::string traceDiffCsv(const TraceDiff& d);
// The largest `top` rows of each table, widest names elided; added / removed marked.
std::string traceDiffText(const TraceDiff& d, const DiffLabels& labels, size_t top = 25);

}  // namespace opscope
