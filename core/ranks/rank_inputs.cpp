#include "ranks/rank_inputs.h"

#include <glob.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

namespace opscope {

namespace {

bool endsWith(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

bool isTraceFileName(std::string_view name) {
  if (name.empty() || name[0] == '.') return false;
  return endsWith(name, ".json") || endsWith(name, ".gz") || endsWith(name, ".sqlite");
}

bool hasGlobChars(std::string_view s) { return s.find_first_of("*?[") != std::string_view::npos; }

std::string_view baseName(std::string_view path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

bool naturalLess(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i])), db = std::isdigit(static_cast<unsigned char>(b[j]));
    if (da && db) {
      size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      // Compare by value without overflow: strip leading zeros, then length, then text.
      size_t is = i, js = j;
      while (is + 1 < ie && a[is] == '0') ++is;
      while (js + 1 < je && b[js] == '0') ++js;
      if (ie - is != je - js) return ie - is < je - js;
      const int c = a.substr(is, ie - is).compare(b.substr(js, je - js));
      if (c != 0) return c < 0;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

std::optional<int64_t> rankFromFileName(std::string_view path) {
  const std::string_view name = baseName(path);
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  size_t at = lower.rfind("rank");
  while (at != std::string::npos) {
    size_t p = at + 4;
    if (p < lower.size() && (lower[p] == '_' || lower[p] == '-' || lower[p] == '.')) ++p;
    size_t e = p;
    while (e < lower.size() && e - p < 9 && std::isdigit(static_cast<unsigned char>(lower[e]))) ++e;
    if (e > p) return std::stoll(lower.substr(p, e - p));
    if (at == 0) break;
    at = lower.rfind("rank", at - 1);
  }
  return std::nullopt;
}

bool parseRankList(std::string_view text, std::set<int64_t>& out, std::string& error) {
  out.clear();
  auto number = [](std::string_view s, int64_t& v) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    if (s.empty() || s.size() > 9) return false;
    v = 0;
    for (char c : s) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return false;
      v = v * 10 + (c - '0');
    }
    return true;
  };
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view part = text.substr(start, comma - start);
    const size_t dash = part.find('-');
    int64_t a = 0, b = 0;
    const bool ok = dash == std::string_view::npos
                        ? number(part, a) && (b = a, true)
                        : number(part.substr(0, dash), a) && number(part.substr(dash + 1), b);
    if (!ok || b < a || b - a > 1000000) {
      error = "not a rank or range of ranks: '" + std::string(part) + "' (e.g. 0-3,7)";
      out.clear();
      return false;
    }
    for (int64_t r = a; r <= b; ++r) out.insert(r);
    start = comma + 1;
  }
  return true;
}

bool isPartialRankTablePath(std::string_view path) {
  return endsWith(path, ".jsonl.partial") || endsWith(path, ".ndjson.partial");
}

bool isRankTablePath(std::string_view path) {
  return endsWith(path, ".jsonl") || endsWith(path, ".ndjson") || isPartialRankTablePath(path);
}

std::vector<std::string> expandRankInputs(const std::vector<std::string>& args, std::string& error) {
  std::vector<std::string> files;
  for (const std::string& arg : args) {
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      std::vector<std::string> found;
      for (const auto& entry : std::filesystem::directory_iterator(arg, ec)) {
        std::error_code fec;
        if (!entry.is_regular_file(fec)) continue;
        const std::string name = entry.path().filename().string();
        if (isTraceFileName(name)) found.push_back(entry.path().string());
      }
      if (ec) {
        error = arg + ": cannot list the folder (" + ec.message() + ")";
        return {};
      }
      if (found.empty()) {
        error = arg + ": no trace files in the folder (*.json, *.json.gz, *.gz, *.sqlite)";
        return {};
      }
      std::sort(found.begin(), found.end(),
                [](const std::string& a, const std::string& b) { return naturalLess(a, b); });
      files.insert(files.end(), found.begin(), found.end());
    } else if (hasGlobChars(arg) && !std::filesystem::exists(arg, ec)) {
      glob_t g{};
      const int rc = ::glob(arg.c_str(), GLOB_NOSORT, nullptr, &g);
      std::vector<std::string> found;
      if (rc == 0)
        for (size_t i = 0; i < g.gl_pathc; ++i) found.emplace_back(g.gl_pathv[i]);
      ::globfree(&g);
      if (found.empty()) {
        error = arg + ": nothing matches the pattern";
        return {};
      }
      std::sort(found.begin(), found.end(),
                [](const std::string& a, const std::string& b) { return naturalLess(a, b); });
      files.insert(files.end(), found.begin(), found.end());
    } else {
      files.push_back(arg);
    }
  }
  return files;
}

}  // namespace opscope
