#include "report/diff_report.h"

#include <cstdio>
#include <sstream>

#include "report/report_numbers.h"
#include "report/summary_report.h"
#include "text/duration_text.h"
#include "text/json_text.h"

namespace opscope {

namespace {

using ojson = nlohmann::ordered_json;

ojson meanUs(TimeNs total, size_t count) {
  return count == 0 ? ojson(nullptr) : ojson(nsToUs(total) / static_cast<double>(count));
}

ojson rowJson(const DiffRow& r, bool withShape) {
  ojson j;
  j["name"] = r.name;
  if (withShape) j["shape"] = r.shape;
  j["count_a"] = r.countA;
  j["count_b"] = r.countB;
  j["total_us_a"] = nsToUs(r.totalA);
  j["total_us_b"] = nsToUs(r.totalB);
  j["delta_us"] = nsToUs(r.delta());
  j["mean_us_a"] = meanUs(r.totalA, r.countA);
  j["mean_us_b"] = meanUs(r.totalB, r.countB);
  j["ratio"] = r.totalA > 0 ? ojson(static_cast<double>(r.totalB) / static_cast<double>(r.totalA)) : ojson(nullptr);
  // How the sides were matched; each side's own names where they differ.
  j["match"] = matchName(r.match);
  if (r.match != DiffRow::Match::kName) {
    j["names_a"] = r.namesA;
    j["names_b"] = r.namesB;
  }
  return j;
}

ojson wallsJson(const std::vector<TimeNs>& walls) {
  ojson a = ojson::array();
  for (TimeNs w : walls) a.push_back(nsToUs(w));
  return a;
}

ojson meanWallUs(const std::vector<TimeNs>& walls) {
  if (walls.empty()) return nullptr;
  double sum = 0;
  for (TimeNs w : walls) sum += nsToUs(w);
  return sum / static_cast<double>(walls.size());
}

struct Counts {
  size_t added = 0, removed = 0;
  TimeNs totalA = 0, totalB = 0;
};

Counts countsOf(const std::vector<DiffRow>& rows) {
  Counts c;
  for (const DiffRow& r : rows) {
    c.added += r.countA == 0 ? 1 : 0;
    c.removed += r.countB == 0 ? 1 : 0;
    addTo(c.totalA, r.totalA);
    addTo(c.totalB, r.totalB);
  }
  return c;
}

std::string elide(const std::string& s, size_t width) {
  if (s.size() <= width) return s;
  size_t cut = width - 3;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 sequence
  return s.substr(0, cut) + "...";
}

// s padded with spaces to width columns (UTF-8 aware: "µs" is one column wide).
std::string pad(const std::string& s, size_t width, bool left) {
  size_t columns = 0;
  for (unsigned char c : s) columns += (c & 0xC0) != 0x80 ? 1 : 0;
  const std::string fill(columns < width ? width - columns : 0, ' ');
  return left ? fill + s : s + fill;
}

void table(std::ostringstream& out, const char* title, const std::vector<DiffRow>& rows, size_t top) {
  out << title << " (" << rows.size() << " rows, largest change first)\n";
  out << "  " << pad("delta", 13, true) << "  " << pad("A total", 12, true) << "  " << pad("B total", 12, true)
      << "  count A  count B  name\n";
  char counts[48];
  for (size_t i = 0; i < rows.size() && i < top; ++i) {
    const DiffRow& r = rows[i];
    std::string delta = reportDuration(r.delta());
    if (r.delta() > 0) delta.insert(delta.begin(), '+');
    std::snprintf(counts, sizeof counts, "  %7zu  %7zu  ", r.countA, r.countB);
    out << "  " << pad(delta, 13, true) << "  " << pad(reportDuration(r.totalA), 12, true) << "  "
        << pad(reportDuration(r.totalB), 12, true) << counts << elide(r.name, 70);
    if (!r.shape.empty()) out << " " << elide(r.shape, 60);
    if (r.countA == 0) out << "  [only in B]";
    if (r.countB == 0) out << "  [only in A]";
    if (r.match == DiffRow::Match::kBaseName) out << "  [same base name, signatures differ]";
    if (r.match == DiffRow::Match::kRuntimeCall) out << "  [the same call on each vendor]";
    out << "\n";
  }
  if (rows.size() > top) out << "  ... " << rows.size() - top << " more (--top N, or --json for every row)\n";
}

}  // namespace

std::string traceDiffJson(const TraceDiff& d, const DiffLabels& labels) {
  ojson j;
  j["a"] = labels.a;
  j["b"] = labels.b;
  ojson ops = ojson::array(), kernels = ojson::array();
  for (const DiffRow& r : d.ops) ops.push_back(rowJson(r, true));
  for (const DiffRow& r : d.kernels) kernels.push_back(rowJson(r, false));
  j["ops"] = std::move(ops);
  j["kernels"] = std::move(kernels);
  j["iteration_us_a"] = wallsJson(d.iterationWallA);
  j["iteration_us_b"] = wallsJson(d.iterationWallB);
  j["iterations_a"] = labels.iterationsA.empty() ? ojson(nullptr) : ojson(labels.iterationsA);
  j["iterations_b"] = labels.iterationsB.empty() ? ojson(nullptr) : ojson(labels.iterationsB);
  j["per_iteration"] = labels.perIteration;
  // GPU work launched before profiling began: in the rows over a whole trace, apart in a range.
  const auto unlaunched = [](const TraceDiff::Unlaunched& u) {
    return ojson{{"count", u.count}, {"total_us", nsToUs(u.total)}};
  };
  j["gpu_without_launch"] = {{"a", unlaunched(d.withoutLaunchA)},
                             {"b", unlaunched(d.withoutLaunchB)},
                             {"in_rows", labels.iterationsA.empty() && labels.iterationsB.empty()}};
  const Counts o = countsOf(d.ops), k = countsOf(d.kernels);
  j["totals"] = {{"op_rows_added", o.added},
                 {"op_rows_removed", o.removed},
                 {"kernel_rows_added", k.added},
                 {"kernel_rows_removed", k.removed},
                 {"gpu_us_a", nsToUs(k.totalA)},
                 {"gpu_us_b", nsToUs(k.totalB)},
                 {"iteration_us_mean_a", meanWallUs(d.iterationWallA)},
                 {"iteration_us_mean_b", meanWallUs(d.iterationWallB)}};
  return jsonText(j, 2) + "\n";
}

std::string traceDiffCsv(const TraceDiff& d) {
  std::string out = "table,name,shape,count_a,count_b,total_us_a,total_us_b,delta_us,match\n";
  auto quoted = [](const std::string& s) {
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  for (const auto& [table, rows] : {std::pair{"op", &d.ops}, std::pair{"kernel", &d.kernels}})
    for (const DiffRow& r : *rows)
      out += std::string(table) + "," + quoted(r.name) + "," + quoted(r.shape) + "," + std::to_string(r.countA) + "," +
             std::to_string(r.countB) + "," + usText(r.totalA) + "," + usText(r.totalB) + "," + usText(r.delta()) +
             "," + quoted(matchName(r.match)) + "\n";
  return out;
}

std::string traceDiffText(const TraceDiff& d, const DiffLabels& labels, size_t top) {
  std::ostringstream out;
  auto range = [](const std::string& r) { return r.empty() ? std::string() : " (iterations " + r + ")"; };
  out << "A: " << labels.a << range(labels.iterationsA) << "\n";
  out << "B: " << labels.b << range(labels.iterationsB) << "\n";
  if (labels.perIteration) out << "times are per iteration\n";
  auto mean = [](const std::vector<TimeNs>& w) {
    TimeNs sum = 0;
    for (TimeNs v : w) addTo(sum, v);
    return w.empty() ? std::string("-") : reportDuration(sum / static_cast<TimeNs>(w.size()));
  };
  out << "iterations: A " << d.iterationWallA.size() << " (mean " << mean(d.iterationWallA) << "), B "
      << d.iterationWallB.size() << " (mean " << mean(d.iterationWallB) << ")\n";
  const Counts k = countsOf(d.kernels);
  out << "GPU time: A " << reportDuration(k.totalA) << ", B " << reportDuration(k.totalB) << " ("
      << (k.totalB >= k.totalA ? "+" : "") << reportDuration(k.totalB - k.totalA) << ")\n";
  if (d.withoutLaunchA.count + d.withoutLaunchB.count > 0)
    out << "GPU work launched before profiling began (no launch in the trace): A " << d.withoutLaunchA.count << " ("
        << reportDuration(d.withoutLaunchA.total) << "), B " << d.withoutLaunchB.count << " ("
        << reportDuration(d.withoutLaunchB.total) << ")"
        << (labels.iterationsA.empty() && labels.iterationsB.empty() ? ", in the rows below"
                                                                     : ", in no iteration: left out of the rows")
        << "\n";
  out << "\n";
  table(out, "GPU kernels, memcpys and memsets", d.kernels, top);
  out << "\n";
  table(out, "CPU ops, annotations and runtime calls by name and input shapes", d.ops, top);
  return out.str();
}

}  // namespace opscope
