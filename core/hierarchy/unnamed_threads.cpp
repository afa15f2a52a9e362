#include "hierarchy/unnamed_threads.h"

#include <algorithm>
#include <unordered_map>

namespace opscope {

void describeUnnamedThreads(Trace& trace) {
  for (Track& t : trace.tracks) {
    if (t.kind != TrackKind::Thread || t.name || t.tid.isString || t.slices.size() == 0) continue;
    if (t.tid.num >= 0 && t.tid.num <= kLinuxPidMaxLimit) continue;
    std::unordered_map<StringId, size_t> count;
    for (StringId n : t.slices.name) ++count[n];
    std::vector<std::pair<StringId, size_t>> byCount(count.begin(), count.end());
    // Most frequent first; ties by name so the label is the same on every run.
    std::sort(byCount.begin(), byCount.end(), [&](const auto& a, const auto& b) {
      return a.second != b.second ? a.second > b.second : trace.str(a.first) < trace.str(b.first);
    });
    constexpr size_t kNamed = 2;
    std::string text;
    for (size_t i = 0; i < std::min(kNamed, byCount.size()); ++i)
      text += (i ? ", " : "") + std::string(trace.str(byCount[i].first));
    if (byCount.size() > kNamed) text += " and " + std::to_string(byCount.size() - kNamed) + " more";
    t.holds = trace.strings.intern(text);
  }
}

}  // namespace opscope
