#include "perf/measurement_csv.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "text/clip.h"

namespace opscope {

namespace {

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream s(line);
  while (std::getline(s, cell, ',')) {
    while (!cell.empty() && (cell.back() == '\r' || cell.back() == ' ')) cell.pop_back();
    while (!cell.empty() && cell.front() == ' ') cell.erase(cell.begin());
    out.push_back(cell);
  }
  return out;
}

}  // namespace

bool csvHeaderHas(std::string_view text, std::string_view column) {
  const std::vector<std::string> header = cells(std::string(text.substr(0, text.find('\n'))));
  return std::find(header.begin(), header.end(), column) != header.end();
}

std::optional<std::vector<CsvRow>> readMeasurementCsv(std::string_view text, const std::vector<CsvColumn>& columns,
                                                      std::string_view needs, std::string& error) {
  std::istringstream in{std::string(text)};
  std::string line;
  if (!std::getline(in, line)) {
    error = "empty microbenchmark CSV";
    return std::nullopt;
  }
  const std::vector<std::string> header = cells(line);
  std::vector<size_t> col;
  for (const CsvColumn& c : columns) {
    const auto it = std::find(header.begin(), header.end(), c.name);
    if (it == header.end()) {
      error = std::string("line 1: no column \"") + c.name + "\" (needs " + std::string(needs) + ")";
      return std::nullopt;
    }
    col.push_back(static_cast<size_t>(it - header.begin()));
  }
  std::vector<CsvRow> rows;
  for (size_t lineNo = 2; std::getline(in, line); ++lineNo) {
    if (line.find_first_not_of(" \r") == std::string::npos) continue;
    const std::vector<std::string> row = cells(line);
    CsvRow r;
    r.line = lineNo;
    bool complete = true;
    for (size_t i = 0; i < columns.size() && complete; ++i) {
      const bool present = col[i] < row.size() && !row[col[i]].empty();
      if (!present && !columns[i].number && columns[i].emptyOk) {
        r.texts.emplace_back();
        continue;
      }
      if (!present) {
        complete = false;
        break;
      }
      const std::string& cell = row[col[i]];
      if (!columns[i].number) {
        r.texts.push_back(cell);
        continue;
      }
      char* end = nullptr;
      const double v = std::strtod(cell.c_str(), &end);
      if (*end != '\0' || !std::isfinite(v) || v < 0 || (v == 0 && !columns[i].zeroOk)) {
        error = "line " + std::to_string(lineNo) + ", column " + columns[i].name + ": \"" + clipForMessage(cell) +
                "\" is not a " + (columns[i].zeroOk ? "number ≥ 0" : "positive number");
        return std::nullopt;
      }
      if (columns[i].wholeUpTo > 0 && (v > columns[i].wholeUpTo || v != std::floor(v))) {
        char limit[32];
        std::snprintf(limit, sizeof limit, "%.0f", columns[i].wholeUpTo);
        error = "line " + std::to_string(lineNo) + ", column " + columns[i].name + ": \"" + clipForMessage(cell) +
                "\" is not a whole number up to " + limit;
        return std::nullopt;
      }
      r.numbers.push_back(v);
    }
    if (complete) rows.push_back(std::move(r));
  }
  if (rows.empty()) {
    error = "the microbenchmark CSV has no complete row";
    return std::nullopt;
  }
  return rows;
}

}  // namespace opscope
