#pragma once
// What a multi-rank report reads from an opscope-cluster table line besides the line
// itself: its iterations' wall times and its top kernels. A table of 10^6 ranks is read
// again line by line as the report is written (report/rank_summary.h), once per column;
// parsing each line into a document for two small lists made `summary --json` of such a
// table 5 times slower than the text report. This reads them in one pass of nlohmann's
// SAX parser over the line (the same lexer, so the same numbers and the same errors as
// the document), building nothing else.
#include <string>
#include <utility>
#include <vector>

namespace opscope {

// Out of one JSON object's text, as iterationWallUs and the report's top-kernel list read
// the parsed document (a repeated top-level or element key: its last value counts, as in
// the document):
//  - iterations (when not null): per element of its "iteration_list" array that is an
//    object, "wall_us" when that is a number, else "dur_us" when that is a number;
//  - kernels (when not null): per element of its "top_kernels" array that is an object
//    with a string "name" and a number "total_us", the two, in the array's order.
// A key that is absent or not an array gives an empty list. False with `why` worded as
// the table reader words it ("not JSON (…)", "nested deeper than 256 levels", "not a
// JSON object") when the text is not one object within the readers' depth ceiling.
bool readRankLineFacts(const std::string& text, std::vector<double>* iterations,
                       std::vector<std::pair<std::string, double>>* kernels, std::string& why);

}  // namespace opscope
