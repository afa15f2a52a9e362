#pragma once
// Text from a file quoted in a one-line message: cut to a few dozen bytes so a 100 MB
// field never becomes a 100 MB error line, control characters (newlines, tabs, NUL)
// shown as '?' so the message stays one line.
#include <cstddef>
#include <string>
#include <string_view>

namespace opscope {

// At most `keep` bytes of s (never cutting a UTF-8 sequence in two), then
// "… (N bytes)" when s was longer.
std::string clipForMessage(std::string_view s, size_t keep = 40);

}  // namespace opscope
