#pragma once
// Conversions of JSON number text. Timestamps are converted from their text, never
// through a double: 1712196118349367.372 µs has 19 significant digits and a double
// keeps 15-17, which produces false overlaps between adjacent events.
#include <cstdint>
#include <string_view>

namespace opscope {

enum class NumberStatus : uint8_t { Ok, OutOfRange, Invalid };

// µs text ("5.1", "1712196118349367.372", "1.5e3", "-2") -> integer ns, rounded half
// away from zero beyond the third decimal.
NumberStatus microsTextToNs(std::string_view text, int64_t& ns);

// Integer text -> int64. "12.0" and "1e3" are accepted when integral; "12.5" is Invalid.
NumberStatus integerText(std::string_view text, int64_t& value);

// Any JSON number text -> double (Invalid when it is not a number).
NumberStatus doubleText(std::string_view text, double& value);

}  // namespace opscope
