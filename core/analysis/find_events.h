#pragma once
// Search by name: a substring (case-insensitive) or an ECMAScript regular expression.
// Names are interned, so the pattern is tried once per distinct string, and the event
// columns are then scanned by id.
#include <string>
#include <vector>

#include "model/trace.h"

namespace opscope {

struct NameMatcher {
  std::vector<bool> matches;  // by StringId
  uint64_t names = 0;         // distinct names that match
  bool any() const { return names != 0; }
  bool operator()(StringId id) const { return id < matches.size() && matches[id]; }
};

struct SearchQuery {
  std::string text;
  bool regex = false;
  bool caseSensitive = false;
};

// Throws std::regex_error with its message when a regular expression does not compile.
NameMatcher matchNames(const StringPool& pool, const SearchQuery& query);

// All slices whose name matches, ordered by start time, then track. Stops after limit
// matches (the count it returns is then limit).
std::vector<EventRef> findEvents(const Trace& trace, const NameMatcher& matcher, size_t limit = SIZE_MAX);

}  // namespace opscope
