#pragma once
// JSON text for output. Traces carry whatever bytes the profiler saw (kernel names,
// args keys, file names need not be UTF-8): invalid sequences are replaced by U+FFFD
// instead of making nlohmann throw, so every JSON opscope writes is valid.
#include <nlohmann/json.hpp>
#include <string>

namespace opscope {

// indent < 0: compact, as nlohmann's dump().
template <class Json>
std::string jsonText(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace opscope
