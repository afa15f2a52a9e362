#pragma once
// Short kernel classes ("gemm", "elementwise", "nccl", ...) for breakdown charts, from
// one editable rule table (resources/analysis/kernel_classes.json, compiled in) plus an
// optional user file tried first. Rules are data, never code branches. Patterns are
// RE2 expressions (text/name_pattern.h): linear in the name, constant stack, whatever
// its length; a rule may carry an "unless" pattern that vetoes it (RE2 has no
// lookahead).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/trace.h"
#include "text/name_pattern.h"

namespace opscope {

class KernelClassifier {
 public:
  // The built-in table.
  static const KernelClassifier& builtin();
  // Rules from JSON text ({"rules": [{"class", "pattern", "unless"?}, ...]}); on a bad
  // file or pattern returns nullopt and sets error to one line naming the rule.
  static std::optional<KernelClassifier> fromJson(const std::string& text, std::string& error);
  // The user's file ($XDG_CONFIG_HOME or ~/.config /opscope/kernel_classes.json) before
  // the built-in rules; a broken or oversized user file is reported in error (one line
  // naming the file) and ignored: the built-in rules alone classify.
  static KernelClassifier withUserOverrides(std::string& error);

  // The class of a kernel name: the first rule whose pattern is found in it and whose
  // "unless" pattern (if any) is not, else "other".
  std::string classify(std::string_view name) const;
  size_t ruleCount() const { return rules_.size(); }
  void prepend(const KernelClassifier& first);

 private:
  struct Rule {
    std::string cls;
    std::shared_ptr<const NamePattern> pattern;
    std::shared_ptr<const NamePattern> unless;  // may be null
  };
  std::vector<Rule> rules_;
};

// The class of every string id that names a GPU event, computed once per name.
std::vector<std::string> classifyGpuNames(const Trace& trace, const KernelClassifier& classifier,
                                          std::vector<int32_t>& classOfName);

extern const char* kBuiltinKernelClassesJson;

}  // namespace opscope
