#pragma once
// A regular expression matched against names (kernel names, op names, search text) in
// time linear in the name and constant stack: RE2's automata, never backtracking. Names
// come from files, so a pattern must not recurse per character (std::regex overflowed
// the stack on a 28 KB kernel name) nor take exponential time. The syntax is RE2's
// (Perl-like: classes, alternation, repetition, anchors, (?i)); lookaround and
// back-references are refused when the pattern is compiled.
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace opscope {

// Thrown where a caller prefers an exception to an error string (a search box).
class PatternError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class NamePattern {
 public:
  enum class Case { Sensitive, Insensitive };
  // nullptr and error set to one line ("\"PATTERN\": RE2's reason", both cut to a few
  // dozen characters) when the pattern does not compile.
  static std::unique_ptr<NamePattern> compile(std::string_view pattern, Case c, std::string& error);
  ~NamePattern();
  NamePattern(const NamePattern&) = delete;
  NamePattern& operator=(const NamePattern&) = delete;

  // True when the pattern is found anywhere in the name.
  bool foundIn(std::string_view name) const;
  const std::string& text() const { return text_; }

 private:
  NamePattern() = default;
  std::string text_;
  std::unique_ptr<re2::RE2> re_;
};

}  // namespace opscope
