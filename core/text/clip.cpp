#include "text/clip.h"

namespace opscope {

std::string clipForMessage(std::string_view s, size_t keep) {
  size_t n = s.size() <= keep ? s.size() : keep;
  // Back off continuation bytes (10xxxxxx) so a multi-byte character is kept whole or
  // not at all.
  if (n < s.size())
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  std::string out;
  out.reserve(n + 24);
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    out.push_back(c < 0x20 || c == 0x7F ? '?' : static_cast<char>(c));
  }
  if (n < s.size()) out += "… (" + std::to_string(s.size()) + " bytes)";
  return out;
}

}  // namespace opscope
