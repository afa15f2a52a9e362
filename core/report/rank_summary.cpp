#include "report/rank_summary.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include "io/file_read.h"
#include "io/input_limits.h"
#include "ranks/rank_inputs.h"
#include "report/rank_line_facts.h"
#include "report/rank_metrics_json.h"

namespace opscope {

using ojson = nlohmann::ordered_json;

// The table's descriptor, open for the life of the ranks that point into it.
struct RankTableFile {
  int fd = -1;
  explicit RankTableFile(int f) : fd(f) {}
  RankTableFile(const RankTableFile&) = delete;
  RankTableFile& operator=(const RankTableFile&) = delete;
  ~RankTableFile() {
    if (fd >= 0) ::close(fd);
  }
};

std::vector<double> iterationWallUs(const ojson& summary) {
  std::vector<double> out;
  if (!summary.is_object() || !summary.contains("iteration_list") || !summary["iteration_list"].is_array()) return out;
  for (const ojson& it : summary["iteration_list"]) {
    if (!it.is_object()) continue;
    if (it.contains("wall_us") && it["wall_us"].is_number()) out.push_back(it["wall_us"].get<double>());
    else if (it.contains("dur_us") && it["dur_us"].is_number()) out.push_back(it["dur_us"].get<double>());
  }
  return out;
}

namespace {

// Parses one line; keep (when set) names the top-level keys kept, the others skipped as
// they are read. Depth beyond the trace readers' ceiling stops the parse (deep nesting
// would overflow the stack when the entry is written out again). False with `why`.
bool parseLine(const std::string& text, const std::vector<std::string>* keep, ojson& out, std::string& why) {
  bool tooDeep = false;
  const ojson::parser_callback_t filter = [&](int depth, ojson::parse_event_t event, ojson& parsed) {
    if (depth > kMaxJsonDepth) tooDeep = true;
    if (tooDeep) return false;
    if (keep && depth == 1 && event == ojson::parse_event_t::key && parsed.is_string())
      return std::find(keep->begin(), keep->end(), parsed.get_ref<const std::string&>()) != keep->end();
    return true;
  };
  try {
    out = ojson::parse(text, filter, true, false);
  } catch (const nlohmann::json::exception& e) {
    why = std::string("not JSON (") + e.what() + ")";
    return false;
  }
  if (tooDeep) {
    why = "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
    return false;
  }
  if (!out.is_object()) {
    why = "not a JSON object";
    return false;
  }
  return true;
}

std::string whereOf(const RankSummary& r) { return "line " + std::to_string(r.lineNumber) + ": "; }

std::string readLineText(const RankSummary& r) {
  std::string text(r.lineBytes, '\0');
  if (readAt(r.table->fd, text.data(), text.size(), r.lineOffset) < text.size())
    throw std::runtime_error(whereOf(r) + "the table changed since it was read (cut short)");
  return text;
}

ojson readLineAgain(const RankSummary& r, const std::vector<std::string>* keep) {
  ojson j;
  std::string why;
  if (!parseLine(readLineText(r), keep, j, why))
    throw std::runtime_error(whereOf(r) + "the table changed since it was read (" + why + ")");
  j.erase("rank_metrics");
  return j;
}

// A table line's iterations or top kernels, read without building its document.
void readFactsAgain(const RankSummary& r, std::vector<double>* iterations,
                    std::vector<std::pair<std::string, double>>* kernels) {
  std::string why;
  if (!readRankLineFacts(readLineText(r), iterations, kernels, why))
    throw std::runtime_error(whereOf(r) + "the table changed since it was read (" + why + ")");
}

}  // namespace

ojson summaryOf(const RankSummary& r) {
  if (!r.error.empty()) return nullptr;
  if (!r.table) return r.summary;
  return readLineAgain(r, nullptr);
}

ojson summaryKeysOf(const RankSummary& r, const std::vector<std::string>& keys) {
  if (!r.error.empty()) return nullptr;
  if (r.table) return readLineAgain(r, &keys);
  if (!r.summary.is_object()) return r.summary;
  ojson out = ojson::object();
  for (const auto& [k, v] : r.summary.items())
    if (std::find(keys.begin(), keys.end(), k) != keys.end()) out[k] = v;
  return out;
}

std::vector<double> iterationsOf(const RankSummary& r) {
  if (!r.error.empty()) return {};
  if (!r.table) return iterationWallUs(r.summary);
  std::vector<double> out;
  readFactsAgain(r, &out, nullptr);
  return out;
}

std::vector<std::pair<std::string, double>> topKernelsOf(const RankSummary& r) {
  std::vector<std::pair<std::string, double>> out;
  if (!r.error.empty()) return out;
  if (r.table) {
    readFactsAgain(r, nullptr, &out);
    return out;
  }
  const ojson& j = r.summary;
  const auto list = j.is_object() ? j.find("top_kernels") : j.end();
  if (!j.is_object() || list == j.end() || !list->is_array()) return out;
  for (const ojson& k : *list)
    if (k.is_object() && k.contains("name") && k["name"].is_string() && k.contains("total_us") &&
        k["total_us"].is_number())
      out.emplace_back(k["name"].get<std::string>(), k["total_us"].get<double>());
  return out;
}

namespace {

// A table's lines one at a time, in 1 MiB reads; a line over the ceiling is refused
// without being held.
class LineReader {
 public:
  explicit LineReader(int fd) : fd_(fd) {}
  // False at the end. terminated: the line ended in a newline.
  bool next(std::string& line, uint64_t& offset, bool& terminated, std::string& error) {
    line.clear();
    offset = position_;
    terminated = false;
    bool any = false;
    for (;;) {
      if (at_ == end_ && !fill(error)) return false;
      if (at_ == end_) return any;
      any = true;
      const char* start = buffer_.data() + at_;
      const size_t left = end_ - at_;
      const void* nl = std::memchr(start, '\n', left);
      const size_t take = nl ? static_cast<size_t>(static_cast<const char*>(nl) - start) : left;
      if (line.size() + take > kMaxJsonValueBytes) {
        error = "longer than 64 MiB, the ceiling for one JSON value";
        return false;
      }
      line.append(start, take);
      at_ += take;
      position_ += take;
      if (nl) {
        ++at_;
        ++position_;
        terminated = true;
        return true;
      }
    }
  }

