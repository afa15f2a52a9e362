#pragma once
// The kernel's flags for a mapping of this process (/proc/self/smaps), for the tests of
// which memory asks for transparent huge pages ("hg") and which does not.
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

namespace opscope::test {

// The VmFlags line of the mapping holding address a, empty when none holds it.
inline std::string vmFlagsAt(std::uintptr_t a) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-' && line.find(':') > line.find(' ')) {
      inside = a >= lo && a < hi;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return {};
}

// Whether a VmFlags line holds the two-letter flag (whole words only).
inline bool hasVmFlag(const std::string& flags, const std::string& flag) {
  std::istringstream words(flags);
  std::string w;
  while (words >> w)
    if (w == flag) return true;
  return false;
}

}  // namespace opscope::test
