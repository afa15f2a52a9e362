#include "analysis/kernel_classes.h"

#include <unistd.h>

#include <cstdlib>
#include <unordered_map>

#include "io/side_input.h"
#include "text/clip.h"

namespace opscope {

namespace {

// A rule's pattern field compiled, or nullptr with error naming the rule.
std::shared_ptr<const NamePattern> compileField(const nlohmann::json& r, const char* field, size_t index,
                                                const std::string& cls, std::string& error) {
  std::string e;
  auto p = NamePattern::compile(r[field].get<std::string>(), NamePattern::Case::Insensitive, e);
  if (!p)
    error = "kernel classes: rule " + std::to_string(index) + " (" + clipForMessage(cls) + "): bad " + field + " " + e;
  return p;
}

}  // namespace

std::optional<KernelClassifier> KernelClassifier::fromJson(const std::string& text, std::string& error) {
  std::string e;
  auto parsed = parseSideJson(text, e);
  if (!parsed) {
    error = "kernel classes: " + e;
    return std::nullopt;
  }
  const nlohmann::json& j = *parsed;
  if (!j.is_object() || !j.contains("rules") || !j["rules"].is_array()) {
    error = "kernel classes: expected an object with a \"rules\" array";
    return std::nullopt;
  }
  KernelClassifier k;
  size_t index = 0;
  for (const auto& r : j["rules"]) {
    if (!r.is_object() || !r.contains("class") || !r.contains("pattern") || !r["class"].is_string() ||
        !r["pattern"].is_string() || (r.contains("unless") && !r["unless"].is_string())) {
      error = "kernel classes: rule " + std::to_string(index) +
              " needs string fields \"class\" and \"pattern\" (and \"unless\", when given, a string)";
      return std::nullopt;
    }
    Rule rule;
    rule.cls = r["class"].get<std::string>();
    rule.pattern = compileField(r, "pattern", index, rule.cls, error);
    if (!rule.pattern) return std::nullopt;
    if (r.contains("unless")) {
      rule.unless = compileField(r, "unless", index, rule.cls, error);
      if (!rule.unless) return std::nullopt;
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
  if (::access(path.c_str(), F_OK) != 0) return k;  // no user file: the common case
  SideRead read = readSideInput(path, SideInputKind::KernelClasses);
  if (read.status != SideReadStatus::Ok) {
    error = path + ": " + read.error;
    return k;
  }
  std::string e;
  if (auto user = fromJson(read.text, e)) k.prepend(*user);
  else error = path + ": " + e;
  return k;
}

std::string KernelClassifier::classify(std::string_view name) const {
  for (const Rule& r : rules_)
    if (r.pattern->foundIn(name) && !(r.unless && r.unless->foundIn(name))) return r.cls;
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
