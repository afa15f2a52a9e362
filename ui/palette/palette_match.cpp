#include "palette/palette_match.h"

#include <algorithm>
#include <cctype>

namespace opscope::ui {

namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// A position where a word starts: the text's start, after a separator, or a capital
// after a lower-case letter (camelCase, "ProfilerStep").
bool wordStart(std::string_view text, size_t i) {
  if (i == 0) return true;
  const unsigned char prev = static_cast<unsigned char>(text[i - 1]), c = static_cast<unsigned char>(text[i]);
  if (!std::isalnum(prev)) return true;
  return std::isupper(c) && std::islower(prev);
}

// Whether query[from..] (spaces ignored) appears in order in text[at..].
bool restFits(std::string_view query, size_t from, std::string_view text, size_t at) {
  for (size_t q = from; q < query.size(); ++q) {
    if (query[q] == ' ') continue;
    while (at < text.size() && lower(text[at]) != lower(query[q])) ++at;
    if (at == text.size()) return false;
    ++at;
  }
  return true;
}

}  // namespace

int paletteScore(std::string_view query, std::string_view text) {
  int score = 0;
  size_t t = 0;
  bool previousMatched = false;
  bool first = true;
  for (size_t qi = 0; qi < query.size(); ++qi) {
    if (query[qi] == ' ') continue;
    const char q = lower(query[qi]);
    // The first occurrence at or after t, unless a later word start (or the letter right
    // after the previous match) has it too and the rest of the query still fits after
    // that: "dt" in "Dark theme" takes the "t" of "theme", not the one in "Dark".
    size_t hit = std::string_view::npos;
    for (size_t i = t; i < text.size(); ++i) {
      if (lower(text[i]) != q) continue;
      if (hit == std::string_view::npos) hit = i;
      // A later, better place only when the rest of the query still fits after it.
      if ((wordStart(text, i) || (previousMatched && i == t)) && (i == hit || restFits(query, qi + 1, text, i + 1))) {
        hit = i;
        break;
      }
    }
    if (hit == std::string_view::npos) return -1;
    if (hit == t && previousMatched) score += 8;  // contiguous with the previous letter
    if (wordStart(text, hit)) score += 6;
    if (first) score += hit == 0 ? 10 : std::max(0, 5 - static_cast<int>(hit) / 4);
    score += 1;
    previousMatched = true;
    first = false;
    t = hit + 1;
  }
  // Shorter texts first among equals (a tie-break, never more than the letter bonuses).
  score -= static_cast<int>(std::min<size_t>(text.size(), 200)) / 40;
  return score;
}

}  // namespace opscope::ui
