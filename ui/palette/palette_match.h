#pragma once
// Ranking of command-palette entries against what the user typed: the letters of the
// query must appear in order in the text (case-insensitive, as in VS Code, Sublime and
// Perfetto's omnibox); contiguous runs, word starts and an early first letter score
// higher, and a shorter text wins ties. No Qt: tested as a plain function.
#include <string_view>

namespace opscope::ui {

// -1 when the query's letters do not all appear in order in text; else a score, higher
// is better. An empty query matches everything with score 0. Spaces in the query are
// ignored, so "dark th" finds "Dark theme".
int paletteScore(std::string_view query, std::string_view text);

}  // namespace opscope::ui