 private:
  bool fill(std::string& error) {
    at_ = end_ = 0;
    for (;;) {
      const ssize_t n = ::read(fd_, buffer_.data(), buffer_.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        error = std::strerror(errno);
        return false;
      }
      end_ = static_cast<size_t>(n);
      return true;
    }
  }

  int fd_;
  std::vector<char> buffer_ = std::vector<char>(size_t{1} << 20);
  size_t at_ = 0, end_ = 0;  // the unread bytes of buffer_
  uint64_t position_ = 0;
};

// The lines of a regular file (its newlines, and a last line without one), counted in
// 1 MiB reads and rewound: the ranks are then allocated once (a vector that doubles
// would hold 1.5–2 times 10^6 ranks at its peak). Blank lines count: an upper bound.
size_t countLines(int fd) {
  std::vector<char> buffer(size_t{1} << 20);
  size_t lines = 0;
  bool open = false;
  for (;;) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    lines += static_cast<size_t>(std::count(buffer.data(), buffer.data() + n, '\n'));
    open = buffer[static_cast<size_t>(n) - 1] != '\n';
  }
  ::lseek(fd, 0, SEEK_SET);
  return lines + (open ? 1 : 0);
}

std::optional<int64_t> integerKey(const ojson& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<int64_t>();
}

}  // namespace

bool readRankTable(const std::string& path, std::vector<RankSummary>& out, std::string& error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot open the file";
    return false;
  }
  const auto table = std::make_shared<RankTableFile>(fd);
  // Its lines are read again when the report is written: a pipe or a FIFO cannot be.
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = "not a regular file (a table is read again as the report is written: save it to a file first)";
    return false;
  }
  out.reserve(out.size() + countLines(fd));
  LineReader reader(fd);
  std::string text, why;
  uint64_t offset = 0;
  bool terminated = false;
  uint32_t lineNo = 0;
  const size_t first = out.size();
  for (;;) {
    why.clear();
    if (!reader.next(text, offset, terminated, why)) {
      if (!why.empty()) {
        error = "line " + std::to_string(lineNo + 1) + ": " + why;
        return false;
      }
      break;
    }
    ++lineNo;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    ojson j;
    if (!parseLine(text, nullptr, j, why)) {
      // A partial log's last line can be cut where its run died while writing it.
      if (!terminated && isPartialRankTablePath(path) && out.size() > first && why.rfind("not JSON", 0) == 0) break;
      error = "line " + std::to_string(lineNo) + ": " + why;
      return false;
    }
    RankSummary r;
    r.file =
        j.contains("file") && j["file"].is_string() ? j["file"].get<std::string>() : "line " + std::to_string(lineNo);
    if (const auto n = integerKey(j, "rank")) r.declaredRank = *n, r.hasDeclaredRank = true;
    if (j.contains("error") && !j["error"].is_null()) {
      r.error = j["error"].is_string() ? j["error"].get<std::string>() : j["error"].dump();
    } else {
      // The rank's measurements (summary --rank-metrics, as opscope-cluster asks): the table
      // then aligns clocks and measures collective waits as a folder of traces does.
      if (const auto m = j.find("rank_metrics"); m != j.end()) {
        std::string bad;
        auto metrics = rankMetricsFromJson(*m, bad);
        if (!metrics) {
          error = "line " + std::to_string(lineNo) + ": " + bad;
          return false;
        }
        r.metrics = std::make_shared<const RankMetrics>(std::move(*metrics));
      }
      if (const auto w = integerKey(j, "world_size")) r.worldSize = *w, r.hasWorldSize = true;
      const std::vector<double> its = iterationWallUs(j);
      if (its.size() > UINT32_MAX) {
        error = "line " + std::to_string(lineNo) + ": more than 2^32 iterations";
        return false;
      }
      r.iterationCount = static_cast<uint32_t>(its.size());
      if (!its.empty())
        r.iterationMeanUs = std::accumulate(its.begin(), its.end(), 0.0) / static_cast<double>(its.size());
      r.table = table;
      r.lineOffset = offset;
      r.lineBytes = static_cast<uint32_t>(text.size());
      r.lineNumber = lineNo;
    }
    out.push_back(std::move(r));
  }
  if (out.size() == first) {
    error = "no rank lines in the table";
    return false;
  }
  return true;
}

}  // namespace opscope
