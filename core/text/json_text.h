#pragma once
// JSON text for output. Traces carry whatever bytes the profiler saw (kernel names,
// args keys, file names need not be UTF-8): invalid sequences are replaced by U+FFFD
// instead of making nlohmann throw, so every JSON opscope writes is valid.
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

namespace opscope {

// indent < 0: compact, as nlohmann's dump().
template <class Json>
std::string jsonText(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

// A double as jsonText writes it (nlohmann's shortest round-trip digits, "1.0" for whole
// numbers, "1e-05" style exponents, null for NaN and infinities), appended without
// building a value: for writers of millions of numbers. Tests compare it with jsonText.
inline void appendJsonDouble(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  char digits[64];  // the size of nlohmann's own number buffer
  const char* end = nlohmann::detail::to_chars(digits, digits + sizeof digits, v);
  out.append(digits, static_cast<size_t>(end - digits));
}

}  // namespace opscope
