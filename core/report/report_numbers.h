#pragma once
// Number text shared by the CSV writers: the shortest text that reads back as the same
// double (5.1, not 5.0999999999999996), and ns as such µs.
#include <charconv>
#include <string>

#include "model/ids.h"

namespace opscope {

inline std::string shortestNumber(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

inline std::string usText(TimeNs ns) { return shortestNumber(static_cast<double>(ns) / 1000.0); }

}  // namespace opscope
