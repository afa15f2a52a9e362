#include "io/memory_timeline_raw_loader.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "model/trace_builder.h"

namespace opscope {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;  // series in MiB, as the window's other memory tracks
constexpr std::array<const char*, 8> kCategories = {"Parameter",  "Optimizer state", "Input",    "Temporary",
                                                    "Activation", "Gradient",        "Autograd", "Unknown"};

struct Change {
  int64_t tUs = 0;  // µs, or ns in older exports (see loadMemoryTimelineRaw)
  int64_t action = 0, bytes = 0, category = 0;
};

// A streaming reader of the quadruples: numbers inside the second level of brackets. Any
// other token is an error naming its byte offset; nothing is kept but the quadruples.
class QuadReader {
 public:
  explicit QuadReader(ByteSource& src) : src_(src) {}

  // Reads every quadruple; on error returns false with what(): "byte N: ...".
  bool readAll(std::vector<Change>& out) {
    int depth = 0;
    bool sawTop = false, closedTop = false;
    std::vector<int64_t> numbers;
    for (int c = next(); c >= 0; c = next()) {
      if (std::isspace(c) || c == ',') continue;
      if (closedTop) return fail("bytes after the closing bracket");
      if (c == '[') {
        if (++depth > 2) return fail("an array nested deeper than [[t, action, bytes, category], ...]");
        sawTop = true;
        numbers.clear();
      } else if (c == ']') {
        if (depth == 2) {
          if (numbers.size() != 4) return fail("an entry of " + std::to_string(numbers.size()) + " numbers, not 4");
          out.push_back({numbers[0], numbers[1], numbers[2], numbers[3]});
        }
        if (--depth < 0) return fail("an unmatched ]");
        if (depth == 0) closedTop = true;
      } else if (c == '-' || std::isdigit(c)) {
        if (depth != 2) return fail("a number outside an entry");
        int64_t v = 0;
        if (!number(c, v)) return false;
        numbers.push_back(v);
      } else {
        return fail(std::string("an unexpected '") + static_cast<char>(c) + "'");
      }
    }
    if (!error_.empty()) return false;
    if (!sawTop || !closedTop) return fail("the array is cut short (no closing bracket)");
    return true;
  }
  const std::string& what() const { return error_; }

 private:
  int next() {
    if (pos_ == len_) {
      len_ = src_.read(buf_, sizeof buf_);
      pos_ = 0;
      if (len_ == 0) {
        if (!src_.error().empty() && error_.empty()) error_ = src_.error();
        return -1;
      }
    }
    ++offset_;
    return static_cast<unsigned char>(buf_[pos_++]);
  }
  void back() {  // the character last read is read again
    --pos_;
    --offset_;
  }
  bool number(int c, int64_t& v) {
    const bool negative = c == '-';
    if (negative) c = next();
    if (c < 0 || !std::isdigit(c)) return fail("a '-' without digits");
    uint64_t magnitude = 0;
    for (; c >= 0 && std::isdigit(c); c = next()) {
      if (magnitude > (static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) - 9) / 10)
        return fail("a number beyond 64 bits");
      magnitude = magnitude * 10 + static_cast<uint64_t>(c - '0');
    }
    if (c == '.' || c == 'e' || c == 'E') return fail("a fractional number (the entries are integers)");
    if (c >= 0) back();
    v = negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
    return true;
  }
  bool fail(const std::string& what) {
    if (error_.empty()) error_ = "byte " + std::to_string(offset_) + ": " + what;
    return false;
  }

  ByteSource& src_;
  char buf_[1 << 16];
  size_t pos_ = 0, len_ = 0;
  uint64_t offset_ = 0;
  std::string error_;
};

}  // namespace

bool looksLikeMemoryTimelineRaw(std::string_view head) {
  size_t i = head.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos || head[i] != '[') return false;
  i = head.find_first_not_of(" \t\r\n", i + 1);
  if (i == std::string_view::npos || head[i] != '[') return false;
  i = head.find_first_not_of(" \t\r\n", i + 1);
  return i != std::string_view::npos && (head[i] == '-' || std::isdigit(static_cast<unsigned char>(head[i])));
}

LoadResult loadMemoryTimelineRaw(ByteSource& src) {
  LoadResult r;
  std::vector<Change> changes;
  QuadReader reader(src);
  if (!reader.readAll(changes)) {
    r.status = LoadStatus::InvalidInput;
    r.error = "PyTorch raw memory timeline: " + reader.what();
    return r;
  }
  r.trace = std::make_unique<Trace>();
  Trace& t = *r.trace;
  t.meta.format = "pytorch-memory-timeline-raw";
  t.eventsRead = changes.size();
  TraceBuilder b(t);
  // Memory that existed before profiling began (t = -1) is placed at the first real time,
  // as HTA does.
  int64_t first = -1;
  for (const Change& c : changes)
    if (c.tUs >= 0 && (first < 0 || c.tUs < first)) first = c.tUs;
  if (first < 0) first = 0;
  // The unit: torch writes µs since its export learnt to divide (t / 1000); older exports,
  // HTA's test file among them, wrote the profiler's ns (1.697e18: ns since 1970). Times
  // since the epoch in µs stay below 1e17 until the year 5138, so a larger one is ns.
  int64_t latest = 0;
  for (const Change& c : changes) latest = std::max(latest, c.tUs);
  const int64_t toNs = latest >= 100'000'000'000'000'000 ? 1 : 1000;
  const uint32_t process = b.process(RawId{true, 0, t.strings.intern("export_memory_timeline")});
  t.processes[process].name = t.strings.intern("PyTorch memory");
  std::array<StringId, kCategories.size()> names{};
  for (size_t i = 0; i < kCategories.size(); ++i)
    names[i] = t.strings.intern(std::string("memory: ") + kCategories[i] + " (MiB)");
  const StringId totalName = t.strings.intern("memory: Total (MiB)");
  std::array<double, kCategories.size()> held{};
  size_t badCategory = 0;
  // Changes at one time are applied together: one sample per series per time.
  for (size_t i = 0; i < changes.size();) {
    const int64_t ts = changes[i].tUs < 0 ? first : changes[i].tUs;
    std::array<bool, kCategories.size()> touched{};
    for (; i < changes.size() && (changes[i].tUs < 0 ? first : changes[i].tUs) == ts; ++i) {
      const Change& c = changes[i];
      if (c.category < 0 || c.category >= static_cast<int64_t>(kCategories.size())) {
        ++badCategory;
        continue;
      }
      held[static_cast<size_t>(c.category)] += static_cast<double>(c.bytes);
      touched[static_cast<size_t>(c.category)] = true;
    }
    const TimeNs at = ts > std::numeric_limits<TimeNs>::max() / toNs ? std::numeric_limits<TimeNs>::max() : ts * toNs;
    double total = 0;
    for (size_t k = 0; k < held.size(); ++k) {
      total += held[k];
      if (touched[k]) b.addCounter(process, names[k], at, held[k] / kMiB);
    }
    b.addCounter(process, totalName, at, total / kMiB);
  }
  if (badCategory)
    t.diagnostics.add(WarningKind::MissingField, badCategory,
                      "a category outside 0-7 (Parameter ... Unknown): the change is not counted");
  b.finish();
  return r;
}

}  // namespace opscope
