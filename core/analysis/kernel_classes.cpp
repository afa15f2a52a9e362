#include "analysis/kernel_classes.h"

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>

namespace opscope {

std::optional<KernelClassifier> KernelClassifier::fromJson(const std::string& text, std::string& error) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    error = std::string("kernel classes: not JSON: ") + e.what();
    return std::nullopt;
  }
  if (!j.is_object() || !j.contains("rules") || !j["rules"].is_array()) {
    error = "kernel classes: expected an object with a \"rules\" array";
    return std::nullopt;
  }
  KernelClassifier k;
  size_t index = 0;
  for (const auto& r : j["rules"]) {
    if (!r.is_object() || !r.contains("class") || !r.contains("pattern") || !r["class"].is_string() ||
        !r["pattern"].is_string()) {
      error = "kernel classes: rule " + std::to_string(index) + " needs string fields \"class\" and \"pattern\"";
      return std::nullopt;
    }
    Rule rule;
    rule.cls = r["class"].get<std::string>();
    rule.pattern = r["pattern"].get<std::string>();
    try {
      rule.re = std::regex(rule.pattern, std::regex::ECMAScript | std::regex::icase | std::regex::optimize);
    } catch (const std::regex_error& e) {
      error = "kernel classes: rule " + std::to_string(index) + " (" + rule.cls + "): bad pattern \"" + rule.pattern +
              "\": " + e.what();
      return std::nullopt;
    }
    k.rules_.push_back(std::move(rule));
    ++index;
  }
  return k;
}

const KernelClassifier& KernelClassifier::builtin() {
  static const KernelClassifier k = [] {
    std::string error;
    auto parsed = fromJson(kBuiltinKernelClassesJson, error);
    // The built-in table is tested; a broken one is a build defect.
    if (!parsed) std::abort();
    return *parsed;
  }();
  return k;
}

void KernelClassifier::prepend(const KernelClassifier& first) {
  std::vector<Rule> merged = first.rules_;
  merged.insert(merged.end(), rules_.begin(), rules_.end());
  rules_ = std::move(merged);
}

KernelClassifier KernelClassifier::withUserOverrides(std::string& error) {
  KernelClassifier k = builtin();
  std::string dir;
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) dir = x;
  else if (const char* h = std::getenv("HOME"); h && *h) dir = std::string(h) + "/.config";
  if (dir.empty()) return k;
  const std::string path = dir + "/opscope/kernel_classes.json";
  std::ifstream in(path);
  if (!in) return k;
  std::stringstream text;
  text << in.rdbuf();
  std::string e;
  if (auto user = fromJson(text.str(), e)) k.prepend(*user);
  else error = path + ": " + e;
  return k;
}

std::string KernelClassifier::classify(std::string_view name) const {
  for (const Rule& r : rules_)
    if (std::regex_search(name.begin(), name.end(), r.re)) return r.cls;
  return "other";
}

std::vector<std::string> classifyGpuNames(const Trace& trace, const KernelClassifier& classifier,
                                          std::vector<int32_t>& classOfName) {
  std::vector<std::string> classes;
  std::unordered_map<std::string, int32_t> index;
  classOfName.assign(trace.strings.size(), -1);
  for (const Track& t : trace.tracks) {
    if (t.kind != TrackKind::GpuStream) continue;
    for (size_t i = 0; i < t.slices.size(); ++i) {
      const StringId n = t.slices.name[i];
      if (classOfName[n] >= 0 || !isGpuKind(t.slices.kind[i])) continue;
      const std::string cls = classifier.classify(trace.str(n));
      auto [it, inserted] = index.try_emplace(cls, static_cast<int32_t>(classes.size()));
      if (inserted) classes.push_back(cls);
      classOfName[n] = it->second;
    }
  }
  return classes;
}

}  // namespace opscope
