#pragma once
// Search by name: a substring (case-insensitive) or a regular expression (RE2 syntax,
// text/name_pattern.h: linear in the name, so a hostile 1 MB name cannot stall or
// overflow the stack).
// Names are interned, so the pattern is tried once per distinct string, and the event
// columns are then scanned by id.
#include <string>
#include <vector>

#include "model/trace.h"
#include "text/name_pattern.h"

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

// Throws PatternError with a one-line message when a regular expression does not compile.
NameMatcher matchNames(const StringPool& pool, const SearchQuery& query);

// All slices whose name matches, ordered by start time, then track. Stops after limit
// matches (the count it returns is then limit).
std::vector<EventRef> findEvents(const Trace& trace, const NameMatcher& matcher, size_t limit = SIZE_MAX);

}  // namespace opscope
