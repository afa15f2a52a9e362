#include "text/name_pattern.h"

#include <re2/re2.h>

#include "text/clip.h"

namespace opscope {

NamePattern::~NamePattern() = default;

std::unique_ptr<NamePattern> NamePattern::compile(std::string_view pattern, Case c, std::string& error) {
  RE2::Options options;
  options.set_log_errors(false);
  options.set_case_sensitive(c == Case::Sensitive);
  // Names are bytes as the profiler wrote them, not necessarily UTF-8: match bytes.
  options.set_encoding(RE2::Options::EncodingLatin1);
  std::unique_ptr<NamePattern> p(new NamePattern);
  p->text_ = std::string(pattern);
  p->re_ = std::make_unique<re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (!p->re_->ok()) {
    error = "\"" + clipForMessage(pattern) + "\": " + clipForMessage(p->re_->error(), 80);
    return nullptr;
  }
  return p;
}

bool NamePattern::foundIn(std::string_view name) const {
  return RE2::PartialMatch(re2::StringPiece(name.data(), name.size()), *re_);
}

}  // namespace opscope
