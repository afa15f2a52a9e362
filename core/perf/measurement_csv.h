#pragma once
// The rows of a microbenchmark CSV (the notebook's GEMM table, the convolution sweep of
// tools/record_gpu_traces.py): a header naming the columns, any order, extra columns
// ignored. A row with an empty or missing cell in a column asked for is skipped (the
// notebook drops such rows: dropna); any other unreadable cell is a one-line error
// naming the line and column, as is a missing column (line 1) or a file with no
// complete row.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace opscope {

struct CsvColumn {
  const char* name;
  bool number = true;    // else text, taken as written (trimmed)
  bool zeroOk = false;   // numbers: 0 allowed (a padding); else they must be > 0
  bool emptyOk = false;  // text: an empty cell is "" rather than an incomplete row
  double wholeUpTo = 0;  // numbers, > 0: a whole number no larger (a dimension, cast to int64)
};

struct CsvRow {
  size_t line = 0;                 // 1-based, for messages
  std::vector<double> numbers;     // the number columns asked for, in order
  std::vector<std::string> texts;  // the text columns asked for, in order
};

// Whether the CSV's first line names the column (cells trimmed as readMeasurementCsv
// trims them).
bool csvHeaderHas(std::string_view text, std::string_view column);

// needs: what the header must name, for the message ("batch_size, M, N, K, kernel_runtime").
std::optional<std::vector<CsvRow>> readMeasurementCsv(std::string_view text, const std::vector<CsvColumn>& columns,
                                                      std::string_view needs, std::string& error);

}  // namespace opscope
